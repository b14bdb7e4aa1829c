package transport

import (
	"fmt"
	"strings"
)

// NextEditInstructions are the system instructions of a next-edit request.
const NextEditInstructions = "You are a code editor that predicts the user's next edit. The user sends " +
	"their recent edits as diffs, the code around a region, and the region between " +
	markRegion + " and " + markEnd + ". Reply with the whole region rewritten the way the recent " +
	"edits call for (the uses of a renamed name renamed, call sites given a new argument, " +
	"the same fix made to the same pattern) in one fenced code block and nothing else. " +
	"When nothing follows from the recent edits, reply with the region unchanged."

// Markers of a next-edit instruction; the loopback model server parses
// them back out (ParseNextEdit).
const (
	markNextEdit = "<|wisp:next-edit|>"
	markHistory  = "<|wisp:history|>"
	markAbove    = "<|wisp:above|>"
	markBelow    = "<|wisp:below|>"
)

// NextEdit is what a next-edit request tells the model besides the region
// itself, which travels as the Request's Prefix.
type NextEdit struct {
	// Path is the file the region belongs to.
	Path string
	// History holds the recent edits as unified diffs, oldest first.
	History []string
	// Above and Below are the lines just before and just after the
	// region; empty at the start and end of the file.
	Above, Below string
}

// Instruction renders n as a Request's Instruction.
func (n NextEdit) Instruction() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s\n", markNextEdit, n.Path)
	for _, h := range n.History {
		fmt.Fprintf(&b, "%s\n%s", markHistory, h)
		if !strings.HasSuffix(h, "\n") {
			b.WriteByte('\n')
		}
	}
	fmt.Fprintf(&b, "%s\n%s%s\n%s", markAbove, n.Above, markBelow, n.Below)
	return b.String()
}

// ParseNextEdit recovers a NextEdit from an Instruction that Instruction
// rendered; ok is false for any other instruction.
func ParseNextEdit(instruction string) (n NextEdit, ok bool) {
	rest, ok := strings.CutPrefix(instruction, markNextEdit)
	if !ok {
		return NextEdit{}, false
	}
	n.Path, rest, _ = strings.Cut(rest, "\n")
	head, surround, ok := strings.Cut(rest, markAbove+"\n")
	if !ok {
		return NextEdit{}, false
	}
	n.Above, n.Below, ok = strings.Cut(surround, markBelow+"\n")
	if !ok {
		return NextEdit{}, false
	}
	for _, h := range strings.Split(head, markHistory+"\n") {
		if h != "" {
			n.History = append(n.History, h)
		}
	}
	return n, true
}

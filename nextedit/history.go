package nextedit

import (
	"fmt"
	"strings"

	"github.com/wisp-lsp/wisp/text"
)

// maxHunks bounds how many recent edits a History keeps.
const maxHunks = 6

// Hunk is one recent edit of a document as whole lines: the lines
// [Line, Line+count(Before)) of the text before it became After.
type Hunk struct {
	// Line is the 0-based first line of the hunk in the text after it.
	Line int
	// Before and After are the hunk's lines, each ending in a newline
	// unless it ends the text.
	Before, After string
}

// Diff renders the hunk as a unified diff of path.
func (h Hunk) Diff(path string) string {
	var b strings.Builder
	before, after := splitLines(h.Before), splitLines(h.After)
	fmt.Fprintf(&b, "--- %s\n+++ %s\n@@ -%d,%d +%d,%d @@\n", path, path, h.Line+1, len(before), h.Line+1, len(after))
	for _, l := range before {
		b.WriteString("-" + strings.TrimSuffix(l, "\n") + "\n")
	}
	for _, l := range after {
		b.WriteString("+" + strings.TrimSuffix(l, "\n") + "\n")
	}
	return b.String()
}

// History is the recent edits of one document, oldest first. Keystrokes on
// the same lines merge into one hunk, so typing a word is one edit. It is
// not safe for concurrent use.
type History struct {
	hunks []Hunk
	// last is the byte offset, in the latest text, where the latest edit
	// ended; -1 before any edit.
	last int
}

// NewHistory returns an empty history.
func NewHistory() *History { return &History{last: -1} }

// Record notes the change from before to after. edits are the change as
// text.Text.Apply reported it; only whether there were any matters, since
// the changed lines are found by comparing the texts.
func (h *History) Record(before, after *text.Text, edits []text.Edit) {
	if len(edits) == 0 {
		return
	}
	b, a := before.String(), after.String()
	pre := commonPrefix(b, a)
	suf := commonSuffix(b[pre:], a[pre:])
	if pre == len(b) && pre == len(a) {
		return
	}
	h.last = len(a) - suf
	first := before.LineOf(pre)
	lastOld := before.LineOf(max(len(b)-suf, pre))
	lastNew := after.LineOf(max(len(a)-suf, pre))
	if n := len(h.hunks); n > 0 {
		prev := &h.hunks[n-1]
		prevEnd := prev.Line + max(len(splitLines(prev.After)), 1) - 1
		if first >= prev.Line && lastOld <= prevEnd {
			// Within the lines the previous edit left: one edit in
			// progress, as typing a word is.
			prev.After = linesText(after, prev.Line, prevEnd+lastNew-lastOld)
			if prev.Before == prev.After {
				h.hunks = h.hunks[:n-1]
			}
			return
		}
	}
	h.hunks = append(h.hunks, Hunk{Line: first, Before: linesText(before, first, lastOld), After: linesText(after, first, lastNew)})
	if len(h.hunks) > maxHunks {
		h.hunks = h.hunks[len(h.hunks)-maxHunks:]
	}
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

func commonSuffix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// Hunks returns the recorded edits, oldest first. The slice is the
// caller's.
func (h *History) Hunks() []Hunk { return append([]Hunk(nil), h.hunks...) }

// Last returns where the latest edit ended, in the latest text's bytes;
// ok is false before any edit.
func (h *History) Last() (off int, ok bool) { return h.last, h.last >= 0 }

// linesText returns lines [first, last] of t, with their newlines.
func linesText(t *text.Text, first, last int) string {
	first = min(max(first, 0), t.LineCount()-1)
	return t.String()[t.LineStart(first):linesEnd(t, max(last, first))]
}

// splitLines splits s after each newline; "" has no lines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
}

package transport

import (
	"fmt"
	"strings"
)

// Markers that delimit the parts of a chat-style prompt. Chat models see a
// file with the cursor marked; the loopback model server parses the same
// markers back out (ParseChat), so the two can never disagree.
const (
	markFile   = "<|wisp:file|>"
	markCursor = "<|wisp:cursor|>"
	markRegion = "<|wisp:region|>"
	markEnd    = "<|wisp:end|>"
	markNote   = "<|wisp:instruction|>"
)

// Default system instructions for chat-only models.
const (
	CompletionInstructions = "You are a code completion engine. The user sends a file in which " +
		markCursor + " marks the cursor. Reply with only the text to insert at the cursor: " +
		"no explanation, no code fences, and never repeat text that is already before or after the cursor. " +
		"Finish the current line, or the current block when the cursor opens one."
	EditInstructions = "You are a code editor. The user sends a region of a file between " +
		markRegion + " and " + markEnd + ", its surrounding context, and an instruction. " +
		"Reply with the whole rewritten region in one fenced code block and nothing else. " +
		"Change only what the instruction needs; keep everything else byte for byte."
)

// RenderChat renders req as chat instructions and one user message. A
// request with an Instruction is an edit; otherwise it is a completion.
func RenderChat(req Request) (instructions, input string) {
	var b strings.Builder
	for _, s := range req.Context {
		fmt.Fprintf(&b, "Context from %s:\n%s\n\n", s.Path, s.Text)
	}
	if req.Instruction != "" {
		instructions = EditInstructions
		fmt.Fprintf(&b, "File: %s (%s)\n%s%s\n%s%s%s", req.Path, req.Language,
			markNote, req.Instruction, markRegion, req.Prefix, markEnd)
	} else {
		instructions = CompletionInstructions
		fmt.Fprintf(&b, "File: %s (%s)\n%s%s%s%s%s", req.Path, req.Language,
			markFile, req.Prefix, markCursor, req.Suffix, markEnd)
	}
	if req.System != "" {
		instructions = req.System
	}
	return instructions, b.String()
}

// ParseChat recovers the prefix, suffix and instruction from a user message
// that RenderChat produced. ok is false when input holds no wisp markers.
func ParseChat(input string) (prefix, suffix, instruction string, ok bool) {
	if i := strings.LastIndex(input, markRegion); i >= 0 {
		region, _, _ := strings.Cut(input[i+len(markRegion):], markEnd)
		if j := strings.LastIndex(input[:i], markNote); j >= 0 {
			instruction = strings.TrimSuffix(input[j+len(markNote):i], "\n")
		}
		return region, "", instruction, true
	}
	i := strings.LastIndex(input, markFile)
	c := strings.LastIndex(input, markCursor)
	if i < 0 || c < i {
		return "", "", "", false
	}
	prefix = input[i+len(markFile) : c]
	suffix = input[c+len(markCursor):]
	if e := strings.LastIndex(suffix, markEnd); e >= 0 {
		suffix = suffix[:e]
	}
	return prefix, suffix, "", true
}

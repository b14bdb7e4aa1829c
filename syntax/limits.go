package syntax

import (
	"errors"
	"fmt"

	"github.com/wisp-lsp/wisp/text"
)

// Limits past which a text is not parsed. Such a text is almost always
// generated or minified (bundles, lock files, embedded data); its tree
// holds tens of bytes of C memory per source byte, and keeping it current
// costs a reparse on every keystroke that grows with the text (see
// BENCHMARKS.md, "Large documents"). Callers fall back to plain text,
// which every consumer of a tree already handles.
const (
	// MaxParseBytes is the largest text parsed. 512 KiB covers hand-written
	// source files (the largest in Go's own tree are under 400 KB) and
	// bounds a keystroke and the completion after it, reparse included, to
	// about a tenth of a second on a busy two-core machine; at 1 MiB it
	// was three times that.
	MaxParseBytes = 512 << 10
	// MaxLineBytes is the longest line in a text that is parsed: hand-written
	// code stays far below 4 KiB, minified code and data far above it.
	MaxLineBytes = 4 << 10
)

// ErrTooLarge is returned by Parse and Reparse for a text past MaxParseBytes
// or with a line past MaxLineBytes; the error says which.
var ErrTooLarge = errors.New("syntax: too large to parse")

// CheckSize returns nil if src is within the parse limits, else an error
// wrapping ErrTooLarge that says which limit it passes. It costs one pass
// over the line index, and nothing for a text past MaxParseBytes.
func CheckSize(src *text.Text) error {
	if src.Len() > MaxParseBytes {
		return fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, src.Len(), MaxParseBytes)
	}
	if src.Len() <= MaxLineBytes {
		return nil
	}
	for line, n := 0, src.LineCount(); line < n; line++ {
		if w := src.LineEnd(line) - src.LineStart(line); w > MaxLineBytes {
			return fmt.Errorf("%w: line %d is %d bytes, the limit is %d", ErrTooLarge, line+1, w, MaxLineBytes)
		}
	}
	return nil
}

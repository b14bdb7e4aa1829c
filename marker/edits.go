package marker

import (
	"fmt"
	"strings"
)

// Edit replaces bytes [Start, End) of a file with Text.
type Edit struct {
	Start, End int
	Text       string
}

// FormatEdits renders edits as a quick-edit case's "want-edits" golden:
// one line each, "L:C-L:C \"text\"", 1-based lines and byte columns of
// src, the text Go-quoted.
func FormatEdits(src string, edits []Edit) string {
	point := func(off int) string {
		line := strings.Count(src[:off], "\n")
		col := off - (strings.LastIndexByte(src[:off], '\n') + 1)
		return fmt.Sprintf("%d:%d", line+1, col+1)
	}
	var b strings.Builder
	for _, e := range edits {
		fmt.Fprintf(&b, "%s-%s %q\n", point(e.Start), point(e.End), e.Text)
	}
	return b.String()
}

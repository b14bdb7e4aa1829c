package edits

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/wisp-lsp/wisp/text"
)

// Target names what "wisp edit" should edit: a file, a line or position in
// it (the code there is the region), or a range. Lines and columns are
// 1-based, columns count bytes, as Go tools print positions; 0 means
// absent.
type Target struct {
	Path string
	// Line and Col locate the cursor or the range's start. Line == 0 means
	// the whole file; Col == 0 means the start of the line.
	Line, Col int
	// EndLine and EndCol end a range (exclusive); EndLine == 0 means no
	// range: the region is the code around the cursor.
	EndLine, EndCol int
}

// targetRE splits FILE[:LINE[:COL[-LINE:COL]]]. The file part is lazy so a
// path that itself holds colons still parses when a position follows.
var targetRE = regexp.MustCompile(`^(.+?)(?::(\d+)(?::(\d+)(?:-(\d+):(\d+))?)?)?$`)

// ParseTarget parses FILE[:LINE[:COL[-LINE:COL]]], for example
// "main.go", "main.go:12", "main.go:12:3" or "main.go:12:3-14:1".
func ParseTarget(s string) (Target, error) {
	m := targetRE.FindStringSubmatch(s)
	if m == nil {
		return Target{}, fmt.Errorf("%w: %q is not FILE[:LINE[:COL[-LINE:COL]]]", ErrBadTarget, s)
	}
	var n [4]int
	for i, f := range m[2:] {
		if f == "" {
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 {
			return Target{}, fmt.Errorf("%w: %q: lines and columns count from 1", ErrBadTarget, s)
		}
		n[i] = v
	}
	t := Target{Path: m[1], Line: n[0], Col: n[1], EndLine: n[2], EndCol: n[3]}
	if t.EndLine != 0 && (t.EndLine < t.Line || t.EndLine == t.Line && t.EndCol < t.Col) {
		return Target{}, fmt.Errorf("%w: %q: the range ends before it starts", ErrBadTarget, s)
	}
	return t, nil
}

// String formats t the way ParseTarget reads it.
func (t Target) String() string {
	switch {
	case t.Line == 0:
		return t.Path
	case t.EndLine != 0:
		return fmt.Sprintf("%s:%d:%d-%d:%d", t.Path, t.Line, max(t.Col, 1), t.EndLine, max(t.EndCol, 1))
	case t.Col != 0:
		return fmt.Sprintf("%s:%d:%d", t.Path, t.Line, t.Col)
	}
	return fmt.Sprintf("%s:%d", t.Path, t.Line)
}

// Offsets resolves t against doc: the byte offsets of its start and end
// (equal for a cursor). A target naming a line or column past the end of
// its line or file is an error wrapping ErrBadTarget; the whole file is
// [0, doc.Len()).
func (t Target) Offsets(doc *text.Text) (start, end int, err error) {
	if t.Line == 0 {
		return 0, doc.Len(), nil
	}
	if start, err = position(doc, t.Line, t.Col); err != nil {
		return 0, 0, fmt.Errorf("%w: %s: %w", ErrBadTarget, t, err)
	}
	if t.EndLine == 0 {
		return start, start, nil
	}
	if end, err = position(doc, t.EndLine, t.EndCol); err != nil {
		return 0, 0, fmt.Errorf("%w: %s: %w", ErrBadTarget, t, err)
	}
	return start, end, nil
}

// position converts a 1-based line and byte column (0 meaning 1) to an
// offset. Column len(line)+1 is the line's end; anything further, or a
// column inside a multi-byte character, is an error.
func position(doc *text.Text, line, col int) (int, error) {
	if line > doc.LineCount() {
		return 0, fmt.Errorf("line %d is past the end of the file (%d lines)", line, doc.LineCount())
	}
	col = max(col, 1)
	start := doc.LineStart(line - 1)
	width := doc.LineEnd(line-1) - start
	if col-1 > width {
		return 0, fmt.Errorf("column %d is past the end of line %d (%d bytes)", col, line, width)
	}
	off, err := doc.Offset(text.Position{Line: line - 1, Character: col - 1}, text.UTF8)
	if err != nil {
		return 0, err
	}
	if off != start+col-1 {
		return 0, fmt.Errorf("column %d of line %d is inside a character", col, line)
	}
	return off, nil
}

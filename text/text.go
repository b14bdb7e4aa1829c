// Package text is wisp's one coordinate authority: immutable document text
// with a line index, converting between byte offsets, LSP positions in any
// of the three position encodings, and tree-sitter points.
//
// Everything inside wisp works in byte offsets into a Text. Only the edges
// convert: the LSP server turns positions into offsets on the way in and
// offsets into positions on the way out; the syntax package asks for points.
// No other package does arithmetic on UTF-16 code units.
package text

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Encoding is the unit in which a Position's Character counts.
type Encoding int

// The position encodings LSP 3.17+ defines. UTF16 is the protocol default.
const (
	UTF16 Encoding = iota
	UTF8
	UTF32
)

// String returns the encoding's LSP name ("utf-16", "utf-8", "utf-32").
func (e Encoding) String() string {
	switch e {
	case UTF8:
		return "utf-8"
	case UTF32:
		return "utf-32"
	default:
		return "utf-16"
	}
}

// ParseEncoding maps an LSP PositionEncodingKind to an Encoding.
func ParseEncoding(name string) (Encoding, bool) {
	switch name {
	case "utf-8":
		return UTF8, true
	case "utf-16":
		return UTF16, true
	case "utf-32":
		return UTF32, true
	}
	return UTF16, false
}

// Position is a zero-based line and a character offset within that line,
// counted in some Encoding.
type Position struct {
	Line, Character int
}

// Range is a half-open span between two Positions.
type Range struct {
	Start, End Position
}

// Point is a tree-sitter point: zero-based row and a column in bytes.
type Point struct {
	Row, Column int
}

// Errors returned for coordinates that do not name a place in the text.
var (
	// ErrLineOutOfRange: the position's line is past the last line.
	ErrLineOutOfRange = errors.New("line out of range")
	// ErrOffsetOutOfRange: a byte offset is negative or past the end.
	ErrOffsetOutOfRange = errors.New("offset out of range")
	// ErrInvertedRange: a range's end comes before its start.
	ErrInvertedRange = errors.New("range end before start")
)

// Text is an immutable document text and its line index. The zero value is
// not usable; call New. A *Text may be shared freely between goroutines.
type Text struct {
	s string
	// lines holds the byte offset at which each line starts; lines[0] == 0.
	// A line ends before its terminator ("\n", "\r\n" or a lone "\r").
	lines []int
	// loneCR reports a "\r" not followed by "\n": LSP lines and
	// tree-sitter rows then differ (tree-sitter breaks rows at "\n" only).
	loneCR bool
}

// New indexes s.
func New(s string) *Text {
	return &Text{s: s, lines: indexLines(s, nil), loneCR: hasLoneCR(s)}
}

func hasLoneCR(s string) bool {
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '\r')
		if j < 0 {
			return false
		}
		i += j + 1
		if i == len(s) || s[i] != '\n' {
			return true
		}
	}
}

// indexLines appends the start offset of every line of s to dst.
func indexLines(s string, dst []int) []int {
	dst = append(dst[:0], 0)
	if strings.IndexByte(s, '\r') < 0 {
		// Fast path: LF-only text, scanned with the vectorised IndexByte.
		for i := 0; ; {
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return dst
			}
			i += j + 1
			dst = append(dst, i)
		}
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			dst = append(dst, i+1)
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			dst = append(dst, i+1)
		}
	}
	return dst
}

// String returns the whole text.
func (t *Text) String() string { return t.s }

// Len returns the text's length in bytes.
func (t *Text) Len() int { return len(t.s) }

// LineCount returns the number of lines; an empty text has one line.
func (t *Text) LineCount() int { return len(t.lines) }

// LineStart returns the byte offset at which line starts. line must be in
// [0, LineCount()).
func (t *Text) LineStart(line int) int { return t.lines[line] }

// LineEnd returns the byte offset at which line's content ends, before its
// terminator.
func (t *Text) LineEnd(line int) int {
	if line+1 >= len(t.lines) {
		return len(t.s)
	}
	end := t.lines[line+1]
	if end > 0 && t.s[end-1] == '\n' {
		end--
	}
	if end > t.lines[line] && t.s[end-1] == '\r' {
		end--
	}
	return end
}

// Line returns the content of line without its terminator.
func (t *Text) Line(line int) string { return t.s[t.lines[line]:t.LineEnd(line)] }

// LineOf returns the line holding byte offset off (clamped to the text).
func (t *Text) LineOf(off int) int {
	off = max(0, min(off, len(t.s)))
	lo, hi := 0, len(t.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if t.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// Offset converts p, counted in enc, to a byte offset. As LSP specifies, a
// character past the end of its line means the end of the line; a character
// inside a multi-byte sequence or surrogate pair snaps back to the start of
// that character. A line past the last line is an error, except that the
// position just after a final line terminator (line == LineCount()) is not
// produced by New and therefore also an error.
func (t *Text) Offset(p Position, enc Encoding) (int, error) {
	if p.Line < 0 || p.Line >= len(t.lines) {
		return 0, fmt.Errorf("%w: line %d, text has %d", ErrLineOutOfRange, p.Line, len(t.lines))
	}
	start, end := t.lines[p.Line], t.LineEnd(p.Line)
	if p.Character <= 0 {
		return start, nil
	}
	if enc == UTF8 {
		off := min(start+p.Character, end)
		for off > start && off < end && !utf8.RuneStart(t.s[off]) {
			off--
		}
		return off, nil
	}
	units := 0
	for i := start; i < end; {
		r, size := utf8.DecodeRuneInString(t.s[i:])
		w := 1
		if enc == UTF16 && r >= 0x10000 && r != utf8.RuneError {
			w = 2
		}
		if units+w > p.Character {
			return i, nil
		}
		units += w
		i += size
		if units == p.Character {
			return i, nil
		}
	}
	return end, nil
}

// Position converts byte offset off to a position counted in enc. An offset
// inside a multi-byte character counts as that character's start.
func (t *Text) Position(off int, enc Encoding) (Position, error) {
	if off < 0 || off > len(t.s) {
		return Position{}, fmt.Errorf("%w: %d, text has %d bytes", ErrOffsetOutOfRange, off, len(t.s))
	}
	line := t.LineOf(off)
	start := t.lines[line]
	if end := t.LineEnd(line); off > end {
		off = end // inside a CRLF terminator
	}
	if enc == UTF8 {
		return Position{Line: line, Character: off - start}, nil
	}
	return Position{Line: line, Character: Units(t.s[start:off], enc)}, nil
}

// Units counts s in enc's units: bytes, UTF-16 code units or code points.
// Invalid UTF-8 bytes count as one unit each.
func Units(s string, enc Encoding) int {
	switch enc {
	case UTF8:
		return len(s)
	case UTF32:
		return utf8.RuneCountInString(s)
	}
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// Point converts byte offset off (clamped to the text) to a tree-sitter
// point. Tree-sitter rows break at "\n" only, so in a text with a lone
// "\r" rows and LSP lines differ.
func (t *Text) Point(off int) Point {
	off = max(0, min(off, len(t.s)))
	if t.loneCR {
		row := strings.Count(t.s[:off], "\n")
		return Point{Row: row, Column: off - (strings.LastIndexByte(t.s[:off], '\n') + 1)}
	}
	line := t.LineOf(off)
	return Point{Row: line, Column: off - t.lines[line]}
}

// Span converts r, counted in enc, to byte offsets [start, end).
func (t *Text) Span(r Range, enc Encoding) (start, end int, err error) {
	if start, err = t.Offset(r.Start, enc); err != nil {
		return 0, 0, fmt.Errorf("range start: %w", err)
	}
	if end, err = t.Offset(r.End, enc); err != nil {
		return 0, 0, fmt.Errorf("range end: %w", err)
	}
	if end < start {
		return 0, 0, fmt.Errorf("%w: %v..%v", ErrInvertedRange, r.Start, r.End)
	}
	return start, end, nil
}

// RangeOf converts byte offsets [start, end) to a range counted in enc.
func (t *Text) RangeOf(start, end int, enc Encoding) (Range, error) {
	s, err := t.Position(start, enc)
	if err != nil {
		return Range{}, err
	}
	e, err := t.Position(end, enc)
	if err != nil {
		return Range{}, err
	}
	return Range{Start: s, End: e}, nil
}

package text

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestOffsetAndPositionInEachEncoding(t *testing.T) {
	doc := New("a😀b\r\né\n\rx")
	cases := []struct {
		enc  Encoding
		pos  Position
		want int
	}{
		{UTF16, Position{0, 1}, 1},
		{UTF16, Position{0, 2}, 1}, // inside the surrogate pair: snaps back
		{UTF16, Position{0, 3}, 5},
		{UTF32, Position{0, 2}, 5},
		{UTF8, Position{0, 3}, 1}, // inside the emoji's bytes: snaps back
		{UTF8, Position{0, 5}, 5},
		{UTF16, Position{0, 99}, 6}, // past the line's end: the line's end, before CRLF
		{UTF16, Position{1, 1}, 10},
		{UTF16, Position{2, 0}, 11}, // the empty line ended by the lone "\r"
		{UTF16, Position{3, 1}, 13},
	}
	for _, c := range cases {
		got, err := doc.Offset(c.pos, c.enc)
		if err != nil || got != c.want {
			t.Errorf("Offset(%v, %v) = %d, %v; want %d", c.pos, c.enc, got, err, c.want)
		}
	}
	if _, err := doc.Offset(Position{4, 0}, UTF16); !errors.Is(err, ErrLineOutOfRange) {
		t.Errorf("line past the end: %v", err)
	}
	if p, _ := doc.Position(5, UTF16); p != (Position{0, 3}) {
		t.Errorf("Position(5) = %v", p)
	}
	if p, _ := doc.Position(7, UTF16); p != (Position{0, 4}) { // inside "\r\n": the line's end
		t.Errorf("Position(7) = %v", p)
	}
}

func TestPointCountsOnlyNewlines(t *testing.T) {
	doc := New("a\rb\r\nc")
	if p := doc.Point(2); p != (Point{0, 2}) {
		t.Errorf("Point after a lone CR = %v, want {0 2} (tree-sitter rows break at \\n)", p)
	}
	if p := doc.Point(6); p != (Point{1, 1}) {
		t.Errorf("Point(6) = %v", p)
	}
	n, _, _ := New("a\r\nb").Replace(2, 3, "")
	if p := n.Point(3); p != (Point{0, 3}) {
		t.Errorf("after deleting the LF of a CRLF: %v", p)
	}
}

func TestApplyIsAllOrNothing(t *testing.T) {
	doc := New("one\ntwo\n")
	r1 := Range{Position{0, 0}, Position{0, 3}}
	bad := Range{Position{9, 0}, Position{9, 1}}
	if _, _, err := doc.Apply([]Change{{Range: &r1, Text: "1"}, {Range: &bad, Text: "x"}}, UTF16); err == nil {
		t.Fatal("a bad second change was accepted")
	}
	if doc.String() != "one\ntwo\n" {
		t.Fatal("the text changed")
	}
	inv := Range{Position{1, 2}, Position{0, 1}}
	if _, _, err := doc.Apply([]Change{{Range: &inv, Text: ""}}, UTF16); !errors.Is(err, ErrInvertedRange) {
		t.Fatalf("inverted range: %v", err)
	}
}

// FuzzApply: applying edits through Text gives the same text, line index
// and points as applying them to a plain string and indexing afresh.
func FuzzApply(f *testing.F) {
	f.Add("hello\nworld\n", uint16(3), uint16(2), "X\r\n", uint8(0))
	f.Add("a\r\nb\rc\n😀é", uint16(2), uint16(1), "", uint8(1))
	f.Add("", uint16(0), uint16(0), "\r", uint8(2))
	f.Add("x\ry", uint16(1), uint16(1), "\n", uint8(0))
	f.Fuzz(func(t *testing.T, s string, at, n uint16, ins string, encSel uint8) {
		doc := New(s)
		start := int(at) % (len(s) + 1)
		end := min(start+int(n)%8, len(s))
		enc := Encoding(encSel % 3)
		want := s[:start] + ins + s[end:]
		// Through LSP positions when both ends are on character starts.
		r, err := doc.RangeOf(start, end, enc)
		if err != nil {
			t.Fatal(err)
		}
		onChars := utf8.ValidString(s) && (start == len(s) || utf8.RuneStart(s[start])) && (end == len(s) || utf8.RuneStart(s[end]))
		insideCRLF := func(o int) bool { return o > 0 && o < len(s) && s[o-1] == '\r' && s[o] == '\n' }
		if onChars && !insideCRLF(start) && !insideCRLF(end) {
			got, edits, err := doc.Apply([]Change{{Range: &r, Text: ins}}, enc)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if got.String() != want {
				t.Fatalf("Apply gave %q, want %q", got.String(), want)
			}
			if e := edits[0]; e.Start != start || e.OldEnd != end || e.NewEnd != start+len(ins) {
				t.Fatalf("edit %+v for [%d,%d)+%d", e, start, end, len(ins))
			}
		}
		got, e, err := doc.Replace(start, end, ins)
		if err != nil {
			t.Fatal(err)
		}
		fresh := New(want)
		if got.String() != want || !equalInts(got.lines, fresh.lines) || got.loneCR != fresh.loneCR {
			t.Fatalf("Replace index %v (loneCR %v), fresh %v (%v)", got.lines, got.loneCR, fresh.lines, fresh.loneCR)
		}
		if e.StartPoint != doc.Point(start) || e.OldEndPoint != doc.Point(end) || e.NewEndPoint != fresh.Point(start+len(ins)) {
			t.Fatalf("edit points %+v", e)
		}
		for off := 0; off <= len(want); off++ {
			p := fresh.Point(off)
			if p.Row != strings.Count(want[:off], "\n") {
				t.Fatalf("Point(%d) = %v", off, p)
			}
		}
	})
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func BenchmarkReplaceOn5000Lines(b *testing.B) {
	doc := New(strings.Repeat("\tfmt.Println(\"hello, world\") // a line of code\n", 5000))
	mid := doc.Len() / 2
	for b.Loop() {
		if _, _, err := doc.Replace(mid, mid, "x"); err != nil {
			b.Fatal(err)
		}
	}
}

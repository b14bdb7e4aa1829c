package edits

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkDiff verifies Diff's contract for one pair and returns the edits.
func checkDiff(t testing.TB, old, new string) []Edit {
	t.Helper()
	edits := Diff(old, new)
	got, err := Apply(old, edits)
	if err != nil {
		t.Fatalf("Apply(Diff(%q, %q)): %v", old, new, err)
	}
	if got != new {
		t.Fatalf("Apply(Diff(%q, %q)) = %q; edits %v", old, new, got, edits)
	}
	for i, e := range edits {
		if i > 0 && e.Start <= edits[i-1].End && !(e.Start == edits[i-1].End && e.Start == e.End) {
			// Touching edits should have been merged.
			t.Errorf("edits %v and %v touch or overlap", edits[i-1], e)
		}
		for _, b := range []int{e.Start, e.End} {
			if b < len(old) && !utf8.RuneStart(old[b]) && utf8.ValidString(old) {
				t.Errorf("edit %v splits a UTF-8 sequence in %q", e, old)
			}
			if b > 0 && b < len(old) && old[b-1] == '\r' && old[b] == '\n' {
				t.Errorf("edit %v splits a CRLF pair in %q", e, old)
			}
		}
		if strings.HasPrefix(e.Text, "\n") && e.Start > 0 && old[e.Start-1] == '\r' {
			t.Errorf("edit %v completes a CRLF pair it does not own", e)
		}
	}
	return edits
}

func TestDiffRenameIsMinimal(t *testing.T) {
	var b strings.Builder
	b.WriteString("func sum(values []int) int {\n\ttotal := 0\n")
	for i := range 26 {
		fmt.Fprintf(&b, "\t// step %d of the loop that adds things up\n", i)
	}
	b.WriteString("\tfor _, v := range values {\n\t\ttotal += v\n\t}\n\treturn total\n}\n")
	old := b.String()
	if n := strings.Count(old, "\n"); n < 30 {
		t.Fatalf("fixture has %d lines, want 30+", n)
	}
	new := strings.ReplaceAll(old, "total", "acc")
	edits := checkDiff(t, old, new)
	if len(edits) != 3 {
		t.Fatalf("got %d edits, want 3: %v", len(edits), edits)
	}
	for _, e := range edits {
		if old[e.Start:e.End] != "total" || e.Text != "acc" {
			t.Errorf("edit %v replaces %q with %q, want \"total\" → \"acc\"", e, old[e.Start:e.End], e.Text)
		}
	}
}

func TestDiff(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
		want           []Edit
	}{
		{"equal", "a\nb\n", "a\nb\n", nil},
		{"insert line", "a\nc\n", "a\nb\nc\n", []Edit{{2, 2, "b\n"}}},
		{"delete line", "a\nb\nc\n", "a\nc\n", []Edit{{2, 4, ""}}},
		{"word in line", "x := foo(1)\n", "x := bar(1)\n", []Edit{{5, 8, "bar"}}},
		{"merged over blanks", "return a + b\n", "return x * y\n", []Edit{{7, 12, "x * y"}}},
		{"first line", "one\ntwo\n", "uno\ntwo\n", []Edit{{0, 3, "uno"}}},
		{"last line no newline", "one\ntwo", "one\ntwo\n", []Edit{{7, 7, "\n"}}},
		{"multibyte", "s := \"héllo\"\n", "s := \"hélla\"\n", []Edit{{6, 12, "hélla"}}},
		{"crlf kept whole", "a\r\nb\r\n", "a\nb\r\n", []Edit{{1, 3, "\n"}}},
		{"crlf word", "if x {\r\n\treturn x\r\n}\r\n", "if y {\r\n\treturn y\r\n}\r\n",
			[]Edit{{3, 4, "y"}, {16, 17, "y"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checkDiff(t, tc.old, tc.new)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("Diff = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestApplyRejectsBadEdits(t *testing.T) {
	for _, edits := range [][]Edit{
		{{Start: 2, End: 1}},
		{{Start: 0, End: 9}},
		{{Start: -1, End: 0}},
		{{Start: 2, End: 3}, {Start: 1, End: 2}},
		{{Start: 0, End: 3}, {Start: 2, End: 4}},
	} {
		if _, err := Apply("hello", edits); err == nil {
			t.Errorf("Apply(%v) succeeded, want an error", edits)
		}
	}
}

func FuzzDiff(f *testing.F) {
	seeds := [][2]string{
		{"", ""},
		{"a\nb\nc\n", "a\nB\nc\n"},
		{"total := 1\nreturn total\n", "acc := 1\nreturn acc\n"},
		{"a\r\nb\r\n", "a\nb\n"},
		{"a\rb", "a\r\nb"},
		{"héllo wörld\n", "hello world\n"},
		{"日本語\n", "日本人\n"},
		{"\xff\xfe a", "\xfe\xff a"},
		{"x", ""},
		{"", "new file\n"},
		{"func f() {\n}\n", "func f() {\n\treturn\n}\n"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, old, new string) {
		checkDiff(t, old, new)
	})
}

func BenchmarkDiff2000(b *testing.B) {
	var ob, nb strings.Builder
	for i := range 2000 {
		line := fmt.Sprintf("\tvalue%d := compute(input[%d], weight*%d) // keep %d\n", i, i, i%7, i)
		ob.WriteString(line)
		if i%100 == 50 { // 1% of lines changed
			line = strings.Replace(line, "compute", "computeFast", 1)
		}
		nb.WriteString(line)
	}
	old, new := ob.String(), nb.String()
	var edits []Edit
	b.ReportAllocs()
	for b.Loop() {
		edits = Diff(old, new)
	}
	b.ReportMetric(float64(len(edits)), "edits")
	if got, _ := Apply(old, edits); got != new {
		b.Fatal("Diff does not round-trip")
	}
}

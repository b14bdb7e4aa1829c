package edits

import (
	"errors"
	"testing"

	"github.com/wisp-lsp/wisp/text"
)

func TestParseTarget(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Target
	}{
		{"main.go", Target{Path: "main.go"}},
		{"main.go:12", Target{Path: "main.go", Line: 12}},
		{"main.go:12:3", Target{Path: "main.go", Line: 12, Col: 3}},
		{"dir/main.go:12:3-14:1", Target{Path: "dir/main.go", Line: 12, Col: 3, EndLine: 14, EndCol: 1}},
		{`C:\src\a.go:2:1`, Target{Path: `C:\src\a.go`, Line: 2, Col: 1}},
	} {
		got, err := ParseTarget(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseTarget(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
		if tc.want.EndLine != 0 && got.String() != tc.in {
			t.Errorf("%+v.String() = %q, want %q", got, got.String(), tc.in)
		}
	}
	for _, in := range []string{"", "a.go:0", "a.go:3:0", "a.go:5:1-4:1", "a.go:5:9-5:2"} {
		if got, err := ParseTarget(in); !errors.Is(err, ErrBadTarget) {
			t.Errorf("ParseTarget(%q) = %+v, %v; want ErrBadTarget", in, got, err)
		}
	}
}

func TestTargetOffsets(t *testing.T) {
	doc := text.New("ab\nhé\n")
	for _, tc := range []struct {
		t          Target
		start, end int
	}{
		{Target{}, 0, 7},
		{Target{Line: 2}, 3, 3},
		{Target{Line: 1, Col: 2, EndLine: 2, EndCol: 4}, 1, 6},
		{Target{Line: 3, Col: 1}, 7, 7},
	} {
		s, e, err := tc.t.Offsets(doc)
		if err != nil || s != tc.start || e != tc.end {
			t.Errorf("%+v.Offsets = %d, %d, %v; want %d, %d", tc.t, s, e, err, tc.start, tc.end)
		}
	}
	for _, bad := range []Target{{Line: 4}, {Line: 1, Col: 4}, {Line: 2, Col: 3}, {Line: 2, Col: 5}} {
		if _, _, err := bad.Offsets(doc); !errors.Is(err, ErrBadTarget) {
			t.Errorf("%+v.Offsets error = %v, want ErrBadTarget", bad, err)
		}
	}
}

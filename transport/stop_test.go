package transport

import (
	"strings"
	"testing"
)

func TestStopper(t *testing.T) {
	for _, tc := range []struct {
		stops  []string
		deltas []string
		want   string
		stop   bool
	}{
		{nil, []string{"a", "b"}, "ab", false},
		{[]string{"\n\n"}, []string{"a\n", "\nb"}, "a", true},
		{[]string{"END"}, []string{"xE", "N", "D", "y"}, "x", true},
		{[]string{"END"}, []string{"xE", "N", "y"}, "xENy", false},
		{[]string{"END"}, []string{"xEN"}, "xEN", false}, // flushed at the end
		{[]string{"ab", "b"}, []string{"xa", "b"}, "x", true},
		{[]string{"é!"}, []string{"café", "!"}, "caf", true},
		{[]string{""}, []string{"a"}, "a", false},
	} {
		s := newStopper(tc.stops)
		var b strings.Builder
		stopped := false
		for _, d := range tc.deltas {
			emit, st := s.feed(d)
			b.WriteString(emit)
			if st {
				stopped = true
				break
			}
		}
		if !stopped {
			b.WriteString(s.flush())
		}
		if b.String() != tc.want || stopped != tc.stop {
			t.Errorf("stops %q deltas %q: got %q stopped=%v, want %q stopped=%v",
				tc.stops, tc.deltas, b.String(), stopped, tc.want, tc.stop)
		}
	}
}

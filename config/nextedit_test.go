package config

import (
	"strings"
	"testing"
	"time"
)

// Next edits are off by default; the editor may turn them on and tune
// them, and an aggressiveness that is not one of the three is refused
// with a warning that lists them.
func TestNextEditSettings(t *testing.T) {
	c := Default()
	if c.NextEdit.Enabled || c.NextEdit.Aggressiveness != "medium" {
		t.Fatalf("defaults %+v, want off and medium", c.NextEdit)
	}
	c, warnings, err := c.Merge([]byte(`{"nextEdit":{"enabled":true,"minPause":"120ms","aggressiveness":"high"}}`), SourceInitialize)
	if err != nil || len(warnings) != 0 {
		t.Fatalf("merge: %v %q", err, warnings)
	}
	if c.NextEdit != (NextEdit{Enabled: true, MinPause: 120 * time.Millisecond, Aggressiveness: "high"}) {
		t.Fatalf("merged %+v", c.NextEdit)
	}
	c, warnings, _ = c.Merge([]byte(`{"nextEdit":{"aggressiveness":"reckless"}}`), SourceDidChange)
	if len(warnings) != 1 || !strings.Contains(warnings[0], "low, medium, high") || c.NextEdit.Aggressiveness != "high" {
		t.Fatalf("warnings %q, aggressiveness %q: want the bad value refused", warnings, c.NextEdit.Aggressiveness)
	}
}

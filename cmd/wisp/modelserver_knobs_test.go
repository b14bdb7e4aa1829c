package main

import (
	"strings"
	"testing"
)

// TestModelServerRejectsBadRealismKnobs checks that an out-of-range
// --accuracy or a negative --uncached-ms-per-1k is refused with a clear
// error and exit status 2.
func TestModelServerRejectsBadRealismKnobs(t *testing.T) {
	for _, args := range [][]string{
		{"--accuracy", "1.5"},
		{"--accuracy", "0"},
		{"--uncached-ms-per-1k", "-1"},
	} {
		_, stderr, code := run(t, nil, "", append([]string{"model-server", "--listen", "127.0.0.1:0"}, args...)...)
		if code != 2 || !strings.Contains(stderr, "--accuracy must be") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

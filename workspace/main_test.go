package workspace_test

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run when a test leaves goroutines behind, and
// removes the benchmarks' synthetic workspace.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchWorkspace.dir != "" {
		os.RemoveAll(benchWorkspace.dir)
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

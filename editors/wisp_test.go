package editors

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// built holds the wisp binary built once for the whole package.
var built struct {
	once sync.Once
	dir  string // temporary folder holding the binary; removed by TestMain
	path string
	err  error
	out  []byte
}

// wispBinary returns the wisp under test: $WISP_BIN, or a build of
// ../cmd/wisp made once per test binary.
func wispBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("WISP_BIN"); bin != "" {
		abs, err := filepath.Abs(bin)
		if err != nil {
			t.Fatalf("WISP_BIN: %v", err)
		}
		return abs
	}
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "wisp-editors-")
		if built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "wisp")
		cmd := exec.Command("go", "build", "-o", built.path, "./cmd/wisp")
		cmd.Dir = ".."
		built.out, built.err = cmd.CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build ./cmd/wisp: %v\n%s", built.err, built.out)
	}
	return built.path
}

func removeBuiltWisp() {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

package editors

import (
	"os"
	"path/filepath"
	"testing"
)

// editorsDir is where install/install.sh puts what Debian stable lacks.
func editorsDir() string {
	if dir := os.Getenv("WISP_EDITORS_DIR"); dir != "" {
		return dir
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "wisp-editors")
	}
	return filepath.Join(home, ".cache", "wisp-editors")
}

// requireFiles skips the test loudly when one of paths is missing, or fails
// it when CI=true: in CI a missing editor is a broken set-up, not a pass.
func requireFiles(t *testing.T, editor string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			msg := "!!! " + editor + " is not installed (" + p + " missing): run editors/install/install.sh as root; this editor test did NOT run !!!"
			if os.Getenv("CI") == "true" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
}

// repoFile returns the absolute path of a file of this folder.
func repoFile(t *testing.T, rel string) string {
	t.Helper()
	abs, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

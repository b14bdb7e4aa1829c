package syntax

import (
	"path/filepath"
	"testing"

	"github.com/wisp-lsp/wisp/marker"
)

// sampleFor returns the source of testdata/<language>.txtar with its
// marks removed.
func sampleFor(t testing.TB, lang *Language) string {
	t.Helper()
	src, _ := loadSample(t, filepath.Join("testdata", lang.Name()+".txtar"))
	return src.Text
}

// loadSample reads a testdata/*.txtar case: one source file whose
// ⟨name⟩ marks are cursors, and the golden report in "want".
func loadSample(t testing.TB, path string) (*marker.File, *marker.Case) {
	t.Helper()
	c, err := marker.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Files) != 1 {
		t.Fatalf("%s: %d files, want one", path, len(c.Files))
	}
	return &c.Files[0], c
}

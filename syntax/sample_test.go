package syntax

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// sampleFor returns the source of testdata/<language>.txtar with its
// cursor markers removed.
func sampleFor(t testing.TB, lang *Language) string {
	t.Helper()
	c := loadCase(t, filepath.Join("testdata", lang.Name()+".txtar"))
	return c.src
}

// marker is how a test source marks a cursor: ⟨1⟩, ⟨2⟩, ...
const markerOpen, markerClose = "⟨", "⟩"

// testCase is a parsed testdata/*.txtar file.
type testCase struct {
	archive *txtar.Archive
	path    string // the source file's name in the archive
	src     string // the source without markers
	marks   []mark // in source order
	want    string // the golden report
}

type mark struct {
	name string
	off  int
}

func loadCase(t testing.TB, file string) testCase {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	a := txtar.Parse(data)
	c := testCase{archive: a}
	for _, f := range a.Files {
		if f.Name == "want" {
			c.want = string(f.Data)
			continue
		}
		c.path = f.Name
		c.src, c.marks = stripMarkers(string(f.Data))
	}
	return c
}

// stripMarkers removes ⟨name⟩ markers and returns where they were.
func stripMarkers(s string) (string, []mark) {
	var b strings.Builder
	var marks []mark
	for {
		i := strings.Index(s, markerOpen)
		if i < 0 {
			b.WriteString(s)
			return b.String(), marks
		}
		j := strings.Index(s[i:], markerClose)
		if j < 0 {
			b.WriteString(s)
			return b.String(), marks
		}
		b.WriteString(s[:i])
		marks = append(marks, mark{name: s[i+len(markerOpen) : i+j], off: b.Len()})
		s = s[i+j+len(markerClose):]
	}
}

package marker

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "case.txtar")
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadMarkers(t *testing.T) {
	c, err := Load(write(t, "About the case.\ncrlf\nplan: multi\n"+
		"-- a.go --\nx‸y\nz⟨m⟩w ⟦3×ab⟧‸\n-- b.go --\n‸other\n-- reply --\nr\n-- want --\nw\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := c.Directive("plan"); !ok || v != "multi" || !c.CRLF() {
		t.Errorf("directives: plan %q %v, crlf %v", v, ok, c.CRLF())
	}
	if len(c.Files) != 2 {
		t.Fatalf("files %+v, want a.go and b.go", c.Files)
	}
	f, err := c.Doc()
	if err != nil || f.Name != "a.go" {
		t.Fatalf("Doc = %+v, %v; want a.go", f, err)
	}
	if want := "xy\r\nzw ababab\r\n"; f.Text != want {
		t.Errorf("text %q, want %q", f.Text, want)
	}
	if f.Start != 1 || f.End != len("xy\r\nzw ababab") {
		t.Errorf("selection %d-%d, want 1-%d", f.Start, f.End, len("xy\r\nzw ababab"))
	}
	if len(f.Marks) != 1 || f.Marks[0] != (Mark{"m", len("xy\r\nz")}) {
		t.Errorf("marks %+v", f.Marks)
	}
	if r, _ := c.Fragment("reply"); r != "r" {
		t.Errorf("reply fragment %q", r)
	}
}

func TestLoadRefusesBadCases(t *testing.T) {
	for _, data := range []string{
		"-- a.go --\n‸a‸b‸\n",
		"-- a.go --\n⟨open\n",
		"-- a.go --\n‸\n-- want --\n-- want --\n",
	} {
		if _, err := Load(write(t, data)); err == nil {
			t.Errorf("Load(%q) succeeded", data)
		}
	}
	c, err := Load(write(t, "-- a.go --\nno cursor\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Doc(); err == nil {
		t.Error("Doc found a document without a cursor")
	}
}

func TestGoldenAndSave(t *testing.T) {
	defer func(was bool) { *Update = was }(*Update)
	*Update = false
	path := write(t, "crlf\n-- a.go --\n‸\n-- reply --\nx\n-- want-none --\n")
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Golden("want", "a\r\nb", Fragment, "want-none"); !errors.Is(err, ErrMismatch) {
		t.Errorf("a want where the case has want-none: %v", err)
	}
	if err := c.Golden("want", "a\nb", Fragment); err == nil || !strings.Contains(err.Error(), "bare line feeds") {
		t.Errorf("bare LF in a CRLF case: %v", err)
	}
	*Update = true
	if err := c.Golden("want", "a\r\nb", Fragment, "want-none"); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if want := "crlf\n-- a.go --\n‸\n-- reply --\nx\n-- want --\na\nb\n"; string(data) != want {
		t.Errorf("saved\n%q\nwant\n%q", data, want)
	}
	*Update = false
	c, err = Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Golden("want", "a\r\nb", Fragment, "want-none"); err != nil {
		t.Errorf("after Save: %v", err)
	}
}

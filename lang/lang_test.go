package lang

import (
	"strings"
	"testing"
)

// Every row is well formed, and no id or extension names two languages.
func TestTable(t *testing.T) {
	ids, exts := map[string]string{}, map[string]string{}
	for _, l := range All() {
		if l.Name == "" || len(l.IDs) == 0 || len(l.Extensions) == 0 || l.Indent == "" || len(l.Keywords) == 0 {
			t.Errorf("%s: a row needs a name, ids, extensions, an indent and keywords: %+v", l.Name, l)
		}
		if len(l.Brackets)%2 != 0 || l.LineComment == "" || len(l.Quotes) == 0 {
			t.Errorf("%s: brackets %q, line comment %q, quotes %q", l.Name, l.Brackets, l.LineComment, l.Quotes)
		}
		if (l.BlockComment[0] == "") != (l.BlockComment[1] == "") {
			t.Errorf("%s: block comment %q opens without closing or the reverse", l.Name, l.BlockComment)
		}
		for i := 1; i < len(l.Quotes); i++ {
			if len(l.Quotes[i]) > len(l.Quotes[i-1]) {
				t.Errorf("%s: quote %q comes after the shorter %q", l.Name, l.Quotes[i], l.Quotes[i-1])
			}
		}
		for _, id := range l.IDs {
			if other, ok := ids[id]; ok || id != strings.ToLower(id) {
				t.Errorf("language id %q: %s and %s (or not lower case)", id, other, l.Name)
			}
			ids[id] = l.Name
		}
		for _, e := range l.Extensions {
			if other, ok := exts[e]; ok || e != strings.ToLower(e) || !strings.HasPrefix(e, ".") {
				t.Errorf("extension %q: %s and %s (or not a lower-case .ext)", e, other, l.Name)
			}
			exts[e] = l.Name
		}
		if ByName(l.Name) != l {
			t.Errorf("ByName(%q) is not the row", l.Name)
		}
	}
}

func TestDetect(t *testing.T) {
	for _, c := range []struct{ id, path, want string }{
		{"go", "", "go"},
		{"typescriptreact", "x.ts", "tsx"}, // the id wins
		{"", "A.TSX", "tsx"},
		{"plaintext", "m.pyi", "python"}, // an unknown id falls back to the extension
		{"", "README", ""},
	} {
		got := ""
		if l := Detect(c.id, c.path); l != nil {
			got = l.Name
		}
		if got != c.want {
			t.Errorf("Detect(%q, %q) = %q, want %q", c.id, c.path, got, c.want)
		}
	}
}

func TestBrackets(t *testing.T) {
	l := ByName("go")
	if c, ok := l.Closer('['); !ok || c != ']' {
		t.Errorf("Closer('[') = %q, %v", c, ok)
	}
	if _, ok := l.Closer(')'); ok || !l.IsCloser(')') || l.IsCloser('(') {
		t.Error("a closer is not an opener, and an opener not a closer")
	}
}

func TestIsLineComment(t *testing.T) {
	goLang, py := ByName("go"), ByName("python")
	for _, c := range []struct {
		l    *Language
		line string
		want bool
	}{
		{goLang, "\t// a comment", true},
		{goLang, "x := 1 // trailing", false},
		{goLang, "# not Go's", false},
		{py, "    # a comment", true},
		{py, "x = 1  # trailing", false},
		{nil, "// no language", false},
	} {
		if got := c.l.IsLineComment(c.line); got != c.want {
			t.Errorf("%v.IsLineComment(%q) = %v, want %v", c.l, c.line, got, c.want)
		}
	}
}

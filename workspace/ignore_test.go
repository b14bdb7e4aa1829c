package workspace

import "testing"

// The matcher follows git's rules for the patterns projects use.
func TestIgnorer(t *testing.T) {
	var ig ignorer
	for _, line := range []string{
		"# a comment", "", "*.log", "build/", "/root-only.go", "docs/**/gen", "!keep.log",
		`\#hash.go`, "a/*/c.go", "[ab]x.go",
	} {
		ig.add("", line)
	}
	ig.add("sub", "local.go")
	ig.add("sub", "/anchored.go")
	cases := []struct {
		path  string
		isDir bool
		want  bool
	}{
		{"x.log", false, true},
		{"deep/x.log", false, true},
		{"keep.log", false, false}, // re-included
		{"build", true, true},
		{"build", false, false}, // folder-only pattern, a file
		{"src/build", true, true},
		{"root-only.go", false, true},
		{"src/root-only.go", false, false}, // anchored at the root
		{"docs/gen", true, true},
		{"docs/a/b/gen", true, true},
		{"other/gen", true, false},
		{"#hash.go", false, true},
		{"a/b/c.go", false, true},
		{"a/b/d/c.go", false, false},
		{"ax.go", false, true},
		{"cx.go", false, false},
		{"sub/local.go", false, true},
		{"sub/deeper/local.go", false, true},
		{"local.go", false, false}, // sub's rules stay in sub
		{"sub/anchored.go", false, true},
		{"sub/deeper/anchored.go", false, false},
		{"main.go", false, false},
	}
	for _, c := range cases {
		if got := ig.ignored(c.path, c.isDir); got != c.want {
			t.Errorf("ignored(%q, dir=%v) = %v, want %v", c.path, c.isDir, got, c.want)
		}
	}
}

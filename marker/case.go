package marker

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/txtar"
)

// Update is the -update flag of every test binary that reads cases:
// runners rewrite their goldens instead of comparing them.
var Update = flag.Bool("update", false, "rewrite the golden sections of the txtar cases")

// Case is one parsed archive. Its methods are not safe for concurrent
// use; a runner owns its Case.
type Case struct {
	// Path is the archive's path, Name its base name without .txtar.
	Path, Name string
	// Comment is the archive's comment, directives included.
	Comment string
	// Files are the file sections, in order, markers removed.
	Files []File

	// sections holds the non-file sections by name, as the archive
	// holds them.
	sections map[string]string
	// goldens holds what Golden recorded under -update, by section name;
	// drop, the sections Golden's alternatives remove.
	goldens map[string]string
	drop    []string
}

// File is one file section.
type File struct {
	// Name is the section's name: the file's path.
	Name string
	// Text is the file's content, markers removed and expansions made,
	// with CRLF line breaks in a crlf case.
	Text string
	// Start and End are the cursor (Start == End) or the selection, in
	// bytes of Text; -1 when the file has no cursor.
	Start, End int
	// Marks are the named marks, in order.
	Marks []Mark
}

// Mark is a named position in a file.
type Mark struct {
	Name   string
	Offset int
}

// Load reads the case at path.
func Load(path string) (*Case, error) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		return nil, fmt.Errorf("read case: %w", err)
	}
	c := &Case{Path: path, Name: strings.TrimSuffix(filepath.Base(path), ".txtar"), Comment: string(ar.Comment),
		sections: map[string]string{}, goldens: map[string]string{}}
	crlf := c.CRLF()
	for _, f := range ar.Files {
		if isSection(f.Name) {
			if _, dup := c.sections[f.Name]; dup {
				return nil, fmt.Errorf("%s: two %q sections", path, f.Name)
			}
			c.sections[f.Name] = string(f.Data)
			continue
		}
		file, err := parseFile(f.Name, string(f.Data), crlf)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		c.Files = append(c.Files, file)
	}
	return c, nil
}

// Glob loads every case matching pattern, in name order; it is an error
// for none to match.
func Glob(pattern string) ([]*Case, error) {
	paths, err := filepath.Glob(pattern)
	if err != nil {
		return nil, fmt.Errorf("glob %s: %w", pattern, err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no cases match %s", pattern)
	}
	var cases []*Case
	for _, p := range paths {
		c, err := Load(p)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}

func isSection(name string) bool {
	return name == "reply" || name == "instruction" || strings.HasPrefix(name, "want")
}

// Directive returns the value of the comment line "key: VALUE", or ""
// and true for a bare "key" line.
func (c *Case) Directive(key string) (string, bool) {
	for _, l := range strings.Split(c.Comment, "\n") {
		l = strings.TrimSpace(l)
		if l == key {
			return "", true
		}
		if v, ok := strings.CutPrefix(l, key+": "); ok {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// CRLF reports whether the case's files use CRLF line breaks.
func (c *Case) CRLF() bool {
	_, ok := c.Directive("crlf")
	return ok
}

// Doc returns the document: the first file with a cursor or selection.
func (c *Case) Doc() (*File, error) {
	for i := range c.Files {
		if c.Files[i].Start >= 0 {
			return &c.Files[i], nil
		}
	}
	return nil, fmt.Errorf("%s: no file has a cursor %s", c.Path, Cursor)
}

// Section returns the section's text as the archive holds it.
func (c *Case) Section(name string) (string, bool) {
	s, ok := c.sections[name]
	return s, ok
}

// Fragment returns the section's text without the newline that ends
// every txtar section: the text of a completion's reply or want, which
// rarely ends in a newline (one that does ends with a blank line).
func (c *Case) Fragment(name string) (string, bool) {
	s, ok := c.sections[name]
	return strings.TrimSuffix(s, "\n"), ok
}

// Form says how Golden compares a result with its section.
type Form int

const (
	// Exact compares the result with the section's text as it is.
	Exact Form = iota
	// Text is text of a file: in a crlf case every line break of the
	// result must be CRLF, and it is compared with the section's LF text.
	Text
	// Fragment is Text whose last newline is the archive's (see
	// Case.Fragment).
	Fragment
)

// ErrMismatch is wrapped by Golden's error when the result differs from
// the golden.
var ErrMismatch = errors.New("differs from the golden")

// Golden compares got, a result in the given form, with the golden
// section name; a missing section is an empty one. Under -update it
// records got instead (Save writes it) and returns nil; the sections in
// without, the alternatives to this result, are then removed (a
// want-none that a want replaces, say).
func (c *Case) Golden(name, got string, form Form, without ...string) error {
	if form != Exact && c.CRLF() {
		if strings.Count(got, "\n") != strings.Count(got, "\r\n") {
			return fmt.Errorf("%s: a CRLF file got bare line feeds: %q", name, got)
		}
		got = strings.ReplaceAll(got, "\r\n", "\n")
	}
	if form == Fragment {
		got += "\n"
	}
	if *Update {
		c.goldens[name] = got
		c.drop = append(c.drop, without...)
		return nil
	}
	for _, w := range without {
		if _, ok := c.sections[w]; ok {
			return fmt.Errorf("got %s %q where the case has a %s section: the result %w (-update rewrites it)", name, got, w, ErrMismatch)
		}
	}
	if want := c.sections[name]; got != want {
		return fmt.Errorf("%s %w (-update rewrites it)\n got: %q\nwant: %q", name, ErrMismatch, got, want)
	}
	return nil
}

// goldenOrder is the order in which Save adds goldens a case lacks: what
// the model is sent, then what comes back.
var goldenOrder = []string{"want-region", "want-edits", "want", "want-none", "want-error"}

func goldenRank(name string) int {
	if i := slices.Index(goldenOrder, name); i >= 0 {
		return i
	}
	return len(goldenOrder)
}

// Save writes the goldens Golden recorded into the archive, replacing
// their sections or adding them at the end, and removing their
// alternatives. It reads the archive again first, so that runners in
// other packages rewriting other goldens of the same case (go test
// ./marker ./edits -update) keep each other's. It writes nothing when
// nothing changed.
func (c *Case) Save() error {
	if len(c.goldens) == 0 {
		return nil
	}
	ar, err := txtar.ParseFile(c.Path)
	if err != nil {
		return fmt.Errorf("reread case: %w", err)
	}
	var files []txtar.File
	for _, f := range ar.Files {
		if got, ok := c.goldens[f.Name]; ok {
			f.Data = []byte(got)
			delete(c.goldens, f.Name)
		} else if slices.Contains(c.drop, f.Name) {
			continue
		}
		files = append(files, f)
	}
	names := slices.SortedFunc(maps.Keys(c.goldens), func(a, b string) int {
		return cmp.Or(cmp.Compare(goldenRank(a), goldenRank(b)), strings.Compare(a, b))
	})
	for _, name := range names {
		files = append(files, txtar.File{Name: name, Data: []byte(c.goldens[name])})
	}
	c.goldens = map[string]string{}
	ar.Files = files
	data := txtar.Format(ar)
	if old, err := os.ReadFile(c.Path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.WriteFile(c.Path, data, 0o644); err != nil {
		return fmt.Errorf("rewrite %s: %w", c.Path, err)
	}
	return nil
}

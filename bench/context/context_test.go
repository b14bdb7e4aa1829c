package main

import (
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/completion/gather"
)

// holeAt cuts the hole at the ‸ in src (the marker is removed).
func holeAt(t *testing.T, lang, src string) hole {
	t.Helper()
	cursor := strings.Index(src, "‸")
	if cursor < 0 {
		t.Fatal("no ‸ in source")
	}
	src = strings.Replace(src, "‸", "", 1)
	return cut(lang, newFile(lang, "f", src), cursor, "test")
}

func TestTargetsSkipVocabularyCommentsStringsAndNearbyWords(t *testing.T) {
	cases := []struct {
		name, lang, src string
		want            []string
	}{
		{"go keyword, comment and the lines before", "go", "package p\n\nfunc f(x int) int {\n\tlimit := 3\n\t‸return compute(x, limit) + offset // compute uses the cache\n}\n",
			[]string{"compute", "offset"}},
		{"go only three lines before count", "go", "package p\n\nvar a = far\nvar b = 1\nvar c = 2\nvar d = 3\n‸var e = far + near\n",
			[]string{"e", "far", "near"}},
		{"go continuation stops after two more lines", "go", "package p\n\n‸x := one\ny := two\nz := three\nw := four\n",
			[]string{"one", "three", "two", "x", "y", "z"}},
		{"go raw string and rune", "go", "package p\n\n‸s := `raw words` + string('q') + tail\n",
			[]string{"s", "tail"}},
		{"python builtins, f-string and comment", "python", "def f(items):\n    ‸self.total += len(items) + f\"{hidden} text\"  # note words\n",
			[]string{"total"}},
		{"python triple-quoted string", "python", "x = 1\n‸doc = '''inside words\nstill inside'''\nafter = doc\n",
			[]string{"after", "doc"}},
		{"typescript block comment and template", "typescript", "let total = 0;\n‸/* skip this */ sum += delta + `${inTemplate} text`;\n",
			[]string{"delta", "sum"}},
		{"javascript mid-line after a dot", "javascript", "const m = new Map();\nm.‸set(key, value); // store it\n",
			[]string{"key", "set", "value"}},
		{"rust char literal, lifetime and comment", "rust", "use std::fmt;\n‸fn longest<'a>(x: &'a str) -> char { let c = 'q'; c } // pick one\n",
			[]string{"a", "c", "longest", "x"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := holeAt(t, c.lang, c.src).Targets; !slices.Equal(got, c.want) {
				t.Errorf("targets = %q, want %q", got, c.want)
			}
		})
	}
}

func TestRecallCountsWholeWords(t *testing.T) {
	targets := []string{"alpha", "beta"}
	for _, c := range []struct {
		ctx  string
		want float64
	}{
		{"", 0},
		{"alpha beta gamma", 1},
		{"x := alpha(1)", 0.5},
		{"alphabet betamax _alpha", 0}, // parts of longer words do not count
		{"// beta\nalpha", 1},          // the context's comments are context too
	} {
		if got := recall(c.ctx, targets); got != c.want {
			t.Errorf("recall(%q) = %v, want %v", c.ctx, got, c.want)
		}
	}
}

func TestWindowsFitTheBudgetAroundTheCursor(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 40000; i++ {
		fmt.Fprintf(&b, "\tvalue%d := compute(index, ", i)
		b.WriteString(strings.Repeat("x", i%17))
		b.WriteString(")\n")
	}
	doc := b.String()
	cursor := len(doc) / 2
	for _, budget := range []int{64, 1024, 2048} {
		bw := byteWindow(doc, cursor, budget)
		if gather.Estimate(bw) > budget || gather.Estimate(bw) < budget-2 {
			t.Errorf("byte window at %d tokens estimates %d", budget, gather.Estimate(bw))
		}
		at := strings.Index(doc, bw)
		if at < 0 || at > cursor || at+len(bw) < cursor {
			t.Fatalf("byte window at %d tokens is not around the cursor", budget)
		}
		if before := cursor - at; before*100/len(bw) < 73 || before*100/len(bw) > 77 {
			t.Errorf("byte window at %d tokens has %d%% before the cursor, want 75%%", budget, before*100/len(bw))
		}
		lw := lineWindow(doc, cursor, budget)
		at = strings.Index(doc, lw)
		if at < 0 || at > cursor || at+len(lw) < cursor {
			t.Fatalf("line window at %d tokens is not around the cursor", budget)
		}
		if (at > 0 && doc[at-1] != '\n') || (at+len(lw) < len(doc) && doc[at+len(lw)] != '\n') {
			t.Errorf("line window at %d tokens cuts a line", budget)
		}
		// Whole lines leave at most a line's tokens unused on each side.
		if est := gather.Estimate(lw); est > budget || est < budget-30 {
			t.Errorf("line window at %d tokens estimates %d", budget, est)
		}
	}
	small := "a := 1\nb := 2\n"
	if byteWindow(small, 3, 1024) != small || lineWindow(small, 3, 1024) != small {
		t.Error("a document under the budget is not shown whole")
	}
	// Near the start, the unused prefix budget goes to the suffix.
	if got := gather.Estimate(byteWindow(doc, 10, 1024)); got < 1020 {
		t.Errorf("byte window at the file's start estimates %d, want the whole budget", got)
	}
}

func TestDefinitionsFindDeclarationsNotLocals(t *testing.T) {
	cases := map[string]struct{ want, not []string }{
		"go/store.go":         {want: []string{"ErrMissing", "Store", "mu", "entries", "limit", "NewStore", "Lookup", "Insert"}, not: []string{"v", "ok"}},
		"python/shapes.py":    {want: []string{"UNIT", "Box", "__init__", "area", "contains", "left", "height", "Circle", "bounds"}, not: []string{"r"}},
		"typescript/queue.ts": {want: []string{"Job", "id", "attempts", "run", "QueueOptions", "JobQueue", "pending", "active", "enqueue", "size", "drain", "execute"}, not: []string{"job", "controller"}},
		"javascript/range.js": {want: []string{"Range", "includes", "length", "values", "parseRange"}, not: []string{"m", "n"}},
		"rust/grid.rs":        {want: []string{"Pos", "col", "row", "Cell", "Empty", "Wall", "Visited", "Grid", "cells", "width", "new", "get", "set"}, not: []string{"i"}},
	}
	for path, c := range cases {
		lang := filepath.Dir(path)
		data, err := os.ReadFile(filepath.Join("testdata", path))
		if err != nil {
			t.Fatal(err)
		}
		f := newFile(lang, path, string(data))
		found := make(map[string]string)
		for _, d := range definitions(lang, path, f.Src, f.Mask) {
			found[d.Name] = d.Sig
			if !strings.Contains(squeeze(f.Src), d.Sig) {
				t.Errorf("%s: signature %q of %s is not the file's text", path, d.Sig, d.Name)
			}
		}
		for _, name := range c.want {
			if _, ok := found[name]; !ok {
				t.Errorf("%s: %s not found as a definition", path, name)
			}
		}
		for _, name := range c.not {
			if sig, ok := found[name]; ok {
				t.Errorf("%s: local %s taken for a definition (%q)", path, name, sig)
			}
		}
	}
	if sig := definitionSig(t, "go/store.go", "Lookup"); sig != "func (s *Store) Lookup(key string) (string, error)" {
		t.Errorf("Lookup's signature = %q", sig)
	}
}

func definitionSig(t *testing.T, path, name string) string {
	lang := filepath.Dir(path)
	data, err := os.ReadFile(filepath.Join("testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	f := newFile(lang, path, string(data))
	for _, d := range definitions(lang, path, f.Src, f.Mask) {
		if d.Name == name {
			return d.Sig
		}
	}
	return ""
}

// testCorpora are the tiny fixed workspaces in testdata, one a language.
func testCorpora() []corpus {
	var cs []corpus
	for _, lang := range languages {
		dir, _ := filepath.Abs(filepath.Join("testdata", lang))
		cs = append(cs, corpus{Lang: lang, Name: "testdata/" + lang, Quick: true, Locate: func() (string, error) { return dir, nil }})
	}
	return cs
}

// TestQuickRunOnFixedCorpus runs the benchmark's quick mode on the fixed
// test workspaces and checks the scorer against oracle contexts.
func TestQuickRunOnFixedCorpus(t *testing.T) {
	dir := t.TempDir()
	o := options{quick: true, seed: defaultSeed, budgets: []int{128, 1024}, cursors: filepath.Join(dir, "a.tsv")}
	res, err := measure(testCorpora(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.skipped) > 0 {
		t.Fatalf("skipped: %v", res.skipped)
	}
	for _, lang := range languages {
		for _, m := range methods {
			tl := res.scores[128][lang][m]
			if tl == nil || tl.holes == 0 {
				t.Fatalf("%s: no holes scored for %s", lang, m)
			}
			if r := tl.recall(); r <= 0 || r > 1 {
				t.Errorf("%s %s: recall %v out of (0, 1]", lang, m, r)
			}
		}
	}
	if ts := res.scores[128]["go"]; ts[ceilingWorkspace].recall() <= ts[ceilingFile].recall() {
		t.Error("go: the workspace ceiling does not see cache.go's uses of store.go")
	}
	for _, lang := range languages {
		ts := res.scores[128][lang]
		file, ws := ts[ceilingFile].recall(), ts[ceilingWorkspace].recall()
		// A window is part of the file; the file is part of the workspace.
		if ts[methodBytes].recall() > file || ts[methodLines].recall() > file || file > ws || ws > 1 {
			t.Errorf("%s: windows %.3f, %.3f over ceilings file %.3f, workspace %.3f", lang,
				ts[methodBytes].recall(), ts[methodLines].recall(), file, ws)
		}
	}
	if w := res.scores[128]["go"][methodWisp]; w.bigHoles == 0 || w.use() <= 0 || w.use() > 1 {
		t.Errorf("go: wisp budget use %v over %d holes larger than 128 tokens", w.use(), w.bigHoles)
	}

	// The cursor set is fixed: a second run cuts the same holes.
	o.cursors = filepath.Join(dir, "b.tsv")
	if _, err := measure(testCorpora(), o); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "a.tsv"))
	b, _ := os.ReadFile(filepath.Join(dir, "b.tsv"))
	if len(a) == 0 || string(a) != string(b) {
		t.Errorf("two runs cut different holes:\n%s\n%s", a, b)
	}

	// Oracles: every source file holds every continuation and every
	// definition; the document with its hole does not hold them all.
	foreignHoles, missing := 0, 0
	for _, m := range res.trees {
		defs := make(defIndex)
		var all strings.Builder
		for _, f := range m.files {
			all.WriteString(f.Src)
			for _, d := range definitions(m.corpus.Lang, f.Rel, f.Src, f.Mask) {
				defs[d.Name] = append(defs[d.Name], d)
			}
		}
		for _, f := range m.files {
			for _, hl := range holes(m.corpus.Lang, f, defaultSeed, maxHolesPerFile) {
				if r := recall(all.String(), hl.Targets); r != 1 {
					t.Errorf("%s: recall of every file = %v, want 1", f.Rel, r)
				}
				if r := recall("", hl.Targets); r != 0 {
					t.Errorf("%s: recall of nothing = %v", f.Rel, r)
				}
				if recall(hl.Doc(), hl.Targets) < 1 {
					missing++
				}
				foreign := defs.foreign(m.corpus.Lang, hl)
				if len(foreign) == 0 {
					continue
				}
				foreignHoles++
				if n := presence(all.String(), foreign); n != len(foreign) {
					t.Errorf("%s: %d of %d other-file definitions present in every file", f.Rel, n, len(foreign))
				}
				if n := presence(f.Src, foreign); n != 0 {
					t.Errorf("%s: other-file definitions found in the file itself", f.Rel)
				}
			}
		}
	}
	if foreignHoles == 0 {
		t.Error("no hole needs a definition from another file: the presence score is untested")
	}
	if missing == 0 {
		t.Error("every hole's document still holds all of its continuation's identifiers: nothing was cut")
	}
}

func TestWriteSectionReplacesOnlyItsOwn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "BENCHMARKS.md")
	os.WriteFile(path, []byte("# Benchmarks\n\n## End-to-end\n\nkeep\n"), 0o644)
	for _, run := range []string{"first", "second"} {
		if err := writeSection(path, sectionTitle+"\n\n"+run+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	if want := "# Benchmarks\n\n## End-to-end\n\nkeep\n\n" + sectionTitle + "\n\nsecond\n"; string(data) != want {
		t.Errorf("BENCHMARKS.md =\n%s\nwant\n%s", data, want)
	}
	os.WriteFile(path, []byte("# B\n\n"+sectionTitle+"\n\nold\n\n## Later\n\nkeep\n"), 0o644)
	writeSection(path, sectionTitle+"\n\nnew\n")
	data, _ = os.ReadFile(path)
	if want := "# B\n\n" + sectionTitle + "\n\nnew\n\n## Later\n\nkeep\n"; string(data) != want {
		t.Errorf("BENCHMARKS.md =\n%s\nwant\n%s", data, want)
	}
}

func TestForeignKeepsOnlyDefinitionsTheUseCanMean(t *testing.T) {
	def := func(name, file, parent string) definition {
		return definition{Name: name, File: file, Sig: "sig of " + name + " in " + file, Parent: parent}
	}
	ix := make(defIndex)
	for _, d := range []definition{
		def("field", "a/other.go", "type T struct"), // a member
		def("Sibling", "a/other.go", ""),            // same package
		def("Exported", "b/pkg.go", ""),             // another package
		def("Mine", "a/f.go", ""), def("Mine", "a/other.go", ""),
	} {
		ix[d.Name] = append(ix[d.Name], d)
	}
	for i := range maxDefFiles + 1 {
		ix["Common"] = append(ix["Common"], def("Common", fmt.Sprintf("a/c%d.go", i), ""))
	}
	src := "package a\n\nfunc f() {\n\t‸x := field + Sibling + Exported + Mine + Common\n\ty := v.field + b.Exported\n}\n"
	cursor := strings.Index(src, "‸")
	src = strings.Replace(src, "‸", "", 1)
	bare := cut("go", newFile("go", "a/f.go", src[:strings.Index(src, "\ty :=")]+"}\n"), cursor, "test")
	if got := ix.foreign("go", bare); len(got) != 1 || got["Sibling"] == nil {
		t.Errorf("bare uses: foreign = %v, want only Sibling", keys(got))
	}
	both := cut("go", newFile("go", "a/f.go", src), cursor, "test")
	if got := ix.foreign("go", both); len(got) != 3 || got["field"] == nil || got["Exported"] == nil || got["Sibling"] == nil {
		t.Errorf("selected uses: foreign = %v, want field, Exported, Sibling", keys(got))
	}
	// Outside Go, a top-level name of any file may be meant bare.
	py := cut("python", newFile("python", "a/f.py", "import b\nx = Exported + field\n"), len("import b\n"), "test")
	if got := ix.foreign("python", py); len(got) != 1 || got["Exported"] == nil {
		t.Errorf("python: foreign = %v, want Exported", keys(got))
	}
}

func keys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func TestMissingTreeIsSkippedWithItsReason(t *testing.T) {
	missing := corpus{Lang: "rust", Name: "absent", Locate: rustCrate("no-such-crate-here")}
	res, err := measure(append(testCorpora()[:1], missing), options{quick: true, seed: defaultSeed, budgets: []int{1024}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.skipped) != 1 || !strings.Contains(res.skipped[0], "apt-get install librust-no-such-crate-here-dev") {
		t.Errorf("skipped = %q, want the absent crate with how to install it", res.skipped)
	}
	if len(res.trees) != 1 {
		t.Errorf("measured %d trees, want the one present", len(res.trees))
	}
	if md := res.markdown(options{budgets: []int{1024}}); !strings.Contains(md, "Skipped: absent (rust)") {
		t.Errorf("the report does not say what was skipped:\n%s", md)
	}
}

func TestForeignSkipsNamesQualifiedByPackagesOutsideTheTree(t *testing.T) {
	ix := make(defIndex)
	for _, d := range []definition{
		{Name: "Conn", File: "conn.go", Sig: "type Conn struct"},
		{Name: "Join", File: "internal/keys/util.go", Sig: "func Join(s []string) string"},
	} {
		ix[d.Name] = append(ix[d.Name], d)
	}
	src := "package ws\n\nimport (\n\t\"net\"\n\tfp \"path/filepath\"\n\t\"example.com/ws/internal/keys\"\n)\n\nfunc f() {\n\t‸var c net.Conn = nil\n\t_ = fp.Join(a, b) + keys.Join(c)\n}\n"
	cursor := strings.Index(src, "‸")
	src = strings.Replace(src, "‸", "", 1)
	f := newFile("go", "client.go", src)
	f.external = goExternalPackages(src, "example.com/ws")
	if want := map[string]bool{"net": true, "fp": true}; !maps.Equal(f.external, want) {
		t.Fatalf("external packages = %v, want %v", f.external, want)
	}
	got := ix.foreign("go", cut("go", f, cursor, "test"))
	// net.Conn is the standard library's; Join is also used as keys.Join,
	// the tree's own package.
	if len(got) != 1 || got["Join"] == nil {
		t.Errorf("foreign = %v, want only Join", keys(got))
	}
	if n := goPackageName("gopkg.in/yaml.v3"); n != "yaml" {
		t.Errorf("goPackageName(gopkg.in/yaml.v3) = %q", n)
	}
	if n := goPackageName("github.com/aymanbagabas/go-udiff/v2"); n != "udiff" {
		t.Errorf("goPackageName(…/go-udiff/v2) = %q", n)
	}
}

func TestBoundLocallyFindsParametersAndLocalsNotImports(t *testing.T) {
	for _, c := range []struct {
		lang, src   string
		bound, free []string
	}{
		{"go", "package p\n\nfunc (r *Reader) Read(p []byte, a, b int) (n int, err error) {\n\tx, y := 1, 2\n\tvar z int\n\tf := func(Option, error) {}\n\tfor k, v := range m {}\n}\nfunc Map[K comparable, V any](m map[K]V) {}\n",
			[]string{"r", "p", "a", "b", "n", "err", "x", "y", "z", "f", "k", "v", "K", "V", "m"}, []string{"Reader", "Option", "Read"}},
		{"python", "import os.path as osp\nfrom . import util as u\ndef f(self, name, *args, loose=False, **kw):\n    total, count = 0, 0\n    for i, item in enumerate(args):\n        pass\n    with open(name) as fh:\n        pass\n    key = lambda x, y=1: x\n",
			[]string{"name", "args", "loose", "kw", "total", "count", "i", "item", "fh", "key", "x", "y"}, []string{"osp", "u", "util", "f"}},
		{"javascript", "const lt = require('./lt')\nconst { MAX_LENGTH, safeRe: re } = require('./constants')\nconst cmp = (a, op, b, loose) => {\n  let options = {}\n  const { x, y: z } = options\n  return items.map(it => it + 1)\n}\nfunction inc (version, release, identifier) {\n  try {} catch (er) {}\n}\n",
			[]string{"cmp", "a", "op", "b", "loose", "options", "x", "z", "it", "version", "release", "identifier", "er"}, []string{"lt", "MAX_LENGTH", "re", "items", "y"}},
		{"typescript", "import {str} from './code'\nexport function validTimestamp<T extends string>(str: string, opts?: Options): boolean {\n  const [a, b] = parts\n  return true\n}\nclass Gen {\n  private render(schema: SchemaObject, {es5, lines}: Opts): void {\n  }\n}\n",
			[]string{"T", "str", "opts", "a", "b", "schema", "es5", "lines"}, []string{"Options", "parts", "SchemaObject", "Opts", "Gen"}},
		{"rust", "use crate::de::Error;\nimpl<'de, T: Into<String>> Visitor<'de> for V<T> {\n    fn visit<E>(self, mut input: &str, f: impl Fn(u8)) -> Result<T, E> {\n        let (mut start, end) = (0, 1);\n        if let Some(ch) = it.next() {}\n        for (i, b) in bytes.iter().enumerate() {}\n        let g = |x: u8, y| x + y;\n        match r { Ok(value) => value, Err(error) => return }\n    }\n}\n",
			[]string{"T", "E", "input", "f", "start", "end", "ch", "i", "b", "g", "x", "y", "value", "error"}, []string{"Error", "Visitor", "V", "it", "bytes", "Ok", "Err", "Some", "de", "r"}},
	} {
		got := boundLocally(c.lang, c.src, classify(c.lang, c.src))
		for _, n := range c.bound {
			if !got[n] {
				t.Errorf("%s: %s is not found bound", c.lang, n)
			}
		}
		for _, n := range c.free {
			if got[n] {
				t.Errorf("%s: %s is found bound; it is not", c.lang, n)
			}
		}
	}
}

func TestMissesSayWhereTheLackingTargetsAre(t *testing.T) {
	f := newFile("go", "a.go", "package a\n\nfunc f() { near(); far() }\n")
	hl := hole{File: f, Targets: []string{"shown", "near", "far", "elsewhere", "brandNew"}}
	vocab := wordFiles{}
	vocab.add(f.Src)
	vocab.add("package b\nfunc elsewhere() {}\n")
	vocab.add("package c\nfunc near() {}\n")
	m := vocab.misses("shown", "near", f.Src, hl)
	want := missTally{window: 0.2, file: 0.2, other: 0.2, nowhere: 0.2}
	if m != want {
		t.Errorf("misses = %+v, want %+v", m, want)
	}
	if got := m.window + m.file + m.other + m.nowhere; math.Abs(got-(1-recall("shown", hl.Targets))) > 1e-9 {
		t.Errorf("misses sum to %v, want 1 - recall", got)
	}
}

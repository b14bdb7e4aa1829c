package workspace_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/completion/gather"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/workspace"
)

// The scale of the synthetic workspace: 2,000 files, about 100 lines
// each, in Go, Python and TypeScript.
const (
	benchPackages    = 40 // folders per language
	benchFilesPerPkg = 17 // 40 × 17 × 3 ≈ 2,000 files
)

// synthWorkspace writes a seeded, realistic workspace under dir: Go
// packages importing each other through go.mod, Python packages with
// relative and absolute imports, TypeScript modules with relative
// imports. It returns the files and the identifiers each one uses.
func synthWorkspace(tb testing.TB, dir string) (files []string, lines int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	write := func(rel, content string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
		files = append(files, p)
		lines += strings.Count(content, "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/synth\n\ngo 1.22\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	for p := range benchPackages {
		for f := range benchFilesPerPkg {
			dep := rng.IntN(benchPackages)
			write(fmt.Sprintf("go/pkg%d/file%d.go", p, f), goFile(p, f, dep))
			write(fmt.Sprintf("py/mod%d/part%d.py", p, f), pyFile(p, f, dep))
			write(fmt.Sprintf("ts/lib%d/unit%d.ts", p, f), tsFile(p, f, dep))
		}
	}
	return files, lines
}

func goFile(p, f, dep int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package pkg%d\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\n\t\"example.com/synth/go/pkg%d\"\n)\n\n", p, dep)
	fmt.Fprintf(&b, "// Record%d_%d is one stored record.\ntype Record%d_%d struct {\n\tID    int\n\tName  string\n\tTags  []string\n\tOwner *pkg%d.Record%d_0\n}\n\n", p, f, p, f, dep, dep)
	for m := range 6 {
		fmt.Fprintf(&b, "// Process%d handles the record.\nfunc (r *Record%d_%d) Process%d(ctx context.Context, limit int) (int, error) {\n", m, p, f, m)
		b.WriteString("\tif err := ctx.Err(); err != nil {\n\t\treturn 0, err\n\t}\n\ttotal := 0\n")
		b.WriteString("\tfor i, tag := range r.Tags {\n\t\tif i >= limit {\n\t\t\tbreak\n\t\t}\n\t\ttotal += len(tag)\n\t}\n")
		fmt.Fprintf(&b, "\tfmt.Println(r.Name, total, pkg%d.Helper%d(total))\n\treturn total, nil\n}\n\n", dep, m)
	}
	fmt.Fprintf(&b, "// Helper%d computes a checksum.\nfunc Helper%d(n int) int {\n\treturn n*31 + %d\n}\n", f%6, f, f)
	return b.String()
}

func pyFile(p, f, dep int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "import os\nfrom . import part%d\nfrom py.mod%d.part0 import Service%d_0\n\n\n", (f+1)%benchFilesPerPkg, dep, dep)
	fmt.Fprintf(&b, "class Service%d_%d:\n    \"\"\"Serves records from a store.\"\"\"\n\n    def __init__(self, root, limit=10):\n        self.root = root\n        self.limit = limit\n        self.cache = {}\n\n", p, f)
	for m := range 6 {
		fmt.Fprintf(&b, "    def fetch%d(self, key: str) -> dict:\n        \"\"\"Fetch a record by key.\"\"\"\n        if key in self.cache:\n            return self.cache[key]\n", m)
		b.WriteString("        path = os.path.join(self.root, key)\n        with open(path) as fh:\n            data = fh.read()\n")
		b.WriteString("        record = {\"key\": key, \"size\": len(data)}\n        self.cache[key] = record\n        return record\n\n")
	}
	fmt.Fprintf(&b, "\ndef make_service%d(root):\n    \"\"\"Build a service.\"\"\"\n    return Service%d_%d(root)\n", f, p, f)
	return b.String()
}

func tsFile(p, f, dep int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "import { Store%d_0 } from \"../lib%d/unit0\";\nimport { format } from \"./unit%d\";\n\n", dep, dep, (f+1)%benchFilesPerPkg)
	fmt.Fprintf(&b, "/** Options for a store. */\nexport interface Options%d_%d {\n  limit: number;\n  name: string;\n}\n\n", p, f)
	fmt.Fprintf(&b, "export class Store%d_%d {\n  private items: Map<string, number> = new Map();\n  constructor(private opts: Options%d_%d) {}\n\n", p, f, p, f)
	for m := range 6 {
		fmt.Fprintf(&b, "  get%d(key: string): number | undefined {\n    const v = this.items.get(key);\n    if (v === undefined) {\n      return undefined;\n    }\n    return v * %d;\n  }\n\n", m, m+1)
		fmt.Fprintf(&b, "  put%d(key: string, value: number): void {\n    this.items.set(key, value);\n  }\n\n", m)
	}
	fmt.Fprintf(&b, "}\n\nexport function format(n: number): string {\n  return `${n}`;\n}\n\nexport const other%d = new Store%d_0({ limit: 1, name: \"x\" });\n", f, dep)
	return b.String()
}

// rssMB returns the process's resident and peak resident memory in MB,
// from /proc/self/status (tree-sitter's memory is C memory, which the Go
// heap figures do not see).
func rssMB() (rss, peak float64) {
	fh, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(fields[1], 64)
		switch fields[0] {
		case "VmRSS:":
			rss = kb / 1024
		case "VmHWM:":
			peak = kb / 1024
		}
	}
	return rss, peak
}

// benchWorkspace is written once per process: generating it is not what
// the benchmarks measure.
var benchWorkspace struct {
	dir   string
	files []string
	lines int
}

func synthOnce(b *testing.B) (string, []string) {
	if benchWorkspace.dir == "" {
		dir, err := os.MkdirTemp("", "wisp-synth")
		if err != nil {
			b.Fatal(err)
		}
		benchWorkspace.dir = dir
		benchWorkspace.files, benchWorkspace.lines = synthWorkspace(b, dir)
	}
	return benchWorkspace.dir, benchWorkspace.files
}

// BenchmarkBuild measures a cold index build (no disk cache) of the
// 2,000-file, 200k-line workspace, with the process's RSS after it.
func BenchmarkBuild(b *testing.B) {
	dir, files := synthOnce(b)
	var st workspace.Stats
	for b.Loop() {
		ix := workspace.Open(dir, workspace.Options{CacheDir: "-"})
		if err := ix.Wait(context.Background()); err != nil {
			b.Fatal(err)
		}
		st = ix.Stats()
		ix.Close()
	}
	rss, peak := rssMB()
	b.ReportMetric(float64(st.Files), "files")
	b.ReportMetric(float64(benchWorkspace.lines), "lines")
	b.ReportMetric(float64(st.Symbols), "symbols")
	b.ReportMetric(rss, "RSS-MB")
	b.ReportMetric(peak, "peakRSS-MB")
	if st.Files != len(files) {
		b.Fatalf("indexed %d files of %d", st.Files, len(files))
	}
}

// BenchmarkBuildWarm measures a build whose every file comes from the
// disk cache: the second headless run in a repository.
func BenchmarkBuildWarm(b *testing.B) {
	dir, _ := synthOnce(b)
	cache := b.TempDir()
	ix := workspace.Open(dir, workspace.Options{CacheDir: cache})
	ix.Wait(context.Background())
	ix.Close()
	var st workspace.Stats
	for b.Loop() {
		ix := workspace.Open(dir, workspace.Options{CacheDir: cache})
		if err := ix.Wait(context.Background()); err != nil {
			b.Fatal(err)
		}
		st = ix.Stats()
		ix.Close()
	}
	if st.FromCache != st.Files {
		b.Fatalf("%d of %d files from the cache", st.FromCache, st.Files)
	}
	rss, _ := rssMB()
	b.ReportMetric(rss, "RSS-MB")
}

// BenchmarkResolve measures one Resolve on the warm index: 12 names used
// in a file (its own, its imports', common ones), from a different file
// each time. It reports the 99th percentile too.
func BenchmarkResolve(b *testing.B) {
	dir, files := synthOnce(b)
	ix := workspace.Open(dir, workspace.Options{CacheDir: "-"})
	defer ix.Close()
	if err := ix.Wait(context.Background()); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	type query struct {
		from  string
		names []string
	}
	queries := make([]query, 256)
	for i := range queries {
		p, f := rng.IntN(benchPackages), rng.IntN(benchFilesPerPkg)
		queries[i] = query{from: files[rng.IntN(len(files))], names: []string{
			fmt.Sprintf("Record%d_%d", p, f), "Process3", "Helper2", "Tags", fmt.Sprintf("Service%d_0", p),
			"fetch1", "cache", fmt.Sprintf("Store%d_0", p), "get2", "format", "limit", "Name"}}
	}
	var durations []time.Duration
	i := 0
	for b.Loop() {
		q := queries[i%len(queries)]
		i++
		start := time.Now()
		if len(ix.Resolve(q.from, q.names, 48)) == 0 {
			b.Fatal("nothing resolved")
		}
		durations = append(durations, time.Since(start))
	}
	slices.Sort(durations)
	b.ReportMetric(float64(durations[len(durations)*99/100].Nanoseconds()), "p99-ns")
}

// BenchmarkGatherWithIndex measures one whole context selection (what a
// keystroke's completion pays) in a Go file of the synthetic workspace,
// with the index warm, and reports its 99th percentile.
func BenchmarkGatherWithIndex(b *testing.B) { benchGather(b, true) }

// BenchmarkGatherWithoutIndex is the same selection without the index,
// for comparison.
func BenchmarkGatherWithoutIndex(b *testing.B) { benchGather(b, false) }

func benchGather(b *testing.B, withIndex bool) {
	dir, _ := synthOnce(b)
	ix := workspace.Open(dir, workspace.Options{CacheDir: "-"})
	defer ix.Close()
	if err := ix.Wait(context.Background()); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "go", "pkg7", "file3.go")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	doc := text.New(string(data))
	tree, err := syntax.Parse(context.Background(), syntax.Detect("", path), doc)
	if err != nil {
		b.Fatal(err)
	}
	defer tree.Close()
	cursor := strings.Index(doc.String(), "fmt.Println(r.Name") + len("fmt.Println(r.")
	in := gather.Input{Buffer: gather.Buffer{Path: path, LanguageID: "go", Text: doc, Tree: tree},
		Cursor: cursor, Budget: 1500}
	if withIndex {
		in.Workspace = ix
	}
	var durations []time.Duration
	defs := 0
	for b.Loop() {
		start := time.Now()
		c := gather.Gather(in)
		durations = append(durations, time.Since(start))
		defs = 0
		for _, p := range c.Pieces {
			if p.Kind == "definition" {
				defs++
			}
		}
	}
	if (defs > 0) != withIndex {
		b.Fatalf("%d definitions chosen", defs)
	}
	slices.Sort(durations)
	b.ReportMetric(float64(durations[len(durations)*99/100].Nanoseconds()), "p99-ns")
	b.ReportMetric(float64(defs), "definitions")
}

package lsp_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/syntax"
)

// bigGo returns a Go file of at least size bytes: many small functions,
// so that a parser builds a real tree for it.
func bigGo(size int) string {
	var b strings.Builder
	b.Grow(size + 128)
	b.WriteString("package big\n\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "// f%d adds.\nfunc f%d(a, b int) int {\n\tx := a + b*%d\n\treturn x\n}\n\n", i, i, i)
	}
	return b.String()
}

// rssMB reads the process's resident set size from /proc/self/status. It
// is the figure that counts: tree-sitter's memory is outside the Go heap.
func rssMB(tb testing.TB) float64 {
	tb.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		tb.Skipf("no /proc/self/status: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			if err != nil {
				tb.Fatalf("VmRSS %q: %v", rest, err)
			}
			return float64(kb) / 1024
		}
	}
	tb.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// sync waits until the server has handled every message sent before it:
// wisp/stats is served on the ordered read loop.
func (e *fakeEditor) sync() {
	e.t.Helper()
	e.mustCall("wisp/stats", map[string]any{}, nil)
}

// BenchmarkLargeDocuments drives the real server over a pipe with the
// documents that froze it: a 10 MB Go file opened, edited and closed
// twenty times, and keystrokes on a 5 MB one; and, for comparison, the
// same on files within the parse limit, which get a tree.
//
//	go test ./lsp -run '^$' -bench 'LargeDocuments/open' -benchtime 1x -benchmem
//	go test ./lsp -run '^$' -bench 'LargeDocuments/keystroke' -benchtime 20x -benchmem
func BenchmarkLargeDocuments(b *testing.B) {
	b.Run("open-edit-close-10MB-x20", func(b *testing.B) { openEditClose(b, bigGo(10<<20)) })
	// Just within the parse limit: the document is parsed and indexed, so
	// this is the figure for tree-sitter's C memory.
	b.Run("open-edit-close-parsed-x20", func(b *testing.B) { openEditClose(b, bigGo(syntax.MaxParseBytes-4096)) })
	b.Run("keystroke-5MB", func(b *testing.B) { keystrokes(b, bigGo(5<<20)) })
	b.Run("keystroke-50MB", func(b *testing.B) { keystrokes(b, bigGo(50<<20)) })
	b.Run("keystroke-parsed-500KB", func(b *testing.B) { keystrokes(b, bigGo(syntax.MaxParseBytes-4096)) })
	b.Run("keystroke-parsed-128KB", func(b *testing.B) { keystrokes(b, bigGo(128<<10)) })
}

// openEditClose opens doc, types five characters with an inline
// completion after each, and closes it, twenty times per op. It reports
// the RSS before the first open, the peak, the RSS after the last close
// and a GC (which runs the finalizers of anything not closed explicitly),
// the Go heap then, and the RSS once the Go runtime has returned its free
// pages (debug.FreeOSMemory): the difference between the last two RSS
// figures is free Go memory not yet returned, not memory held.
func openEditClose(b *testing.B, doc string) {
	e := startServer(b, echoModel{reply: "x"}, config.Default())
	e.initialize("initialize-nvim-0.12.4.json", nil)
	// Another document asks for context, so the big one is indexed too.
	e.open("file:///tmp/other.go", "go", addGo)
	runtime.GC()
	debug.FreeOSMemory()
	before := rssMB(b)
	peak := before
	b.ResetTimer()
	for range b.N {
		for cycle := range 20 {
			uri := fmt.Sprintf("file:///tmp/big%d.go", cycle)
			e.open(uri, "go", doc)
			for k := range 5 {
				e.change(uri, k+2, 3, 1+k, 3, 1+k, "y")
				if _, err := e.inline(context.Background(), uri, 3, 2+k); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := e.inline(context.Background(), "file:///tmp/other.go", 3, 1); err != nil {
				b.Fatal(err)
			}
			peak = max(peak, rssMB(b))
			e.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
			e.sync()
		}
	}
	b.StopTimer()
	runtime.GC()
	runtime.GC()
	after := rssMB(b)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	debug.FreeOSMemory()
	b.ReportMetric(before, "rss-before-MB")
	b.ReportMetric(peak, "rss-peak-MB")
	b.ReportMetric(after, "rss-after-MB")
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-after-MB")
	b.ReportMetric(rssMB(b), "rss-after-free-MB")
}

// keystrokes times one keystroke on doc plus the inline completion an
// editor asks for after it.
func keystrokes(b *testing.B, doc string) {
	e := startServer(b, echoModel{reply: "x"}, config.Default())
	e.initialize("initialize-nvim-0.12.4.json", nil)
	uri := "file:///tmp/typed.go"
	e.open(uri, "go", doc)
	if _, err := e.inline(context.Background(), uri, 3, 1); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		col := 1 + i%200
		e.change(uri, i+2, 3, col, 3, col, "y")
		if _, err := e.inline(context.Background(), uri, 3, col+1); err != nil {
			b.Fatal(err)
		}
	}
}

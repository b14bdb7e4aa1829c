package gather_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/completion/gather"
	"github.com/wisp-lsp/wisp/completion/history"
	"github.com/wisp-lsp/wisp/syntax"
)

// benchInput builds a 5,000-line Go file, the cursor in the middle, and
// 20 other 500-line buffers, each with a recent edit. cached says whether
// the buffers carry their Index (as the engine caches it per document
// version).
func benchInput(b *testing.B, cached bool) gather.Input {
	b.Helper()
	src := mainHead + filler("Helper", 410) + mainBody + filler("Late", 410)
	cursor := strings.Index(src, "‸")
	src = strings.Replace(src, "‸", "", 1)
	if n := strings.Count(src, "\n"); n < 5000 {
		b.Fatalf("file has %d lines, want 5,000", n)
	}
	in := gather.Input{Buffer: buffer(b, "main.go", src), Cursor: cursor}
	for i := 0; i < 20; i++ {
		other := "package main\n\n" + filler(fmt.Sprintf("O%d_", i), 80) + fmt.Sprintf("func Dial%d(addr string) *Conn {\n\treturn nil\n}\n", i)
		o := buffer(b, fmt.Sprintf("other%d.go", i), other)
		in.Others = append(in.Others, o)
		in.History = append(in.History, history.Edit{Path: o.Path, Line: 40, Lines: 1,
			Diff: fmt.Sprintf("@@ -41,1 +41,1 @@\n-\treturn c + %d\n+\treturn c - %d", i, i)})
	}
	if cached {
		in.Index = syntax.NewIndex(in.Tree)
		for i := range in.Others {
			in.Others[i].Index = syntax.NewIndex(in.Others[i].Tree)
		}
	}
	return in
}

// BenchmarkGather measures one context selection on a 5,000-line file
// with 20 other open buffers whose Index the caller has cached.
func BenchmarkGather(b *testing.B) {
	in := benchInput(b, true)
	b.ResetTimer()
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		gather.Gather(in)
		times = append(times, time.Since(start))
	}
	reportPercentiles(b, times)
}

// BenchmarkGatherLongLine measures a cursor in a 14 KB minified line.
func BenchmarkGatherLongLine(b *testing.B) {
	src := "var app=function(){" + strings.Repeat("function a(t,e){return t*e+1};", 450) + "}();\n"
	in := gather.Input{Buffer: buffer(b, "app.min.js", src), Cursor: len(src) / 2, Budget: 1024}
	in.Index = syntax.NewIndex(in.Tree)
	b.ResetTimer()
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		gather.Gather(in)
		times = append(times, time.Since(start))
	}
	reportPercentiles(b, times)
}

// reportPercentiles adds the p50 and p99 of times to the benchmark's
// figures: context assembly is on every request's path, so its tail
// matters more than its mean.
func reportPercentiles(b *testing.B, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkGatherUncached is BenchmarkGather with every buffer's Index
// read from its tree on each call.
func BenchmarkGatherUncached(b *testing.B) {
	in := benchInput(b, false)
	b.ResetTimer()
	for b.Loop() {
		gather.Gather(in)
	}
}

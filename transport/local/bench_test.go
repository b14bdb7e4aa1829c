package local

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/transport"
)

// genFile writes realistic Go of about lines lines: a type, methods with
// validation, error handling and table-driven tests, with names varied by
// seed so that files resemble each other without being copies.
func genFile(seed, lines int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package pkg%d\n\nimport (\n\t\"context\"\n\t\"errors\"\n\t\"fmt\"\n)\n\n", seed%17)
	nouns := []string{"user", "order", "item", "account", "session", "invoice", "report", "token"}
	verbs := []string{"Create", "Update", "Delete", "Fetch", "List", "Archive"}
	for i := 0; b.Len() < lines*32; i++ {
		n := nouns[(seed+i)%len(nouns)]
		v := verbs[(seed*3+i)%len(verbs)]
		typ := strings.ToUpper(n[:1]) + n[1:]
		fmt.Fprintf(&b, "// %s%s%d %ss a %s.\n", v, typ, i, strings.ToLower(v), n)
		fmt.Fprintf(&b, "func (s *Service) %s%s%d(ctx context.Context, id string, limit int) (*%s, error) {\n", v, typ, i, typ)
		fmt.Fprintf(&b, "\tif id == \"\" {\n\t\treturn nil, errors.New(\"%s: missing id\")\n\t}\n", strings.ToLower(v))
		fmt.Fprintf(&b, "\tif limit > %d {\n\t\tlimit = %d\n\t}\n", 10+i%90, 10+i%90)
		fmt.Fprintf(&b, "\t%s, err := s.store.%s%s(ctx, id, limit)\n", n, v, typ)
		fmt.Fprintf(&b, "\tif err != nil {\n\t\treturn nil, fmt.Errorf(\"%s %s %%s: %%w\", id, err)\n\t}\n", strings.ToLower(v), n)
		fmt.Fprintf(&b, "\ts.metrics.Inc(\"%s.%s\")\n\ts.log.Info(\"%s\", \"id\", id, \"limit\", limit)\n", n, strings.ToLower(v), n)
		fmt.Fprintf(&b, "\treturn %s, nil\n}\n\n", n)
		if i%3 == 0 {
			fmt.Fprintf(&b, "func Test%s%s%d(t *testing.T) {\n\ttests := []struct {\n\t\tname string\n\t\tid   string\n\t\twant error\n\t}{\n", v, typ, i)
			for k := range 4 {
				fmt.Fprintf(&b, "\t\t{name: \"case %d\", id: \"%s-%d\", want: nil},\n", k, n, k*seed)
			}
			fmt.Fprintf(&b, "\t}\n\tfor _, tt := range tests {\n\t\t_ = tt\n\t}\n}\n\n")
		}
	}
	return b.String()
}

func countLines(s string) int { return strings.Count(s, "\n") }

// benchEngine returns an engine with a 5,000-line buffer open and, when
// workspace is set, a 200-file, 200,000-line workspace indexed, and a
// request at a fresh method declaration near the end of the buffer.
func benchEngine(b *testing.B, workspace bool) (*Engine, transport.Request) {
	b.Helper()
	e := New(Options{})
	if workspace {
		root := b.TempDir()
		total := 0
		for i := range 200 {
			src := genFile(i+1, 1000)
			total += countLines(src)
			if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%03d.go", i)), []byte(src), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		if err := e.IndexDir(context.Background(), root, 1000, 1<<30); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(total), "ws-lines")
	}
	buf := genFile(999, 5000)
	cut := strings.LastIndex(buf, "\nfunc (s *Service)")
	prefix := buf[:cut] + "\nfunc (s *Service) ExportReport7(ctx context.Context, id string, limit int) (*Report, error) {\n\t"
	suffix := "\n}\n" + buf[cut:]
	e.Observe("/ws/buffer.go", prefix+suffix)
	b.ReportMetric(float64(countLines(prefix+suffix)), "buf-lines")
	return e, transport.Request{Prefix: prefix, Suffix: suffix, Path: "/ws/buffer.go"}
}

func benchGenerate(b *testing.B, e *Engine, req transport.Request) {
	b.Helper()
	res, err := e.Generate(context.Background(), req, nil) // warm: index the buffer
	if err != nil || res.Text == "" {
		b.Fatalf("Generate: %q, %v", res.Text, err)
	}
	b.Logf("completion: %q", res.Text)
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.Generate(context.Background(), req, func(string) {}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGenerateBuffer5000(b *testing.B) {
	e, req := benchEngine(b, false)
	benchGenerate(b, e, req)
}

func BenchmarkGenerateWorkspace200k(b *testing.B) {
	e, req := benchEngine(b, true)
	benchGenerate(b, e, req)
}

// A request whose text has no similar code nearby: retrieval finds
// nothing and the n-gram fallback finishes a partial word.
func BenchmarkGenerateFallbackWorkspace200k(b *testing.B) {
	e, req := benchEngine(b, true)
	req.Prefix += "zq := s.met"
	e.Observe(req.Path, req.Prefix+req.Suffix)
	benchGenerate(b, e, req)
}

// The request's text is in no buffer (a client that never sent it): the
// request itself is tokenised on every call.
func BenchmarkGenerateUnobserved5000(b *testing.B) {
	e, req := benchEngine(b, false)
	e.Forget(req.Path)
	benchGenerate(b, e, req)
}

// A one-character change to a 5,000-line buffer: Observe, then the
// incremental re-tokenisation the next generation does.
func BenchmarkObserveOneChar5000(b *testing.B) {
	e := New(Options{})
	text := genFile(7, 5000)
	mid := len(text) / 2
	edited := text[:mid] + "x" + text[mid:]
	e.Observe("a.go", text)
	e.bufs["a.go"].current()
	b.SetBytes(int64(len(text)))
	i := 0
	for b.Loop() {
		t := text
		if i%2 == 0 {
			t = edited
		}
		i++
		e.Observe("a.go", t)
		e.bufs["a.go"].current()
	}
}

// For comparison: tokenising the whole 5,000-line buffer from scratch.
func BenchmarkTokenizeFull5000(b *testing.B) {
	text := genFile(7, 5000)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		tokenize("a.go", text)
	}
}

func BenchmarkIndexDir200k(b *testing.B) {
	root := b.TempDir()
	for i := range 200 {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%03d.go", i)), []byte(genFile(i+1, 1000)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	e := New(Options{})
	for b.Loop() {
		if err := e.IndexDir(context.Background(), root, 1000, 1<<30); err != nil {
			b.Fatal(err)
		}
	}
}

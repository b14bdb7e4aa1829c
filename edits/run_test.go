package edits

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/wisp-lsp/wisp/transport"
)

// writeFiles creates files in a new temporary directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestRunSeveralFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.go":    "package a\n\nfunc one() int {\n\treturn 1\n}\n",
		"b.py":    "def two():\n    return 2\n",
		"same.go": "package same\n",
		"bin.dat": "MZ\x00\x01\x02",
		"bad.txt": "caf\xe9\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	model := &fakeModel{replies: map[string]string{
		p("a.go"):    "```go\nfunc one() int {\n\treturn 100\n}\n```",
		p("b.py"):    "def two():\n    return 200\n",
		p("same.go"): "package same\n",
	}}
	targets := []Target{
		{Path: p("a.go"), Line: 4, Col: 2},
		{Path: p("b.py")},
		{Path: p("same.go")},
		{Path: p("bin.dat")},
		{Path: p("bad.txt")},
		{Path: p("missing.go")},
		{Path: p("a.go"), Line: 40},
		{Path: p("b.py"), Line: 1, Col: 1, EndLine: 9, EndCol: 1},
	}
	var calls []int
	results, err := Run(context.Background(), model, targets, "make the numbers bigger", RunOptions{
		Concurrency: 2,
		Progress: func(done, total int, path string) {
			if total != len(targets) || path == "" {
				t.Errorf("Progress(%d, %d, %q)", done, total, path)
			}
			calls = append(calls, done)
		},
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	want := []struct {
		status Status
		err    string
	}{
		{Changed, ""},
		{Changed, ""},
		{NoChange, ""},
		{Failed, "not a text file: NUL byte"},
		{Failed, "not a text file: invalid UTF-8"},
		{Failed, "no such file"},
		{Failed, "named more than once"},
		{Failed, "named more than once"},
	}
	for i, r := range results {
		if r.Status != want[i].status || (want[i].err == "") != (r.Err == nil) ||
			r.Err != nil && !strings.Contains(r.Err.Error(), want[i].err) {
			t.Errorf("target %d (%s): status %v, err %v; want %v, %q", i, targets[i], r.Status, r.Err, want[i].status, want[i].err)
		}
	}
	if got := results[0].Edits; len(got) != 1 || got[0].Text != "100" {
		t.Errorf("a.go edits = %v, want one edit to \"100\"", got)
	}
	if !strings.Contains(results[0].Diff, "-\treturn 1\n+\treturn 100\n") {
		t.Errorf("a.go diff:\n%s", results[0].Diff)
	}
	if results[1].After != "def two():\n    return 200\n" {
		t.Errorf("b.py after = %q", results[1].After)
	}
	// Run never writes without Write.
	if data, _ := os.ReadFile(p("a.go")); !strings.Contains(string(data), "return 1\n") {
		t.Errorf("a.go was written: %q", data)
	}
	// Duplicates fail without a model call, so only the others report.
	if len(calls) != 6 || calls[len(calls)-1] != 6 {
		t.Errorf("progress calls = %v, want 1..6", calls)
	}
}

func TestRunRangeOutsideFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.go": "package a\n"})
	results, err := Run(context.Background(), &fakeModel{reply: "x"}, []Target{{Path: filepath.Join(dir, "a.go"), Line: 9}}, "x", RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r := results[0]; r.Status != Failed || !errors.Is(r.Err, ErrBadTarget) {
		t.Errorf("result = %v, %v; want Failed with ErrBadTarget", r.Status, r.Err)
	}
}

func TestRunWrites(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.go": "package a\n\nvar x = 1\n", "b.go": "package b\n"})
	a := filepath.Join(dir, "a.go")
	model := &fakeModel{replies: map[string]string{
		a:                          "var x = 2\n",
		filepath.Join(dir, "b.go"): "Sorry, I can't do that.",
	}}
	results, err := Run(context.Background(), model, []Target{{Path: a, Line: 3}, {Path: filepath.Join(dir, "b.go")}}, "bump", RunOptions{Write: true})
	if err != nil {
		t.Fatal(err)
	}
	if results[0].Status != Changed {
		t.Fatalf("a.go: %v %v", results[0].Status, results[0].Err)
	}
	if data, _ := os.ReadFile(a); string(data) != "package a\n\nvar x = 2\n" {
		t.Errorf("a.go holds %q", data)
	}
	if w := results[0].Written; w == nil || w.Path != a || w.InPlaceWhy != "" {
		t.Errorf("a.go: Written = %+v, want %s replaced atomically", w, a)
	}
	if w := results[1].Written; w != nil {
		t.Errorf("b.go: Written = %+v, want nil for a file not written", w)
	}
	if r := results[1]; r.Status != Failed || !errors.Is(r.Err, ErrNotCode) {
		t.Errorf("b.go: %v %v; want Failed with ErrNotCode", r.Status, r.Err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "b.go")); string(data) != "package b\n" {
		t.Errorf("b.go was changed to %q", data)
	}
}

func TestRunCancelled(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.go": "package a\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	results, err := Run(ctx, &fakeModel{reply: "package b\n"}, []Target{{Path: filepath.Join(dir, "a.go")}}, "x", RunOptions{})
	if !errors.Is(err, context.Canceled) || results[0].Status != Failed {
		t.Errorf("Run = %v, %v; want a cancelled run", results[0].Status, err)
	}
}

func TestFileResultJSON(t *testing.T) {
	before := "package a\n\nvar héllo = 1\n"
	r := FileResult{
		Target: Target{Path: "a.go"}, Status: Changed, Before: before,
		Edits: []Edit{{Start: strings.Index(before, "1"), End: strings.Index(before, "1") + 1, Text: "2"}},
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"file":"a.go","status":"changed","edits":[{"start":{"line":3,"col":14},"end":{"line":3,"col":15},"newText":"2"}]}`
	if string(data) != want {
		t.Errorf("JSON = %s\nwant   %s", data, want)
	}
	r.Written = &Written{Path: "/src/a.go", InPlaceWhy: "it has 2 hard links"}
	data, _ = json.Marshal(r)
	if want := `,"wrote":"/src/a.go","inPlace":"it has 2 hard links"}`; !strings.HasSuffix(string(data), want) {
		t.Errorf("JSON = %s\nwant it to end %s", data, want)
	}
	data, _ = json.Marshal(FileResult{Target: Target{Path: "b.go"}, Status: Failed, Err: errors.New("boom")})
	if want := `{"file":"b.go","status":"failed","edits":[],"error":"boom"}`; string(data) != want {
		t.Errorf("JSON = %s\nwant   %s", data, want)
	}
}

func TestCheckTextAllowsCharacterCutAt8K(t *testing.T) {
	data := []byte(strings.Repeat("a", sniffLen-1) + "é")
	if err := CheckText(data); err != nil {
		t.Errorf("CheckText: %v", err)
	}
	if err := CheckText([]byte(strings.Repeat("a", 100) + "\xff")); !errors.Is(err, ErrBinary) {
		t.Errorf("CheckText of invalid UTF-8 = %v, want ErrBinary", err)
	}
}

// slowModel takes a second of (fake) time per file and records how many
// files it was asked about at once.
type slowModel struct {
	mu             sync.Mutex
	inFlight, most int // guarded by mu
}

func (m *slowModel) Generate(ctx context.Context, req transport.Request, onDelta func(string)) (transport.Result, error) {
	m.mu.Lock()
	m.inFlight++
	m.most = max(m.most, m.inFlight)
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		m.inFlight--
		m.mu.Unlock()
	}()
	time.Sleep(time.Second) // in the bubble: every file that may start has started before it ends
	return transport.Result{Text: req.Prefix, FinishReason: "stop"}, nil
}

func (m *slowModel) Close() error { return nil }

// At most RunOptions.Concurrency files are edited at once.
func TestRunBoundsConcurrency(t *testing.T) {
	files := map[string]string{}
	var targets []Target
	for i := range 6 {
		name := fmt.Sprintf("f%d.go", i)
		files[name] = "package f\n"
		targets = append(targets, Target{Path: name})
	}
	dir := writeFiles(t, files)
	for i := range targets {
		targets[i].Path = filepath.Join(dir, targets[i].Path)
	}
	synctest.Test(t, func(t *testing.T) {
		model := &slowModel{}
		if _, err := Run(context.Background(), model, targets, "x", RunOptions{Concurrency: 2}); err != nil {
			t.Fatal(err)
		}
		if model.most != 2 {
			t.Errorf("%d files edited at once, want 2", model.most)
		}
	})
}

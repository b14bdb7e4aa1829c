package local

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/wisp-lsp/wisp/transport"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const cursor = "‸"

// read returns a file from testdata/local.
func read(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "local", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// split cuts text at the cursor marker.
func split(t testing.TB, text string) (prefix, suffix string) {
	t.Helper()
	prefix, suffix, ok := strings.Cut(text, cursor)
	if !ok {
		t.Fatalf("no cursor marker in %q", text)
	}
	return prefix, suffix
}

// insertAfter puts ins (which holds the cursor marker) after the first
// occurrence of anchor in text.
func insertAfter(t testing.TB, text, anchor, ins string) string {
	t.Helper()
	i := strings.Index(text, anchor)
	if i < 0 {
		t.Fatalf("anchor %q not found", anchor)
	}
	i += len(anchor)
	return text[:i] + ins + text[i:]
}

func complete(t testing.TB, e *Engine, req transport.Request) (transport.Result, []string) {
	t.Helper()
	var deltas []string
	res, err := e.Generate(context.Background(), req, func(s string) { deltas = append(deltas, s) })
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if got := strings.Join(deltas, ""); got != res.Text {
		t.Fatalf("deltas %q do not add up to Result.Text %q", got, res.Text)
	}
	return res, deltas
}

func TestComplete(t *testing.T) {
	goFile := read(t, "handlers.go")
	pyFile := read(t, "test_calc.py")
	tests := []struct {
		name string
		path string
		text string // the cursor's buffer, with the cursor marker
		req  func(*transport.Request)
		want string
	}{{
		name: "go next similar line",
		path: "handlers.go",
		text: insertAfter(t, goFile, "getenv(\"PORT\")\n", "\tcfg.User = "+cursor),
		want: `getenv("PORT")`,
	}, {
		name: "go partial word",
		path: "handlers.go",
		text: insertAfter(t, goFile, "getenv(\"PORT\")\n", "\tcfg.Ho"+cursor),
		want: `st = getenv("HOST")`,
	}, {
		name: "go next similar signature",
		path: "handlers.go",
		text: goFile + "\nfunc (s *Server) handleDelete(" + cursor + "\n",
		want: `ctx context.Context, req *Request) (*Response, error) {`,
	}, {
		name: "go block body with renaming",
		path: "handlers.go",
		text: goFile + "\nfunc (s *Server) handleDelete(ctx context.Context, req *Request) (*Response, error) {" + cursor + "\n",
		want: "\n\tif req.ID == \"\" {\n\t\treturn nil, errors.New(\"update: missing id\")\n\t}\n" +
			"\titem, err := s.store.Delete(ctx, req.ID)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n" +
			"\treturn &Response{Item: item}, nil\n}",
	}, {
		name: "go block stops before closing brace in suffix",
		path: "handlers.go",
		text: goFile + "\nfunc (s *Server) handleDelete(ctx context.Context, req *Request) (*Response, error) {" + cursor + "\n\treturn &Response{Item: item}, nil\n}\n",
		want: "\n\tif req.ID == \"\" {\n\t\treturn nil, errors.New(\"update: missing id\")\n\t}\n" +
			"\titem, err := s.store.Delete(ctx, req.ID)\n\tif err != nil {\n\t\treturn nil, err\n\t}",
	}, {
		name: "go suffix closes the call",
		path: "handlers.go",
		text: insertAfter(t, goFile, "getenv(\"PORT\")\n", "\tcfg.User = getenv("+cursor+")"),
		want: `"PORT"`,
	}, {
		name: "python next test body renamed",
		path: "test_calc.py",
		text: pyFile + "    def test_mul(self):\n        " + cursor + "\n",
		want: "self.assertEqual(mul(3, 2), 1)",
	}, {
		name: "python next def line",
		path: "test_calc.py",
		text: pyFile + "    def test_mul(" + cursor,
		want: "self):",
	}, {
		name: "cursor inside a word",
		path: "handlers.go",
		text: insertAfter(t, goFile, "cfg.Ho", cursor),
		want: "",
	}, {
		name: "stop sequence",
		path: "handlers.go",
		text: goFile + "\nfunc (s *Server) handleDelete(" + cursor + "\n",
		req:  func(r *transport.Request) { r.Stop = []string{")"} },
		want: `ctx context.Context, req *Request`,
	}, {
		name: "nothing similar",
		path: "main.go",
		text: "package main\n\nfunc main() {\n\tfmt.Println(" + cursor + ")\n}\n",
		want: "",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prefix, suffix := split(t, tt.text)
			e := New(Options{})
			e.Observe(tt.path, prefix+suffix)
			req := transport.Request{Prefix: prefix, Suffix: suffix, Path: tt.path}
			if tt.req != nil {
				tt.req(&req)
			}
			res, _ := complete(t, e, req)
			if res.Text != tt.want {
				t.Errorf("completion\n got %q\nwant %q", res.Text, tt.want)
			}
			if res.FinishReason != "stop" {
				t.Errorf("FinishReason = %q, want stop", res.FinishReason)
			}
		})
	}
}

// The suffix is never repeated: when the best continuation is exactly the
// text after the cursor, the completion is empty.
func TestNeverRepeatsSuffix(t *testing.T) {
	text := "x = compute(1)\ny = other()\nx = " + cursor + "compute(1)\n"
	prefix, suffix := split(t, text)
	e := New(Options{})
	e.Observe("a.py", prefix+suffix)
	res, _ := complete(t, e, transport.Request{Prefix: prefix, Suffix: suffix, Path: "a.py"})
	if res.Text != "" {
		t.Errorf("completion %q repeats the suffix %q", res.Text, suffix)
	}
	// Without the suffix the same place is completed.
	e.Observe("a.py", prefix)
	res, _ = complete(t, e, transport.Request{Prefix: prefix, Path: "a.py"})
	if res.Text != "compute(1)" {
		t.Errorf("completion without suffix = %q, want %q", res.Text, "compute(1)")
	}
}

// The cursor's buffer is found by its text, without the path: text after
// the cursor in that buffer is then available to copy from.
func TestLocatesBufferByText(t *testing.T) {
	text := "def f():\n    " + cursor + "\n\ndef g():\n    return compute_total(items)\n"
	prefix, suffix := split(t, text)
	e := New(Options{})
	e.Observe("/work/x.py", prefix+suffix)
	e.Observe("/work/y.py", "unrelated = 1\n")
	req := transport.Request{Prefix: "def g():\n    " + "return compute_total(items)\n\ndef h():\n    return comp"}
	res, _ := complete(t, e, req)
	if res.Text != "ute_total(items)" {
		t.Fatalf("ad-hoc request: got %q", res.Text)
	}
	res, _ = complete(t, e, transport.Request{Prefix: prefix, Path: "elsewhere"})
	if res.Text != "return compute_total(items)" {
		t.Errorf("prefix of an observed buffer: got %q, want the later similar line", res.Text)
	}
}

// A request's prefix may leave out comment lines far above the cursor
// (as completion/gather does): the buffer is still found by the text
// nearest the cursor.
func TestLocatesBufferWithCommentsLeftOut(t *testing.T) {
	comment := strings.Repeat("# The totals are computed once, when the items are loaded.\n", 12)
	var code string
	for i := range 10 {
		code += fmt.Sprintf("    count += weight(items[%d])\n", i)
	}
	text := "def f(items):\n" + comment + "    count = 0\n" + code + "    return comp" + cursor + "\n\ndef g(items):\n    return compute_total(items)\n"
	prefix, suffix := split(t, text)
	e := New(Options{})
	e.Observe("/work/x.py", prefix+suffix)
	res, _ := complete(t, e, transport.Request{Prefix: strings.Replace(prefix, comment, "", 1), Path: "/work/x.py"})
	if !strings.HasPrefix(res.Text, "ute_total(items)") {
		t.Errorf("prefix without its far comments: got %q, want the name from further down the buffer", res.Text)
	}
}

func TestDeterministic(t *testing.T) {
	goFile := read(t, "handlers.go")
	prefix := goFile + "\nfunc (s *Server) handleDelete(ctx context.Context, req *Request) (*Response, error) {"
	var first string
	for i := range 5 {
		e := New(Options{})
		// Buffers observed in different orders give the same answer.
		paths := []string{"a.go", "b.go", "c.go"}
		for k := range paths {
			p := paths[(k+i)%len(paths)]
			e.Observe(p, goFile)
		}
		e.Observe("cur.go", prefix)
		res, _ := complete(t, e, transport.Request{Prefix: prefix, Path: "cur.go"})
		if res.Text == "" {
			t.Fatal("empty completion")
		}
		if i == 0 {
			first = res.Text
		} else if res.Text != first {
			t.Fatalf("run %d: %q, run 0: %q", i, res.Text, first)
		}
	}
}

func TestCancelStopsStreaming(t *testing.T) {
	goFile := read(t, "handlers.go")
	prefix := goFile + "\nfunc (s *Server) handleDelete(ctx context.Context, req *Request) (*Response, error) {"
	e := New(Options{})
	e.Observe("cur.go", prefix)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var deltas []string
	res, err := e.Generate(ctx, transport.Request{Prefix: prefix}, func(s string) {
		deltas = append(deltas, s)
		cancel()
	})
	if !errors.Is(err, context.Canceled) || !transport.IsCancelled(err) {
		t.Fatalf("err = %v, want a cancellation", err)
	}
	if len(deltas) != 1 || res.Text != deltas[0] || res.FinishReason != "cancelled" {
		t.Errorf("after cancel: %d deltas, Text %q, reason %q", len(deltas), res.Text, res.FinishReason)
	}
	_, err = e.Generate(ctx, transport.Request{Prefix: prefix}, func(string) { t.Error("delta after cancel") })
	if !transport.IsCancelled(err) {
		t.Errorf("cancelled ctx: err = %v", err)
	}
}

func TestMaxTokens(t *testing.T) {
	goFile := read(t, "handlers.go")
	prefix := goFile + "\nfunc (s *Server) handleDelete("
	e := New(Options{})
	e.Observe("cur.go", prefix)
	res, deltas := complete(t, e, transport.Request{Prefix: prefix, MaxTokens: 3})
	if res.Text != "ctx context." || len(deltas) != 3 || res.FinishReason != "length" {
		t.Errorf("got %q in %d deltas, reason %q", res.Text, len(deltas), res.FinishReason)
	}
}

func TestEmptyCorpus(t *testing.T) {
	e := New(Options{})
	for _, req := range []transport.Request{{}, {Prefix: "package main\n\nfunc main() {\n\t"}, {Prefix: "x", Suffix: "y"}} {
		res, deltas := complete(t, e, req)
		if res.Text != "" || len(deltas) != 0 {
			t.Errorf("%q: got %q", req.Prefix, res.Text)
		}
	}
}

func TestEditIsUnsupported(t *testing.T) {
	e := New(Options{})
	region := "func f() {\n\treturn 1\n}\n"
	res, _ := complete(t, e, transport.Request{Prefix: region, Instruction: "return 2"})
	if res.Text != region || res.FinishReason != FinishUnsupported {
		t.Errorf("got %q, %q", res.Text, res.FinishReason)
	}
}

func TestForget(t *testing.T) {
	e := New(Options{})
	e.Observe("a.go", "\tcfg.Host = getenv(\"HOST\")\n")
	req := transport.Request{Prefix: "x := 1\n\tcfg.Host = ", Path: "b.go"}
	if res, _ := complete(t, e, req); res.Text != `getenv("HOST")` {
		t.Fatalf("with buffer: %q", res.Text)
	}
	e.Forget("a.go")
	if res, _ := complete(t, e, req); res.Text != "" {
		t.Errorf("after Forget: %q", res.Text)
	}
}

package history_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/completion/history"
	"github.com/wisp-lsp/wisp/text"
)

// editor replays edits on one file into a History, as the language
// server's didChange does.
type editor struct {
	t    *testing.T
	h    *history.History
	path string
	doc  *text.Text
}

func (e *editor) replace(start, end int, s string) {
	e.t.Helper()
	next, ed, err := e.doc.Replace(start, end, s)
	if err != nil {
		e.t.Fatal(err)
	}
	e.h.Record(e.path, e.doc, next, []text.Edit{ed})
	e.doc = next
}

// typeAt types s one character at a time at off.
func (e *editor) typeAt(off int, s string) {
	for i := range s {
		e.replace(off+i, off+i, s[i:i+1])
	}
}

const src = "package p\n\nfunc a() {\n\tx := 1\n}\n\nfunc b() {\n\ty := 2\n}\n"

func TestTypingMergesIntoOneEdit(t *testing.T) {
	h := history.New(0)
	e := &editor{t: t, h: h, path: "p.go", doc: text.New(src)}
	off := strings.Index(src, "1\n}")
	e.replace(off, off+1, "")
	e.typeAt(off, "count + 1")
	e.typeAt(strings.Index(e.doc.String(), "\n}\n\nfunc b"), "\n\treturn")
	got := h.Recent(10)
	want := "@@ -4,1 +4,2 @@\n-\tx := 1\n+\tx := count + 1\n+\treturn"
	if len(got) != 1 || got[0].Diff != want || got[0].Path != "p.go" || got[0].Line != 3 {
		t.Fatalf("got %+v\nwant one edit with diff\n%s", got, want)
	}
}

func TestSeparateRegionsNewestFirst(t *testing.T) {
	h := history.New(0)
	a := &editor{t: t, h: h, path: "a.go", doc: text.New(src)}
	b := &editor{t: t, h: h, path: "b.go", doc: text.New(src)}
	a.typeAt(strings.Index(src, "x :="), "new")
	a.typeAt(strings.Index(a.doc.String(), "y :="), "old")
	b.replace(0, len("package p"), "package q")
	got := h.Recent(10)
	if len(got) != 3 {
		t.Fatalf("got %d edits, want 3: %+v", len(got), got)
	}
	for i, w := range []struct{ path, plus string }{{"b.go", "+package q"}, {"a.go", "+\toldy := 2"}, {"a.go", "+\tnewx := 1"}} {
		if got[i].Path != w.path || !strings.Contains(got[i].Diff, w.plus) {
			t.Errorf("edit %d: %+v, want %s with %q", i, got[i], w.path, w.plus)
		}
	}
	if got := h.Recent(1); len(got) != 1 || got[0].Path != "b.go" {
		t.Errorf("Recent(1) = %+v", got)
	}
}

func TestUndoneEditIsForgotten(t *testing.T) {
	h := history.New(0)
	e := &editor{t: t, h: h, path: "p.go", doc: text.New(src)}
	off := strings.Index(src, "x :=")
	e.typeAt(off, "ab")
	e.replace(off+1, off+2, "")
	e.replace(off, off+1, "")
	if got := h.Recent(10); len(got) != 0 {
		t.Fatalf("typed and deleted again, still remembered: %+v", got)
	}
}

func TestBounds(t *testing.T) {
	h := history.New(3)
	e := &editor{t: t, h: h, path: "p.go", doc: text.New(src)}
	paste := strings.Repeat("\tpasted()\n", 50)
	e.replace(0, 0, paste)
	for i := range 5 {
		// Each edit far from the last, so none merges.
		off := strings.Index(e.doc.String(), "func a")
		if i%2 == 1 {
			off = strings.Index(e.doc.String(), "func b")
		}
		e.replace(off, off, fmt.Sprintf("// %d\n", i))
	}
	got := h.Recent(10)
	if len(got) != 3 {
		t.Fatalf("kept %d edits, want 3", len(got))
	}
	for _, g := range got {
		if strings.Contains(g.Diff, "pasted") {
			t.Errorf("the oldest edit should have gone: %q", g.Diff)
		}
	}
	h2 := history.New(0)
	e2 := &editor{t: t, h: h2, path: "p.go", doc: text.New(src)}
	e2.replace(0, 0, paste)
	d := h2.Recent(1)[0].Diff
	if n := strings.Count(d, "\n+"); n != 9 || !strings.HasSuffix(d, "+…") {
		t.Errorf("a 50-line paste shows %d lines:\n%s", n, d)
	}
}

func TestSeveralChangesInOneNotification(t *testing.T) {
	h := history.New(0)
	before := text.New(src)
	mid, e1, _ := before.Replace(strings.Index(src, "x"), strings.Index(src, "x")+1, "xx")
	after, e2, _ := mid.Replace(strings.Index(mid.String(), "y"), strings.Index(mid.String(), "y")+1, "yy")
	h.Record("p.go", before, after, []text.Edit{e1, e2})
	got := h.Recent(10)
	if len(got) != 1 || !strings.Contains(got[0].Diff, "+\txx := 1") || !strings.Contains(got[0].Diff, "+\tyy := 2") {
		t.Fatalf("got %+v", got)
	}
}

func TestNilHistory(t *testing.T) {
	var h *history.History
	h.Record("p.go", text.New(""), text.New("x"), []text.Edit{{NewEnd: 1}})
	if h.Recent(3) != nil {
		t.Fatal("nil history remembers")
	}
}

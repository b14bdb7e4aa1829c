package nextedit_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/edits"
	"github.com/wisp-lsp/wisp/nextedit"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/workspace"
)

const src = `package calc

import "math"

// Mean returns the mean of xs.
func Mean(xs []float64) float64 {
	total := 0.0
	for _, x := range xs {
		total += x
	}
	return total / float64(len(xs))
}

// Root is the square root of the mean.
func Root(xs []float64) float64 {
	return math.Sqrt(Mean(xs))
}
`

// typeText types s at off one byte at a time into h, as keystrokes.
func typeText(t *testing.T, h *nextedit.History, doc *text.Text, start, end int, s string) *text.Text {
	t.Helper()
	next, e, err := doc.Replace(start, end, "")
	if err != nil {
		t.Fatal(err)
	}
	h.Record(doc, next, []text.Edit{e})
	doc = next
	for i := range len(s) {
		next, e, err := doc.Replace(start+i, start+i, s[i:i+1])
		if err != nil {
			t.Fatal(err)
		}
		h.Record(doc, next, []text.Edit{e})
		doc = next
	}
	return doc
}

// Keystrokes on one line are one edit in the history, shown as a diff.
func TestHistoryMergesKeystrokes(t *testing.T) {
	doc := text.New(src)
	h := nextedit.NewHistory()
	off := strings.Index(src, "total")
	doc = typeText(t, h, doc, off, off+len("total"), "sum")
	hunks := h.Hunks()
	if len(hunks) != 1 {
		t.Fatalf("%d hunks, want one: %+v", len(hunks), hunks)
	}
	want := "--- calc.go\n+++ calc.go\n@@ -7,1 +7,1 @@\n-\ttotal := 0.0\n+\tsum := 0.0\n"
	if got := hunks[0].Diff("calc.go"); got != want {
		t.Fatalf("diff\n%s\nwant\n%s", got, want)
	}
	if at, ok := h.Last(); !ok || at != off+len("sum") {
		t.Fatalf("last edit ends at %d, want %d", at, off+len("sum"))
	}
	// An edit elsewhere is a second hunk; undoing an edit removes it.
	off2 := strings.Index(doc.String(), "Root is")
	doc = typeText(t, h, doc, off2, off2, "x")
	if n := len(h.Hunks()); n != 2 {
		t.Fatalf("%d hunks after an edit elsewhere, want 2", n)
	}
	next, e, _ := doc.Replace(off2, off2+1, "")
	h.Record(doc, next, []text.Edit{e})
	if n := len(h.Hunks()); n != 1 {
		t.Fatalf("%d hunks after undoing the second edit, want 1", n)
	}
}

// The region is the function around the edit when it is small, and
// stays inside a long one.
func TestRegionSnapsToTheFunction(t *testing.T) {
	doc := text.New(src)
	tree, err := syntax.Parse(context.Background(), syntax.Detect("go", "calc.go"), doc)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	at := strings.Index(src, "total")
	fn := src[strings.Index(src, "func Mean"):strings.Index(src, "\n// Root")]
	if r := nextedit.Region(doc, tree, at, 2); src[r.Start:r.End] != fn {
		t.Fatalf("region %q, want func Mean whole", src[r.Start:r.End])
	}
	plain := nextedit.Region(doc, nil, at, 1)
	if got := src[plain.Start:plain.End]; got != "func Mean(xs []float64) float64 {\n\ttotal := 0.0\n\tfor _, x := range xs {\n" {
		t.Fatalf("plain region %q, want a line either side", got)
	}
}

type fakeResolver map[string]workspace.Symbol

func (f fakeResolver) Resolve(from string, names []string, max int) []workspace.Symbol {
	var out []workspace.Symbol
	for _, n := range names {
		if s, ok := f[n]; ok {
			out = append(out, s)
		}
	}
	return out
}

// The request carries the region, the history as diffs, the lines around
// the region and the definitions the region uses, and survives the chat
// rendering the model servers parse.
func TestBuildRequest(t *testing.T) {
	doc := text.New(src)
	h := nextedit.NewHistory()
	off := strings.Index(src, "total")
	doc = typeText(t, h, doc, off, off+len("total"), "sum")
	at, _ := h.Last()
	q := nextedit.Query{Path: "/p/calc.go", LanguageID: "go", Text: doc, At: at, History: h.Hunks(), Radius: 2,
		Definitions: fakeResolver{"float64": {Name: "float64", Path: "/p/types.go", Signature: "type float64 float64"}}}
	req, region := nextedit.BuildRequest(q)
	if req.Prefix != doc.String()[region.Start:region.End] || !strings.Contains(req.Prefix, "sum := 0.0") {
		t.Fatalf("prefix %q is not the region around the edit", req.Prefix)
	}
	if len(req.Context) != 1 || !strings.Contains(req.Context[0].Text, "type float64 float64") {
		t.Fatalf("context %+v, want the definition the region uses", req.Context)
	}
	_, input := transport.RenderChat(req)
	prefix, _, instruction, ok := transport.ParseChat(input)
	if !ok || prefix != req.Prefix {
		t.Fatalf("chat round trip lost the region: %q", prefix)
	}
	ne, ok := transport.ParseNextEdit(instruction)
	if !ok || ne.Path != "/p/calc.go" || len(ne.History) != 1 || !strings.Contains(ne.History[0], "+\tsum := 0.0") {
		t.Fatalf("next edit %+v, want the path and the history", ne)
	}
	if doc.String()[:region.Start] != ne.Above || !strings.HasPrefix(doc.String()[region.End:], ne.Below) || ne.Below == "" {
		t.Fatalf("above %q and below %q are not the region's surroundings", ne.Above, ne.Below)
	}
}

// A reply that changes nothing, or is not code, is "nothing follows";
// a rewrite is minimal edits of the whole text.
func TestAnswer(t *testing.T) {
	region := edits.Region{Start: 100, End: 100 + len("\ttotal += x\n")}
	old := "\ttotal += x\n"
	if got := nextedit.Answer(old, region, "```go\n"+old+"```"); len(got) != 0 {
		t.Errorf("an unchanged region answered %v", got)
	}
	if got := nextedit.Answer(old, region, "I'm sorry, I can't help with that."); len(got) != 0 {
		t.Errorf("a refusal answered %v", got)
	}
	got := nextedit.Answer(old, region, "```go\n\tsum += x\n```")
	if len(got) != 1 || got[0] != (edits.Edit{Start: 101, End: 106, Text: "sum"}) {
		t.Errorf("rewrite answered %v, want one rename at 101", got)
	}
}

// nextedit works in byte offsets: it never imports the protocol.
func TestNoProtocolImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/wisp-lsp/wisp/nextedit").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "go.lsp.dev/") || dep == "github.com/wisp-lsp/wisp/lsp" {
			t.Errorf("nextedit depends on %s", dep)
		}
	}
}

package gather_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/completion/gather"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/workspace"
)

// TestGatherUsesWholeBudget: on a file larger than the budget, at any
// cursor (top, middle, end, inside long lines), at least 95% of the
// budget is used and never more.
func TestGatherUsesWholeBudget(t *testing.T) {
	src := mainHead + filler("Helper", 200) + mainBody + "var table = []int{" + strings.Repeat("1, 2, 3, ", 900) + "}\n" + filler("Late", 100)
	src = strings.Replace(src, "‸", "", 1)
	in := gather.Input{Buffer: buffer(t, "main.go", src)}
	in.Index = syntax.NewIndex(in.Tree)
	in.Others = []gather.Buffer{buffer(t, "net.go", "package main\n\n"+filler("Other", 20))}
	in.Others[0].Index = syntax.NewIndex(in.Others[0].Tree)
	rng := rand.New(rand.NewPCG(1, 2))
	cursors := []int{0, 1, len(src) / 2, len(src) - 1, len(src), strings.Index(src, "1, 2, 3") + 4000}
	for range 200 {
		cursors = append(cursors, rng.IntN(len(src)+1))
	}
	for _, budget := range []int{128, 1024, 2048} {
		in.Budget = budget
		for _, cur := range cursors {
			in.Cursor = cur
			c := gather.Gather(in)
			if c.Tokens > budget || c.Tokens*100 < budget*95 {
				t.Errorf("budget %d, cursor %d: %d tokens used", budget, cur, c.Tokens)
			}
			if !showsWindow(src[c.PrefixStart:cur], c.Prefix) || !showsWindow(src[cur:c.SuffixEnd], c.Suffix) {
				t.Fatalf("budget %d, cursor %d: windows do not match offsets %d..%d", budget, cur, c.PrefixStart, c.SuffixEnd)
			}
		}
	}
}

// showsWindow reports whether shown is window, or window less some of
// its whole lines that are only line comments or lines of a block
// comment ("/*" starts one; a "*" line is left out only inside one).
func showsWindow(window, shown string) bool {
	inBlock := false // a left-out line opened a block comment not closed yet
	for window != "" {
		line, rest, _ := strings.Cut(window, "\n")
		if rest != "" || strings.HasSuffix(window, "\n") {
			line += "\n"
		}
		switch t := strings.TrimSpace(line); {
		case strings.HasPrefix(shown, line):
			shown = shown[len(line):]
		case strings.HasPrefix(t, "//") && !inBlock:
		case strings.HasPrefix(t, "/*") && !inBlock, strings.HasPrefix(t, "*") && inBlock:
			inBlock = !strings.HasSuffix(t, "*/")
		default:
			return false
		}
		window = window[len(line):]
	}
	return shown == ""
}

// FuzzGather: any text, cursor and budget; Gather never panics, keeps
// its windows at the cursor and within the budget. As plain text the
// windows are the text between their offsets; as Go (with no tree), that
// text less some of its comment lines.
func FuzzGather(f *testing.F) {
	f.Add("package p\n\nfunc f() {\n\tif x {\n", 20, 50)
	f.Add("package p\n\n// one\n// two\n"+strings.Repeat("var x = 1\n", 12)+"// three\r\n\n", 60, 40)
	f.Add(strings.Repeat("x", 5000)+"\n"+strings.Repeat("y", 5000), 5003, 100)
	f.Add("héllo\nwörld\r\n\x00\xff", 3, 1)
	f.Fuzz(func(t *testing.T, src string, cursor, budget int) {
		doc := text.New(src)
		c := gather.Gather(gather.Input{Buffer: gather.Buffer{Path: "f.txt", Text: doc}, Cursor: cursor, Budget: budget % 5000})
		cur := max(0, min(cursor, len(src)))
		if c.PrefixStart > cur || c.SuffixEnd < cur || c.Prefix != src[c.PrefixStart:cur] || c.Suffix != src[cur:c.SuffixEnd] {
			t.Fatalf("windows %d..%d around %d", c.PrefixStart, c.SuffixEnd, cur)
		}
		if c.Tokens > c.Budget {
			t.Fatalf("%d tokens over budget %d", c.Tokens, c.Budget)
		}
		c = gather.Gather(gather.Input{Buffer: gather.Buffer{Path: "f.go", Text: doc}, Cursor: cursor, Budget: budget % 5000})
		if c.PrefixStart > cur || c.SuffixEnd < cur || !showsWindow(src[c.PrefixStart:cur], c.Prefix) || !showsWindow(src[cur:c.SuffixEnd], c.Suffix) {
			t.Fatalf("Go windows %d..%d around %d: %q, %q", c.PrefixStart, c.SuffixEnd, cur, c.Prefix, c.Suffix)
		}
		if c.Tokens > c.Budget {
			t.Fatalf("Go: %d tokens over budget %d", c.Tokens, c.Budget)
		}
	})
}

// A file that fits the budget but takes most of it is shown through a
// window, like a larger one, so the definitions of what it uses keep
// their share; a small file is shown whole beside them.
func TestFileNearTheBudgetLeavesTheExtrasTheirShare(t *testing.T) {
	const budget = 1000
	var b strings.Builder
	b.WriteString("package p\n\n")
	for i := 0; gather.Estimate(b.String()) < budget*6/10; i++ {
		fmt.Fprintf(&b, "func step%d(s *State) error {\n\treturn s.Apply(Op%d, Limit%d)\n}\n\n", i, i, i)
	}
	src := b.String()
	cursor := strings.Index(src, "return s.Apply(Op3")
	c := gather.Gather(gather.Input{Buffer: buffer(t, "p.go", src), Cursor: cursor, Budget: budget, Workspace: wordy{}})
	defs := 0
	for _, p := range c.Pieces {
		if p.Kind == "definition" {
			defs += p.Tokens
		}
	}
	// Beside the whole file, what it leaves (some 360 tokens) gives the
	// definitions about 110.
	if defs < 180 {
		t.Errorf("file of %d tokens in a budget of %d: definitions take %d tokens, want at least 180", gather.Estimate(src), budget, defs)
	}
	small := src[:strings.Index(src, "func step6")]
	c = gather.Gather(gather.Input{Buffer: buffer(t, "p.go", small), Cursor: cursor, Budget: budget, Workspace: wordy{}})
	if c.PrefixStart != 0 || c.SuffixEnd != len(small) {
		t.Errorf("a file of %d tokens in a budget of %d is not shown whole: %d..%d of %d", gather.Estimate(small), budget, c.PrefixStart, c.SuffixEnd, len(small))
	}
}

// wordy is a Resolver whose definitions have long signatures.
type wordy struct{}

func (wordy) Resolve(from string, names []string, max int) []workspace.Symbol {
	var out []workspace.Symbol
	for _, n := range names {
		out = append(out, workspace.Symbol{Name: n, Kind: "func", Path: "/elsewhere/x.go", Reason: "workspace",
			Signature: "func " + n + "(ctx context.Context, first, second string, limit int) (*Result, error)"})
	}
	return out
}

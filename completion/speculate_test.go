package completion_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// speculating is an engine with speculation and look-ahead as configured.
func speculating(m transport.Model, speculate, lookAhead bool) *completion.Engine {
	cfg := config.Default().Completion
	cfg.Speculate, cfg.LookAhead = speculate, lookAhead
	return completion.NewEngine(completion.Options{Model: m, Config: cfg})
}

const lineSrc = "package p\n\nfunc f() int {\n\ts := a +\n}\n"

var lineEnd = len("package p\n\nfunc f() int {\n\ts := a +")

// The user takes a one-line suggestion and breaks the line while its
// generation still streams the look-ahead: the next line is served from
// that same stream, with no second model request.
func TestLookAheadTakenWhileStreaming(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: " b\n\treturn s\n", gap: 20 * time.Millisecond}
		e := speculating(m, false, true)
		defer e.Close()
		doc := text.New(lineSrc)
		s, err := e.Suggest(context.Background(), query(doc, lineEnd))
		if err != nil || s.Text != " b" {
			t.Fatalf("first suggestion %+v, %v", s, err)
		}
		doc = typeAt(e, doc, lineEnd, " b")
		doc = typeAt(e, doc, lineEnd+2, "\n")
		// No indentation was typed on the new line: the suggestion
		// carries the model's.
		s, err = e.Suggest(context.Background(), query(doc, lineEnd+3))
		if err != nil || s.Text != "\treturn s" {
			t.Fatalf("next line %+v, %v; want %q", s, err, "\treturn s")
		}
		if n := m.requests.Load(); n != 1 {
			t.Fatalf("%d model requests, want 1", n)
		}
		if st := e.Stats(); st.LookAheadUsed != 1 || st.Cancelled != 0 {
			t.Fatalf("stats %+v: want the look-ahead used, nothing cancelled", st)
		}
		synctest.Wait()
		if st := e.Stats(); st.LookAheadWastedTokens != 0 || st.Tokens != int64(len(m.reply)) {
			t.Fatalf("stats %+v: want %d tokens, none of the served look-ahead wasted", st, len(m.reply))
		}
	})
}

// A look-ahead nobody takes is counted as wasted: every delta after the
// shown line's break. Taken after its generation ended, it is no longer
// counted so.
func TestLookAheadNotTakenIsWasted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: " b\n\treturn s\n"}
		e := speculating(m, false, true)
		defer e.Close()
		doc := text.New(lineSrc)
		if s, err := e.Suggest(context.Background(), query(doc, lineEnd)); err != nil || s.Text != " b" {
			t.Fatalf("suggestion %+v, %v", s, err)
		}
		synctest.Wait()
		if st, want := e.Stats(), int64(len("\treturn s\n")); st.LookAheadWastedTokens != want || st.LookAheadUsed != 0 {
			t.Fatalf("stats %+v: want %d look-ahead tokens wasted, none used", st, want)
		}
		doc = typeAt(e, doc, lineEnd, " b")
		typeAt(e, doc, lineEnd+2, "\n")
		if st := e.Stats(); st.LookAheadUsed != 1 || st.LookAheadWastedTokens != 0 || m.requests.Load() != 1 {
			t.Fatalf("stats %+v, %d model requests: want the ended look-ahead used, none of it wasted, no new request", st, m.requests.Load())
		}
	})
}

// stopLog records the stop strings of each request.
type stopLog struct {
	transport.Model
	stops [][]string
}

func (l *stopLog) Generate(ctx context.Context, req transport.Request, onDelta func(string)) (transport.Result, error) {
	l.stops = append(l.stops, req.Stop)
	return l.Model.Generate(ctx, req, onDelta)
}

// Look-ahead lifts a one-line plan's line-break stop; without it the
// generation stops at the end of the line.
func TestLookAheadLiftsTheLineStop(t *testing.T) {
	for _, on := range []bool{true, false} {
		m := &stopLog{Model: &scriptedModel{reply: " b"}}
		e := speculating(m, false, on)
		e.Suggest(context.Background(), query(text.New(lineSrc), lineEnd))
		e.Close()
		if len(m.stops) != 1 || slices.Contains(m.stops[0], "\n") == on {
			t.Errorf("look-ahead %v: stops %q", on, m.stops)
		}
	}
}

// A speculation the user diverges from is stopped at the model and its
// tokens are counted as wasted.
func TestDivergenceWastesTheSpeculation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: "42", gap: 20 * time.Millisecond}
		e := speculating(m, true, true)
		defer e.Close()
		doc := text.New(src)
		if s, _ := e.Suggest(context.Background(), query(doc, cursor)); s.Text != "42" {
			t.Fatalf("first suggestion %+v", s)
		}
		time.Sleep(30 * time.Millisecond) // the speculation has one token
		synctest.Wait()
		typeAt(e, doc, cursor, "x")
		synctest.Wait()
		st := e.Stats()
		if st.Speculative != 1 || st.SpeculativeCancelled != 1 || st.SpeculativeWastedTokens != 1 || m.cancelled.Load() != 1 {
			t.Fatalf("stats %+v, model cancels %d: want one speculation, cancelled at the model, one token wasted", st, m.cancelled.Load())
		}
	})
}

// Typing what the model said but shaping trimmed (a trailing space, the
// indentation of the next line) is served on from the same generation,
// shaped anew at each cursor: no new model request, and the next line
// shows once its indentation is typed.
func TestTypingPastTheShownTextRebases(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: " b \n\treturn s\n"}
		e := speculating(m, false, true)
		defer e.Close()
		doc := text.New(lineSrc)
		if s, _ := e.Suggest(context.Background(), query(doc, lineEnd)); s.Text != " b" {
			t.Fatalf("first suggestion %+v", s)
		}
		at := lineEnd
		for _, key := range []string{" ", "b", " ", "\n", "\t"} {
			doc = typeAt(e, doc, at, key)
			at += len(key)
		}
		s, err := e.Suggest(context.Background(), query(doc, at))
		if err != nil || s.Text != "return s" {
			t.Fatalf("after typing the indentation: %+v, %v; want %q", s, err, "return s")
		}
		if n := m.requests.Load(); n != 1 {
			t.Fatalf("%d model requests, want 1", n)
		}
	})
}

// Typing within the suggestion shown does not leave it: each request on
// the way is served the rest of the same text from its generation, typed
// ahead, not from a generation shaped anew at the new cursor.
func TestTypingWithinTheShownTextStaysOnIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: " b + c\n\treturn s\n"}
		e := speculating(m, false, true)
		defer e.Close()
		doc := text.New(lineSrc)
		if s, _ := e.Suggest(context.Background(), query(doc, lineEnd)); s.Text != " b + c" {
			t.Fatalf("first suggestion %+v", s)
		}
		at := lineEnd
		for _, key := range []string{" ", "b", " ", "+"} {
			doc = typeAt(e, doc, at, key)
			at += len(key)
			s, err := e.Suggest(context.Background(), query(doc, at))
			if want := " b + c"[at-lineEnd:]; err != nil || s.Text != want || s.Source != completion.FromTypedAhead {
				t.Fatalf("after typing %q: %+v, %v; want %q typed ahead", key, s, err, want)
			}
		}
		if n := m.requests.Load(); n != 1 {
			t.Fatalf("%d model requests, want 1", n)
		}
	})
}

// reqLog records every request its model is sent.
type reqLog struct {
	transport.Model
	mu   sync.Mutex
	reqs []transport.Request
}

func (l *reqLog) Generate(ctx context.Context, req transport.Request, onDelta func(string)) (transport.Result, error) {
	l.mu.Lock()
	l.reqs = append(l.reqs, req)
	l.mu.Unlock()
	return l.Model.Generate(ctx, req, onDelta)
}

// A speculation asks for the document as it will be once the suggestion
// is taken and the line broken: the first prompt with the suggestion and
// a line break after it, the same suffix. Taking the suggestion serves
// the speculation without another request.
func TestSpeculationAsksForTheTakenSuggestion(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &reqLog{Model: &scriptedModel{reply: "42"}}
		e := speculating(m, true, false)
		defer e.Close()
		doc := text.New(src)
		if s, _ := e.Suggest(context.Background(), query(doc, cursor)); s.Text != "42" {
			t.Fatalf("first suggestion %+v", s)
		}
		synctest.Wait()
		m.mu.Lock()
		reqs := slices.Clone(m.reqs)
		m.mu.Unlock()
		if len(reqs) != 2 {
			t.Fatalf("%d requests, want the user's and one speculation", len(reqs))
		}
		if want := reqs[0].Prefix + "42\n"; reqs[1].Prefix != want || reqs[1].Suffix != reqs[0].Suffix {
			t.Fatalf("speculation asked prefix %q suffix %q; want prefix %q suffix %q",
				reqs[1].Prefix, reqs[1].Suffix, want, reqs[0].Suffix)
		}
		if reqs[1].MaxTokens <= 0 {
			t.Fatalf("speculation unbounded: max tokens %d", reqs[1].MaxTokens)
		}
		doc = typeAt(e, doc, cursor, "42")
		doc = typeAt(e, doc, cursor+2, "\n")
		if st := e.Stats(); st.Speculative != 1 || st.SpeculativeUsed != 1 {
			t.Fatalf("stats %+v: want the speculation taken up", st)
		}
		// Taken up, it is the document's own generation: left later, it
		// wastes nothing as a speculation; its own successor, asked for
		// now, does.
		synctest.Wait()
		typeAt(e, doc, cursor+3, "x")
		if st := e.Stats(); st.Speculative != 2 || st.SpeculativeWastedTokens != int64(len("42")) {
			t.Fatalf("stats %+v: want the successor's %d tokens alone wasted", st, len("42"))
		}
	})
}

// Typing past the end of a block a suggestion of several lines stops at,
// onto the next line, while its generation still streams: the rest of the
// model's text is shaped anew at the new line and served at once, from
// the same stream, without a new model request.
func TestTypingPastABlockEndWhileStreamingRebases(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const src = "package p\n\nfunc f(x bool) {\n\tif x {\n\t\tuse(x)\n\t\n"
		m := &scriptedModel{reply: "}\n\tdone(x)\n\treturn\n}\n" + strings.Repeat("// more\n", 20), gap: 5 * time.Millisecond}
		e := speculating(m, false, false)
		defer e.Close()
		doc := text.New(src)
		at := len(src) - 1
		// Each request waits 50 ms at most: the stream is far from its end.
		streaming := func(at int) (shown string) {
			q := query(doc, at)
			q.Budget = 50 * time.Millisecond
			q.Partial = func(s string) { shown = s }
			e.Suggest(context.Background(), q)
			return shown
		}
		if s := streaming(at); s != "}" {
			t.Fatalf("first suggestion %q; want the block's end", s)
		}
		doc = typeAt(e, doc, at, "}")
		doc = typeAt(e, doc, at+1, "\n")
		if want, shown := "\tdone(x)", streaming(at+2); !strings.HasPrefix(shown, want) {
			t.Fatalf("next line shows %q while streaming; want it to start %q", shown, want)
		}
		if n := m.requests.Load(); n != 1 {
			t.Fatalf("%d model requests, want 1", n)
		}
	})
}

// In a CRLF file whose model breaks lines with "\r\n" too, the line after
// a one-line suggestion is served from the look-ahead when the user takes
// the suggestion and breaks the line, as with "\n": no new model request.
func TestLookAheadWithCRLF(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: " b\r\n\treturn s\r\n}\r\n", gap: 20 * time.Millisecond}
		e := speculating(m, true, true)
		defer e.Close()
		src := strings.ReplaceAll(lineSrc, "\n", "\r\n")
		end := strings.Index(src, "a +") + len("a +")
		doc := text.New(src)
		if s, err := e.Suggest(context.Background(), query(doc, end)); err != nil || s.Text != " b" {
			t.Fatalf("first suggestion %+v, %v", s, err)
		}
		doc = typeAt(e, doc, end, " b")
		doc = typeAt(e, doc, end+2, "\r\n")
		s, err := e.Suggest(context.Background(), query(doc, end+4))
		if err != nil || s.Text != "\treturn s" {
			t.Fatalf("next line %+v, %v; want %q", s, err, "\treturn s")
		}
		if n := m.requests.Load(); n != 1 {
			t.Fatalf("%d model requests, want 1", n)
		}
		if st := e.Stats(); st.LookAheadUsed != 1 {
			t.Fatalf("stats %+v: want the look-ahead used", st)
		}
	})
}

// A suggestion of several lines is speculated on only once half of it is
// typed: most are left before their end.
func TestBlockSpeculatedOnceHalfTyped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const src = "package p\n\nfunc f() int {\n    \n}\n"
		at := len("package p\n\nfunc f() int {\n    ")
		m := &scriptedModel{reply: "x := 1\n    return x"}
		e := speculating(m, true, false)
		defer e.Close()
		doc := text.New(src)
		s, err := e.Suggest(context.Background(), query(doc, at))
		if err != nil || s.Text != m.reply {
			t.Fatalf("suggestion %q, %v; want %q", s.Text, err, m.reply)
		}
		third, half := len(s.Text)/3, len(s.Text)/2+1
		for _, key := range []string{s.Text[:third], s.Text[third:half]} {
			synctest.Wait()
			if n := m.requests.Load(); n != 1 {
				t.Fatalf("%d model requests before half the block was typed, want 1", n)
			}
			doc = typeAt(e, doc, at, key)
			at += len(key)
		}
		synctest.Wait()
		if st := e.Stats(); st.Speculative != 1 || m.requests.Load() != 2 {
			t.Fatalf("stats %+v, %d model requests: want one speculation once half the block was typed", st, m.requests.Load())
		}
	})
}

// The user takes a one-line suggestion that opens a block: at the end of
// that line the plan is a new block, and its body is served at once from
// the same stream's look-ahead, before the line is broken, with no second
// model request.
func TestLookAheadServesTheBlockALineOpens(t *testing.T) {
	m := &scriptedModel{reply: " {\n\t\tn += x\n\t}\n\treturn n\n"}
	s, err := afterTakingABlockOpener(t, m)
	if err != nil || !strings.HasPrefix(s.Text, "\n\t\tn += x") {
		t.Fatalf("at the end of the taken line: %+v, %v; want the block's body", s, err)
	}
	if n := m.requests.Load(); n != 1 {
		t.Fatalf("%d model requests, want 1", n)
	}
}

// A look-ahead taken from a reply its output bound cut short is shown as
// written, like the reply itself: the block it was writing is not closed
// under the line it stopped in.
func TestLookAheadOfAReplyCutShortIsNotCompleted(t *testing.T) {
	m := &scriptedModel{reply: " {\n\t\tn += x\n\t\tm", finish: "length"}
	if s, err := afterTakingABlockOpener(t, m); err != nil || s.Text != "\n\t\tn += x\n\t\tm" {
		t.Fatalf("the block's body: %+v, %v; want it as written, not closed", s, err)
	}
}

// afterTakingABlockOpener asks, with look-ahead on, for a suggestion at
// the end of "for _, x := range xs", which m answers starting " {"; takes
// that line by typing it; and returns the suggestion asked for after it.
func afterTakingABlockOpener(t *testing.T, m *scriptedModel) (completion.Suggestion, error) {
	t.Helper()
	const src = "package p\n\nfunc f(xs []int) int {\n\tn := 0\n\tfor _, x := range xs\n}\n"
	at := len("package p\n\nfunc f(xs []int) int {\n\tn := 0\n\tfor _, x := range xs")
	e := speculating(m, false, true)
	t.Cleanup(e.Close)
	doc := text.New(src)
	if s, err := e.Suggest(context.Background(), query(doc, at)); err != nil || s.Text != " {" {
		t.Fatalf("first suggestion %+v, %v; want the line's end", s, err)
	}
	doc = typeAt(e, doc, at, " {")
	return e.Suggest(context.Background(), query(doc, at+2))
}

// The look-ahead's continuation is planned in the document's language,
// though it has no syntax tree of its own: after a taken "switch {" in a
// parsed Go file, the case labels it shows sit at the switch's level, as
// gofmt puts them, not one level deeper.
func TestLookAheadPlansInTheDocumentsLanguage(t *testing.T) {
	m := &scriptedModel{reply: " {\n\tcase x > 0:\n\t\treturn 1\n\t}\n\treturn 0\n"}
	const src = "package p\n\nfunc sign(x int) int {\n\tswitch\n}\n"
	at := len("package p\n\nfunc sign(x int) int {\n\tswitch")
	e := speculating(m, false, true)
	defer e.Close()
	parsed := func(doc *text.Text, at int) completion.Query {
		q := query(doc, at)
		tree, err := syntax.Parse(context.Background(), syntax.Detect("go", "p.go"), doc)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(tree.Close)
		q.Tree = tree
		return q
	}
	doc := text.New(src)
	if s, err := e.Suggest(context.Background(), parsed(doc, at)); err != nil || s.Text != " {" {
		t.Fatalf("first suggestion %+v, %v; want the line's end", s, err)
	}
	doc = typeAt(e, doc, at, " {")
	s, err := e.Suggest(context.Background(), parsed(doc, at+2))
	if err != nil || !strings.HasPrefix(s.Text, "\n\tcase x > 0:\n\t\treturn 1") {
		t.Fatalf("after the taken switch: %q, %v; want its case at the switch's level", s.Text, err)
	}
	if n := m.requests.Load(); n != 1 {
		t.Fatalf("%d model requests, want 1 (the look-ahead serves)", n)
	}
}

package modelserver

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

// trueText is a reply of many distinct lines.
func trueText(lines int) string {
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, "\tcount := total + item%d\n", i)
	}
	return b.String()
}

func generateAll(t *testing.T, b Backend, q Query) string {
	t.Helper()
	var out strings.Builder
	if err := b.Generate(context.Background(), q, func(tok string) bool { out.WriteString(tok); return true }); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestInaccurateBackendShareAndSeed(t *testing.T) {
	want := trueText(400)
	q := Query{Prefix: "func f() {\n"}
	b := InaccurateBackend{Backend: TextBackend(want), Accuracy: 0.8, Seed: 7}
	got := generateAll(t, b, q)
	wantLines, gotLines := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	if len(gotLines) != len(wantLines) {
		t.Fatalf("%d lines, want %d: the reply must keep its shape", len(gotLines), len(wantLines))
	}
	wrong := 0
	for i := range wantLines {
		if gotLines[i] != wantLines[i] {
			wrong++
			if strings.TrimLeft(gotLines[i], "\t") == gotLines[i] {
				t.Errorf("line %d lost its indentation: %q", i, gotLines[i])
			}
		}
	}
	if share := float64(wrong) / 400; share < 0.12 || share > 0.28 {
		t.Errorf("%.0f%% of lines wrong, want about 20%%", 100*share)
	}
	if again := generateAll(t, b, q); again != got {
		t.Error("the same query and seed gave another reply")
	}
	if other := generateAll(t, InaccurateBackend{Backend: TextBackend(want), Accuracy: 0.8, Seed: 8}, q); other == got {
		t.Error("another seed gave the same wrong lines")
	}
	if perfect := generateAll(t, InaccurateBackend{Backend: TextBackend(want), Accuracy: 1}, q); perfect != want {
		t.Error("accuracy 1 changed the reply")
	}
}

func TestMisleadChangesEveryWordyLine(t *testing.T) {
	for _, line := range []string{"\treturn a + b\n", "x\n", "if ok {", "\t\tcounts := nil\n", "class Foo:\n"} {
		got := mislead(line, 3)
		if got == line {
			t.Errorf("mislead(%q) left it unchanged", line)
		}
		if strings.HasSuffix(line, "\n") != strings.HasSuffix(got, "\n") {
			t.Errorf("mislead(%q) = %q: the line end changed", line, got)
		}
	}
	if got := mislead("}\n", 3); got != "}\n" {
		t.Errorf("a line without words became %q", got)
	}
}

func TestAccuracyThroughTheServer(t *testing.T) {
	want := trueText(50)
	_, base := start(t, Options{Backend: TextBackend(want), Accuracy: 0.5, Seed: 1})
	resp := post(t, base+"/v1/completions", map[string]any{"prompt": "p", "suffix": "", "stream": false})
	var body struct {
		Choices []struct {
			Text string `json:"text"`
		} `json:"choices"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || len(body.Choices) != 1 {
		t.Fatalf("reply: %v %+v", err, body)
	}
	if got := body.Choices[0].Text; got == want || strings.Count(got, "\n") != 50 {
		t.Fatalf("accuracy 0.5 sent %q", got)
	}
}

// variedText is a reply of many distinct lines of several shapes: words
// of all lengths, ones neighbour swaps or cuts, a last line without a
// line end.
func variedText(lines int) string {
	shapes := []string{
		"\tif err%d != nil {\n",
		"\t\treturn true, items%d\n",
		"\tfor i := 0; i < n%d; i++ {\n",
		"}\n",
		"\tcounts%d := strings.TrimSpace(s)\n",
		"\tconst limit = %d\n",
		"    self.value%d = None\n",
	}
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, shapes[i%len(shapes)], i)
	}
	b.WriteString("\treturn total + items")
	return b.String()
}

// scoredLines runs b scored and returns its tokens, line by line, checking
// they spell what Generate says.
func scoredLines(t *testing.T, b InaccurateBackend, q Query) [][]Scored {
	t.Helper()
	var (
		lines [][]Scored
		line  []Scored
		text  strings.Builder
	)
	err := b.GenerateScored(context.Background(), q, func(tok Scored) bool {
		text.WriteString(tok.Token)
		line = append(line, tok)
		if strings.HasSuffix(tok.Token, "\n") {
			lines, line = append(lines, line), nil
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if line != nil {
		lines = append(lines, line)
	}
	if want := generateAll(t, b, q); text.String() != want {
		t.Fatalf("GenerateScored spelled\n%q\nGenerate gave\n%q", text.String(), want)
	}
	return lines
}

// spell concatenates tokens.
func spell(toks []Scored) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(t.Token)
	}
	return b.String()
}

// doubted returns the indexes of the tokens given less than even odds.
func doubted(toks []Scored) []int {
	var at []int
	for i, t := range toks {
		if t.Logprob < math.Log(0.5) {
			at = append(at, i)
		}
	}
	return at
}

func TestInaccurateScoredShowsCalibratedDoubts(t *testing.T) {
	want := variedText(300)
	wantLines := strings.SplitAfter(want, "\n")
	q := Query{Prefix: "func f() {\n"}
	for seed := range uint64(4) {
		b := InaccurateBackend{Backend: TextBackend(want), Accuracy: 0.6, Seed: seed, Calibration: 1}
		lines := scoredLines(t, b, q)
		if len(lines) != len(wantLines) {
			t.Fatalf("%d lines, want %d", len(lines), len(wantLines))
		}
		wrong := 0
		for i, toks := range lines {
			sent, truth := spell(toks), wantLines[i]
			if want := Tokenize(sent); len(want) != len(toks) {
				t.Fatalf("line %q came in %d tokens, Tokenize gives %d", sent, len(toks), len(want))
			}
			at := doubted(toks)
			if sent == truth {
				if len(at) != 0 {
					t.Errorf("seed %d: true line %q doubted at %v", seed, sent, at)
				}
				continue
			}
			wrong++
			if len(at) != 1 {
				t.Fatalf("seed %d: wrong line %q (true %q) doubted at %v, want once", seed, sent, truth, at)
			}
			d := 0
			for d < len(sent) && d < len(truth) && sent[d] == truth[d] {
				d++
			}
			start := len(spell(toks[:at[0]]))
			tok := toks[at[0]]
			if d < len(sent) && (d < start || d >= start+len(tok.Token)) {
				t.Errorf("wrong line %q (true %q): doubt on %q at %d, first difference at %d", sent, truth, tok.Token, start, d)
			}
			trueTok := Tokenize(truth[start:])[0]
			if len(tok.Top) == 0 || tok.Top[0].Token != tok.Token ||
				(trueTok != tok.Token && (len(tok.Top) != 2 || tok.Top[1].Token != trueTok)) {
				t.Errorf("wrong line %q (true %q): doubt %+v, want the true token %q runner-up", sent, truth, tok, trueTok)
			}
		}
		if wrong < 60 {
			t.Fatalf("seed %d: only %d wrong lines", seed, wrong)
		}
	}

	// Calibration 0: the wrong lines look as sure as the true ones.
	b := InaccurateBackend{Backend: TextBackend(want), Accuracy: 0.6, Seed: 1}
	for _, toks := range scoredLines(t, b, q) {
		for _, tok := range toks {
			if tok.Logprob != math.Log(0.97) || len(tok.Top) != 1 || tok.Top[0].Token != tok.Token {
				t.Fatalf("calibration 0 scored %+v", tok)
			}
		}
	}

	// Whether a wrong line's doubt shows is a draw of its own.
	b.Calibration = 0.5
	shown, wrong := 0, 0
	for i, toks := range scoredLines(t, b, q) {
		if spell(toks) != wantLines[i] {
			wrong++
			shown += len(doubted(toks))
		}
	}
	if share := float64(shown) / float64(wrong); share < 0.3 || share > 0.7 {
		t.Errorf("calibration 0.5 showed %d of %d wrong lines", shown, wrong)
	}
}

func TestInaccurateScoredFalseDoubts(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "\tcount%d := total + value\n", i)
	}
	want := b.String()
	q := Query{Prefix: "func f() {\n"}
	ib := InaccurateBackend{Backend: TextBackend(want), Accuracy: 1, Seed: 5, FalseDoubts: 0.3}
	if got := generateAll(t, ib, q); got != want {
		t.Fatal("false doubts changed the text")
	}
	withDoubt := 0
	for _, toks := range scoredLines(t, ib, q) {
		line := spell(toks)
		at := doubted(toks)
		if len(at) == 0 {
			continue
		}
		if len(at) > 1 {
			t.Fatalf("line %q doubted at %v, want once at most", line, at)
		}
		withDoubt++
		tok, start := toks[at[0]], len(spell(toks[:at[0]]))
		// The doubt is on a word past the first, "total" or "value",
		// whose turned form, after the space, is the alternative.
		alt := map[int]string{strings.Index(line, " total"): " totals", strings.Index(line, " value"): " values"}
		a, ok := alt[start]
		if !ok || tok.Logprob != math.Log(0.45) || len(tok.Top) != 2 || tok.Top[0].Token != tok.Token ||
			tok.Top[1].Token != a || tok.Top[1].Logprob != math.Log(0.30) {
			t.Errorf("line %q: doubt %+v at %d", line, tok, start)
		}
	}
	if share := float64(withDoubt) / 1000; share < 0.2 || share > 0.4 {
		t.Errorf("%.0f%% of true lines doubted, want about 30%%", 100*share)
	}
}

func TestServerWrapsForDoubts(t *testing.T) {
	for _, c := range []struct {
		opts Options
		want *InaccurateBackend
	}{
		{Options{}, nil},
		{Options{Accuracy: 1, Calibration: 1}, nil},
		{Options{FalseDoubts: 0.2, Seed: 3}, &InaccurateBackend{Accuracy: 1, Seed: 3, FalseDoubts: 0.2}},
		{Options{Accuracy: 0.7, Calibration: 0.5}, &InaccurateBackend{Accuracy: 0.7, Calibration: 0.5}},
	} {
		s := New(c.opts)
		got, ok := s.backend.(InaccurateBackend)
		switch {
		case c.want == nil && ok:
			t.Errorf("%+v: wrapped in %+v", c.opts, got)
		case c.want != nil && !ok:
			t.Errorf("%+v: not wrapped", c.opts)
		case ok && (got.Accuracy != c.want.Accuracy || got.Seed != c.want.Seed ||
			got.Calibration != c.want.Calibration || got.FalseDoubts != c.want.FalseDoubts):
			t.Errorf("%+v: wrapped in %+v, want %+v", c.opts, got, *c.want)
		}
		s.Close()
	}
}

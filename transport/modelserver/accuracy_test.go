package modelserver

import (
	"context"
	"encoding/json"
	"fmt"
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

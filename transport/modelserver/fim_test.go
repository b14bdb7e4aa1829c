package modelserver

import (
	"bufio"
	"encoding/json"
	"testing"
)

func TestCodestralFIM(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	resp := post(t, base+"/v1/fim/completions", map[string]any{"model": "codestral-latest", "prompt": "if x {\n\t", "suffix": "}", "stream": true})
	if text, _, finish := streamedText(t, resp, deltaContent); text != "x := 1" || finish != "stop" {
		t.Fatalf("got %q finish %q", text, finish)
	}
}

func TestInfill(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	resp := post(t, base+"/infill", map[string]any{"input_prefix": "if x {\n", "prompt": "\t", "input_suffix": "}",
		"input_extra": []any{map[string]any{"filename": "b.go", "text": "package b"}}, "n_predict": 16, "stream": true})
	data, err := sseData(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var text string
	for i, d := range data {
		var f struct {
			Content string `json:"content"`
			Stop    bool   `json:"stop"`
		}
		if err := json.Unmarshal([]byte(d), &f); err != nil {
			t.Fatalf("frame %q: %v", d, err)
		}
		if f.Stop != (i == len(data)-1) {
			t.Fatalf("frame %d of %d has stop=%v", i, len(data), f.Stop)
		}
		text += f.Content
	}
	if text != "x := 1" {
		t.Fatalf("got %q", text)
	}
}

func TestOllamaStreamsByDefault(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	resp := post(t, base+"/api/generate", map[string]any{"model": "qwen2.5-coder", "prompt": "if x {\n\t", "suffix": "}"})
	if ct := resp.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		t.Fatalf("content type %q", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	var text string
	done := false
	for sc.Scan() {
		var f ollamaFrame
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if done {
			t.Fatalf("line after done: %q", sc.Text())
		}
		text += f.Response
		done = f.Done
	}
	if !done || text != "x := 1" {
		t.Fatalf("done=%v text %q", done, text)
	}
}

func TestOllamaWhole(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	resp := post(t, base+"/api/generate", map[string]any{"prompt": "if x {\n\t", "suffix": "}", "stream": false})
	var f ollamaFrame
	if err := json.NewDecoder(resp.Body).Decode(&f); err != nil {
		t.Fatal(err)
	}
	if !f.Done || f.Response != "x := 1" || f.EvalCount != len(Tokenize("x := 1")) {
		t.Fatalf("got %+v", f)
	}
}

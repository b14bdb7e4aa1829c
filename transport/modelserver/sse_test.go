package modelserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/transport"
)

// chatBody is a chat completions request for a completion of
// prefix|suffix.
func chatBody(prefix, suffix string, stream bool) map[string]any {
	sys, user := transport.RenderChat(transport.Request{Prefix: prefix, Suffix: suffix})
	return map[string]any{"model": "m", "stream": stream, "messages": []any{
		map[string]any{"role": "system", "content": sys},
		map[string]any{"role": "user", "content": user},
	}}
}

// streamedText joins the text of each data frame, read by pick, up to the
// end marker; it fails on a frame that is not JSON.
func streamedText(t *testing.T, resp *http.Response, pick func(frame) string) (text string, frames int, finish string) {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	data, err := sseData(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 || data[len(data)-1] != "[DONE]" {
		t.Fatalf("stream does not end with [DONE]: %q", data)
	}
	for _, d := range data[:len(data)-1] {
		var f frame
		if err := json.Unmarshal([]byte(d), &f); err != nil {
			t.Fatalf("frame %q: %v", d, err)
		}
		if r := f.Choices[0].FinishReason; r != nil {
			finish = *r
			continue
		}
		text += pick(f)
		frames++
	}
	return text, frames, finish
}

// frame is the union of the OpenAI streamed frames.
type frame struct {
	Choices []struct {
		Delta struct {
			Content string `json:"content"`
		} `json:"delta"`
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
		Text         string  `json:"text"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
}

func deltaContent(f frame) string { return f.Choices[0].Delta.Content }
func choiceText(f frame) string   { return f.Choices[0].Text }

func TestChatStream(t *testing.T) {
	s, base := start(t, Options{Script: script()})
	resp := post(t, base+"/v1/chat/completions", chatBody("func add(a, b int) int {", "\n", true))
	text, frames, finish := streamedText(t, resp, deltaContent)
	if text != "\n\treturn a + b\n}" || finish != "stop" {
		t.Fatalf("got %q finish %q", text, finish)
	}
	if frames != len(Tokenize(text)) || s.Stats().Tokens != int64(frames) {
		t.Errorf("%d frames, %d tokens counted, want %d", frames, s.Stats().Tokens, len(Tokenize(text)))
	}
}

func TestChatWhole(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	resp := post(t, base+"/v1/chat/completions", chatBody("func add(a, b int) int {", "", false))
	var f frame
	if err := json.NewDecoder(resp.Body).Decode(&f); err != nil {
		t.Fatal(err)
	}
	if f.Choices[0].Message.Content != "\n\treturn a + b\n}" || *f.Choices[0].FinishReason != "stop" {
		t.Fatalf("got %+v", f)
	}
}

func TestChatEditInstruction(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	sys, user := transport.RenderChat(transport.Request{Prefix: "func add(a, b int) int { return a + b }", Instruction: "rename to sum"})
	resp := post(t, base+"/v1/chat/completions", map[string]any{"messages": []any{
		map[string]any{"role": "system", "content": sys},
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": user}}},
	}})
	var f frame
	if err := json.NewDecoder(resp.Body).Decode(&f); err != nil {
		t.Fatal(err)
	}
	if got := f.Choices[0].Message.Content; got != "func sum(a, b int) int { return a + b }" {
		t.Fatalf("got %q", got)
	}
}

func TestCompletionsWithSuffix(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	for _, path := range []string{"/v1/completions", "/beta/completions"} {
		resp := post(t, base+path, map[string]any{"prompt": "if x {\n\t", "suffix": "}\n", "stream": true})
		if text, _, _ := streamedText(t, resp, choiceText); text != "x := 1" {
			t.Errorf("%s: got %q", path, text)
		}
	}
}

func TestCompletionsParseRawFIMPrompt(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	prompt, err := transport.RenderFIM(transport.FIMQwen, transport.Request{Prefix: "func add(a, b int) int {", Suffix: "\n"})
	if err != nil {
		t.Fatal(err)
	}
	resp := post(t, base+"/v1/completions", map[string]any{"prompt": prompt, "stream": true})
	if text, _, _ := streamedText(t, resp, choiceText); text != "\n\treturn a + b\n}" {
		t.Fatalf("got %q", text)
	}
}

func TestUnmatchedWithoutFallbackIsAnError(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	resp := post(t, base+"/v1/completions", map[string]any{"prompt": "nothing matches", "stream": true})
	if resp.StatusCode != http.StatusInternalServerError {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

func TestBadBodyIs400(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	resp, err := http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader("{"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

func TestFallbackModel(t *testing.T) {
	m := &fakeModel{reply: "return nil"}
	_, base := start(t, Options{Script: script(), Model: m})
	resp := post(t, base+"/v1/chat/completions", chatBody("func f() error {\n\t", "\n}", true))
	if text, _, _ := streamedText(t, resp, deltaContent); text != "return nil" {
		t.Fatalf("got %q", text)
	}
	if len(m.got) != 1 || m.got[0].Prefix != "func f() error {\n\t" || m.got[0].Suffix != "\n}" {
		t.Fatalf("model asked %+v", m.got)
	}
}

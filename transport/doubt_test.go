package transport

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestWSDoubtsFromLogprobs: a request that asks for doubts sends the
// logprobs include, and hears each token the model gave less than
// DoubtBelow, at its offset in the text, with its alternatives, before
// the delta that holds it; one that does not ask sends no include.
func TestWSDoubtsFromLogprobs(t *testing.T) {
	frames := make(chan wsClientMsg, 2)
	ts := newTestWSServer(t, func(s *wsSession, _ int) {
		for {
			m, ok := s.next()
			if !ok {
				return
			}
			frames <- m
			s.created(m.StreamID)
			first := deltaEvent(m.StreamID, "x := ").(map[string]any)
			first["logprobs"] = []any{
				map[string]any{"token": "x", "logprob": -0.01, "top_logprobs": []any{}},
				map[string]any{"token": " :=", "logprob": -0.02},
				map[string]any{"token": " ", "logprob": -0.9, "top_logprobs": []any{
					map[string]any{"token": " ", "logprob": -0.9}, map[string]any{"token": "\t", "logprob": -1.2}}},
			}
			s.send(first)
			second := deltaEvent(m.StreamID, "true").(map[string]any)
			second["logprobs"] = []any{map[string]any{"token": "true", "logprob": -1.1, "top_logprobs": []any{
				map[string]any{"token": "true", "logprob": -1.1}, map[string]any{"token": "false", "logprob": -1.3}}}}
			s.send(second)
			s.completed(m.StreamID, "x := true", 4)
		}
	})
	m := newTestWS(t, ts)

	var mu sync.Mutex
	var heard []Doubt
	var text strings.Builder
	req := Request{Prefix: "p", DoubtBelow: 0.5, OnDoubt: func(d Doubt) {
		mu.Lock()
		defer mu.Unlock()
		if text.Len() > d.At {
			t.Errorf("doubt at %d heard after its delta (text %q)", d.At, text.String())
		}
		heard = append(heard, d)
	}}
	if _, err := m.Generate(context.Background(), req, func(s string) { mu.Lock(); text.WriteString(s); mu.Unlock() }); err != nil {
		t.Fatal(err)
	}
	if f := recv(t, frames); !reflect.DeepEqual(f.Body["include"], []any{"message.output_text.logprobs"}) || f.Body["top_logprobs"] != float64(doubtAlternatives) {
		t.Errorf("response.create asks %v, top %v; want the logprobs include", f.Body["include"], f.Body["top_logprobs"])
	}
	mu.Lock()
	for i := range heard {
		heard[i].Prob = float64(int(heard[i].Prob*100)) / 100
	}
	want := []Doubt{{At: 4, Token: " ", Prob: 0.40, Alternatives: []string{"\t"}},
		{At: 5, Token: "true", Prob: 0.33, Alternatives: []string{"false"}}}
	if !reflect.DeepEqual(heard, want) {
		t.Errorf("doubts %+v, want %+v", heard, want)
	}
	mu.Unlock()

	if _, err := m.Generate(context.Background(), Request{Prefix: "q"}, nil); err != nil {
		t.Fatal(err)
	}
	if f := recv(t, frames); f.Body["include"] != nil || f.Body["top_logprobs"] != nil {
		t.Errorf("a request without doubts asks %v, %v", f.Body["include"], f.Body["top_logprobs"])
	}
}

// TestSSEChatDoubtsFromLogprobs: a chat request that asks for doubts sends
// logprobs and top_logprobs, and hears the doubted tokens of the chunks'
// logprobs.content at their offsets.
func TestSSEChatDoubtsFromLogprobs(t *testing.T) {
	ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, `{"choices":[{"index":0,"delta":{"content":"x := "},"logprobs":{"content":[`+
			`{"token":"x","logprob":-0.01,"top_logprobs":[]},{"token":" := ","logprob":-0.02,"top_logprobs":[]}]}}]}`,
			`{"choices":[{"index":0,"delta":{"content":"true"},"logprobs":{"content":[`+
				`{"token":"true","logprob":-1.1,"top_logprobs":[{"token":"true","logprob":-1.1},{"token":"false","logprob":-1.3}]}]}}]}`,
			"[DONE]")
	})
	m := newTestSSE(t, ts, SSEConfig{Model: "m1"})
	var heard []Doubt
	req := Request{Prefix: "p", DoubtBelow: 0.5, OnDoubt: func(d Doubt) { heard = append(heard, d) }}
	if _, err := m.Generate(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	if r := recv(t, ts.requests); r.Body["logprobs"] != true || r.Body["top_logprobs"] != float64(doubtAlternatives) {
		t.Errorf("request asks logprobs %v, top %v", r.Body["logprobs"], r.Body["top_logprobs"])
	}
	if len(heard) != 1 || heard[0].At != 5 || heard[0].Token != "true" || !reflect.DeepEqual(heard[0].Alternatives, []string{"false"}) {
		t.Errorf("doubts %+v, want \"true\" at 5 with \"false\" the runner-up", heard)
	}
	if _, err := m.Generate(context.Background(), Request{Prefix: "q"}, nil); err != nil {
		t.Fatal(err)
	}
	if r := recv(t, ts.requests); r.Body["logprobs"] != nil || r.Body["top_logprobs"] != nil {
		t.Errorf("a request without doubts asks logprobs %v, top %v", r.Body["logprobs"], r.Body["top_logprobs"])
	}
}

// TestWSLogprobsRefused: an endpoint that refuses logprobs (as reasoning
// models do) gets the request again without them, and no later request
// asks.
func TestWSLogprobsRefused(t *testing.T) {
	frames := make(chan wsClientMsg, 8)
	ts := newTestWSServer(t, func(s *wsSession, _ int) {
		for {
			m, ok := s.next()
			if !ok {
				return
			}
			frames <- m
			if m.Body["include"] != nil {
				s.send(map[string]any{"type": "error", "stream_id": m.StreamID, "status": 400, "error": map[string]any{
					"type": "invalid_request_error", "code": "unsupported_parameter",
					"message": "Unsupported parameter: 'top_logprobs' is not supported with this model."}})
				continue
			}
			s.created(m.StreamID)
			s.delta(m.StreamID, "ok")
			s.completed(m.StreamID, "ok", 1)
		}
	})
	m := newTestWS(t, ts)
	asking := Request{Prefix: "p", DoubtBelow: 0.5, OnDoubt: func(Doubt) {}}
	for i := range 2 {
		if res, err := m.Generate(context.Background(), asking, nil); err != nil || res.Text != "ok" {
			t.Fatalf("request %d: %+v, %v; want the answer without logprobs", i, res, err)
		}
	}
	var asked []bool
	for range 3 {
		asked = append(asked, recv(t, frames).Body["include"] != nil)
	}
	if !reflect.DeepEqual(asked, []bool{true, false, false}) {
		t.Errorf("logprobs asked %v, want only by the first create", asked)
	}
}

// TestFIMDoubtsFromLogprobs: each fim dialect that can score tokens asks
// for them in its own words and hears the doubted token at its offset,
// with the likeliest other token the runner-up; the others ask nothing.
func TestFIMDoubtsFromLogprobs(t *testing.T) {
	legacy := func(text string, tokens, lps, tops string) string {
		return `{"choices":[{"index":0,"text":` + strconv.Quote(text) + `,"logprobs":{"tokens":` + tokens +
			`,"token_logprobs":` + lps + `,"top_logprobs":` + tops + `,"text_offset":[0]}}]}`
	}
	textReply := func(w http.ResponseWriter) {
		sse(w, legacy("x := ", `["x"," := "]`, `[-0.01,null]`, `[{"x":-0.01},{" := ":-0.02}]`),
			legacy("true", `["true"]`, `[-1.1]`, `[{"nil":-2.5,"true":-1.1,"false":-1.3}]`), "[DONE]")
	}
	llamaReply := func(w http.ResponseWriter) {
		sse(w, `{"content":"x := ","stop":false,"completion_probabilities":[`+
			`{"id":1,"token":"x","bytes":[120],"logprob":-0.01,"top_logprobs":[]},{"id":2,"token":" := ","logprob":-0.02,"top_logprobs":[]}]}`,
			`{"content":"true","stop":false,"completion_probabilities":[{"id":3,"token":"true","logprob":-1.1,"top_logprobs":[`+
				`{"id":3,"token":"true","logprob":-1.1},{"id":4,"token":"false","logprob":-1.3},{"id":5,"token":"nil","logprob":-2.5}]}]}`,
			`{"content":"","stop":true,"stop_type":"eos"}`)
	}
	for _, tc := range []struct {
		name, route, template, field string
		reply                        func(w http.ResponseWriter)
		scored                       bool
	}{
		{"llama.cpp infill", "/infill", "", "n_probs", llamaReply, true},
		{"llama.cpp completion", "/completion", "qwen", "n_probs", llamaReply, true},
		{"text completions", "/v1/completions", "", "logprobs", textReply, true},
		{"deepseek", "/beta/completions", "", "logprobs", textReply, true},
		{"codestral", "/v1/fim/completions", "", "logprobs", func(w http.ResponseWriter) {
			sse(w, chatChunk("x := true"), "[DONE]")
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) { tc.reply(w) })
			m := newTestFIM(t, ts, tc.route, tc.template)
			var heard []Doubt
			req := fimReq
			req.DoubtBelow, req.OnDoubt = 0.5, func(d Doubt) { heard = append(heard, d) }
			res, err := m.Generate(context.Background(), req, nil)
			if err != nil || res.Text != "x := true" {
				t.Fatalf("%+v, %v", res, err)
			}
			asked := recv(t, ts.requests).Body[tc.field]
			if !tc.scored {
				if asked != nil || len(heard) != 0 {
					t.Errorf("asked %s %v, heard %+v; want neither", tc.field, asked, heard)
				}
				return
			}
			if asked != float64(doubtAlternatives) {
				t.Errorf("request asks %s %v, want %d", tc.field, asked, doubtAlternatives)
			}
			if len(heard) != 1 || heard[0].At != 5 || heard[0].Token != "true" ||
				!reflect.DeepEqual(heard[0].Alternatives, []string{"false", "nil"}) {
				t.Errorf("doubts %+v, want \"true\" at 5, then \"false\" and \"nil\"", heard)
			}
			if _, err := m.Generate(context.Background(), fimReq, nil); err != nil {
				t.Fatal(err)
			}
			if asked := recv(t, ts.requests).Body[tc.field]; asked != nil {
				t.Errorf("a request without doubts asks %s %v", tc.field, asked)
			}
		})
	}
}

// TestFIMLogprobsRefused: a completions endpoint that refuses logprobs
// (its first answer) gets the request again without them, and no later
// request asks.
func TestFIMLogprobsRefused(t *testing.T) {
	var n atomic.Int32
	ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":{"type":"invalid_request_error","message":"logprobs is not supported with this model"}}`)
			return
		}
		sse(w, textChunk("ok"), "[DONE]")
	})
	m := newTestFIM(t, ts, "/v1/completions", "")
	asking := fimReq
	asking.DoubtBelow, asking.OnDoubt = 0.5, func(Doubt) {}
	for i := range 2 {
		if res, err := m.Generate(context.Background(), asking, nil); err != nil || res.Text != "ok" {
			t.Fatalf("request %d: %+v, %v; want the answer without logprobs", i, res, err)
		}
	}
	var asked []bool
	for range 3 {
		asked = append(asked, recv(t, ts.requests).Body["logprobs"] != nil)
	}
	if !reflect.DeepEqual(asked, []bool{true, false, false}) {
		t.Errorf("logprobs asked %v, want only by the first request", asked)
	}
}

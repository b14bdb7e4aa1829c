package transport

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func newTestFIM(t *testing.T, ts *testHTTPServer, route, template string) *FIMModel {
	t.Helper()
	m, err := NewFIM(FIMConfig{Endpoint: ts.srv.URL + route, Model: "coder", Template: template, MaxTokens: 40})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

var fimReq = Request{Prefix: "func add(a, b int) int {\n\treturn ", Suffix: "\n}\n", Path: "add.go",
	Context: []Snippet{{Path: "util.go", Text: "package util"}}}

func TestFIMDialects(t *testing.T) {
	for _, tc := range []struct {
		name, route, template string
		reply                 func(w http.ResponseWriter)
		check                 func(t *testing.T, body map[string]any)
	}{
		{"codestral", "/v1/fim/completions", "", func(w http.ResponseWriter) {
			sse(w, chatChunk("a + "), chatChunk("b"), "[DONE]")
		}, func(t *testing.T, b map[string]any) {
			if b["prompt"] != fimReq.Prefix || b["suffix"] != fimReq.Suffix || b["stream"] != true || b["max_tokens"] != 40.0 || b["model"] != "coder" {
				t.Errorf("body %v", b)
			}
		}},
		{"deepseek", "/beta/completions", "", func(w http.ResponseWriter) {
			sse(w, textChunk("a + "), textChunk("b"), "[DONE]")
		}, func(t *testing.T, b map[string]any) {
			if b["prompt"] != fimReq.Prefix || b["suffix"] != fimReq.Suffix || b["stream"] != true {
				t.Errorf("body %v", b)
			}
		}},
		{"llama.cpp infill", "/infill", "", func(w http.ResponseWriter) {
			sse(w, `{"content":"a + ","stop":false}`, `{"content":"b","stop":false}`,
				`{"content":"","stop":true,"stop_type":"eos","tokens_predicted":2}`)
		}, func(t *testing.T, b map[string]any) {
			extra := fmt.Sprint(b["input_extra"])
			if b["input_prefix"] != fimReq.Prefix || b["input_suffix"] != fimReq.Suffix || b["cache_prompt"] != true ||
				b["n_predict"] != 40.0 || b["t_max_predict_ms"] != 1000.0 || b["stream"] != true ||
				extra != "[map[filename:util.go text:package util]]" {
				t.Errorf("body %v", b)
			}
		}},
		{"ollama", "/api/generate", "", func(w http.ResponseWriter) {
			fmt.Fprintln(w, `{"model":"coder","response":"a + ","done":false}`)
			w.(http.Flusher).Flush()
			fmt.Fprintln(w, `{"model":"coder","response":"b","done":false}`)
			fmt.Fprintln(w, `{"model":"coder","response":"","done":true,"done_reason":"stop","eval_count":2}`)
		}, func(t *testing.T, b map[string]any) {
			opts, _ := b["options"].(map[string]any)
			if b["prompt"] != fimReq.Prefix || b["suffix"] != fimReq.Suffix || b["stream"] != true || b["raw"] != nil || opts["num_predict"] != 40.0 {
				t.Errorf("body %v", b)
			}
		}},
		{"ollama raw qwen", "/api/generate", "qwen", func(w http.ResponseWriter) {
			fmt.Fprintln(w, `{"response":"a + b","done":false}`)
			fmt.Fprintln(w, `{"response":"","done":true}`)
		}, func(t *testing.T, b map[string]any) {
			want, _ := RenderFIM("qwen", fimReq)
			if b["prompt"] != want || b["raw"] != true || b["suffix"] != nil {
				t.Errorf("body %v", b)
			}
		}},
		{"llama.cpp raw completion", "/completion", "deepseek", func(w http.ResponseWriter) {
			sse(w, `{"content":"a + b","stop":false}`, `{"content":"","stop":true}`)
		}, func(t *testing.T, b map[string]any) {
			want, _ := RenderFIM("deepseek", fimReq)
			if b["prompt"] != want || b["input_prefix"] != nil {
				t.Errorf("body %v", b)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) { tc.reply(w) })
			m := newTestFIM(t, ts, tc.route, tc.template)
			res, err := m.Generate(context.Background(), fimReq, nil)
			if err != nil || res.Text != "a + b" || res.FinishReason != "stop" {
				t.Fatalf("%+v, %v", res, err)
			}
			r := recv(t, ts.requests)
			if r.Path != tc.route {
				t.Errorf("path %s", r.Path)
			}
			tc.check(t, r.Body)
		})
	}
}

func TestFIMStreamEndingEarlyIsUnavailable(t *testing.T) {
	ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, `{"content":"a","stop":false}`)
	})
	m := newTestFIM(t, ts, "/infill", "")
	res, err := m.Generate(context.Background(), fimReq, nil)
	if KindOf(err) != KindUnavailable || res.Text != "a" {
		t.Errorf("%+v, %v", res, err)
	}
}

func TestFIMOllamaError(t *testing.T) {
	ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":"model \"coder\" not found, try pulling it first"}`)
	})
	m := newTestFIM(t, ts, "/api/generate", "")
	_, err := m.Generate(context.Background(), fimReq, nil)
	if KindOf(err) != KindBadRequest || !strings.Contains(err.Error(), "try pulling it first") {
		t.Errorf("err = %v", err)
	}
}

func TestFIMRoutes(t *testing.T) {
	for _, tc := range []struct{ endpoint, template, want string }{
		{"http://127.0.0.1:1/v1/other", "", "unknown route"},
		{"http://127.0.0.1:1/completion", "", "set model.fimTemplate"},
		{"http://127.0.0.1:1/api/generate", "gpt", "unknown FIM template"},
	} {
		if _, err := NewFIM(FIMConfig{Endpoint: tc.endpoint, Template: tc.template}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: err = %v, want %q", tc.endpoint, tc.template, err, tc.want)
		}
	}
}

func TestFIMLlamaLimitIsLength(t *testing.T) {
	for _, last := range []string{`{"content":"","stop":true,"stop_type":"limit"}`, `{"content":"","stop":true,"stopped_limit":true}`} {
		ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) { sse(w, `{"content":"a","stop":false}`, last) })
		m := newTestFIM(t, ts, "/infill", "")
		res, err := m.Generate(context.Background(), fimReq, nil)
		if err != nil || res.Text != "a" || res.FinishReason != "length" {
			t.Errorf("%s: %+v, %v", last, res, err)
		}
	}
}

// A llama.cpp warm-up sends the body Generate sends for the same request,
// so the cache it fills is the one the request hits, with n_predict 0 so
// nothing is generated. The whole bodies are compared: any field the
// warm-up drops or changes besides n_predict fails.
func TestFIMWarmPromptSendsGeneratesPrompt(t *testing.T) {
	req := fimReq
	req.Stop, req.Temperature = []string{"\n\n"}, 0.2 // every optional field on the wire
	for _, tc := range []struct{ route, template string }{{"/infill", ""}, {"/completion", "deepseek"}} {
		t.Run(tc.route, func(t *testing.T) {
			ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
				sse(w, `{"content":"","stop":true}`)
			})
			m := newTestFIM(t, ts, tc.route, tc.template)
			if err := m.WarmPrompt(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			warm := recv(t, ts.requests).Body
			if _, err := m.Generate(context.Background(), req, nil); err != nil {
				t.Fatal(err)
			}
			gen := recv(t, ts.requests).Body
			if n, ok := warm["n_predict"]; !ok || n != 0.0 {
				t.Errorf("warm-up body %v: want n_predict 0", warm)
			}
			sameBodyBut(t, warm, gen, "n_predict")
		})
	}
}

// sameBodyBut fails unless a warm-up's body and Generate's are equal once
// the fields a warm-up changes on purpose are left out of both.
func sameBodyBut(t *testing.T, warm, gen map[string]any, changed ...string) {
	t.Helper()
	warm, gen = maps.Clone(warm), maps.Clone(gen)
	for _, k := range changed {
		delete(warm, k)
		delete(gen, k)
	}
	if len(warm) == 0 || !reflect.DeepEqual(warm, gen) {
		t.Errorf("warm-up body %v\nGenerate's   %v\n(leaving out %q)", warm, gen, changed)
	}
}

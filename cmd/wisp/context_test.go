package main

import (
	"encoding/json"
	"net"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// contextSrc is a file large enough that the context is a window with
// extra pieces (imports, signatures), so the whole request is exercised.
var contextSrc = "package p\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n" +
	"// Join joins names.\nfunc Join(names []string) string {\n\treturn strings.Join(names, \", \")\n}\n\n" +
	strings.Repeat("// Pad keeps the file long.\nfunc Pad() {\n\tfmt.Println(\"padding the file out past the budget\")\n}\n\n", 60) +
	"func Greet(names []string) {\n\tall := Join(names)\n\tfmt.Println(all)\n\tcount := \n\tif len(names) > 1 {\n\t\t\n\t}\n}\n\n" +
	strings.Repeat("func Tail() { fmt.Println(\"more code after the cursor\") }\n", 40)

// TestContextIsWhatTheModelReceives proves there is one request builder:
// for each provider and wire, the body the loopback model server receives
// when `wisp complete` asks at a cursor equals the wire `wisp context
// --json` printed for the same cursor and configuration.
func TestContextIsWhatTheModelReceives(t *testing.T) {
	var mu sync.Mutex
	var got [][]byte
	ms := modelserver.New(modelserver.Options{
		Script: &modelserver.Script{Replies: []modelserver.Reply{{Text: "fmt.Println(names)"}}},
		Received: func(body []byte) {
			mu.Lock()
			got = append(got, append([]byte(nil), body...))
			mu.Unlock()
		},
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go ms.Serve(l)
	t.Cleanup(ms.Close)
	addr := l.Addr().String()
	p := writeFile(t, t.TempDir(), "greet.go", contextSrc, 0o644)
	// Two cursors: in an empty block (a block plan), and at the end of a
	// line the user is writing (a one-line plan, where look-ahead lifts
	// the line-break stop).
	block := strings.Count(contextSrc[:strings.Index(contextSrc, "\t\t\n\t}\n}")], "\n") + 1
	lineEnd := strings.Count(contextSrc[:strings.Index(contextSrc, "\tcount := \n")], "\n") + 1
	for _, cursor := range []string{p + ":" + itoa(block) + ":3", p + ":" + itoa(lineEnd) + ":11"} {
		contextMatchesReceived(t, cursor, addr, &mu, &got)
	}
}

// contextMatchesReceived checks, for every provider and wire, that what
// `wisp context` prints for cursor is what the model server receives
// from `wisp complete` at it.
func contextMatchesReceived(t *testing.T, cursor, addr string, mu *sync.Mutex, got *[][]byte) {
	for _, c := range []struct{ name, provider, endpoint, template string }{
		{"openai-ws", "openai-ws", "ws://" + addr + "/v1/responses", ""},
		{"openai chat", "openai", "http://" + addr + "/v1", ""},
		{"openai completions", "openai", "http://" + addr + "/v1/completions", ""},
		{"fim codestral", "fim", "http://" + addr + "/v1/fim/completions", ""},
		{"fim qwen template", "fim", "http://" + addr + "/v1/completions", "qwen"},
		{"fim infill", "fim", "http://" + addr + "/infill", ""},
		{"fim ollama", "fim", "http://" + addr + "/api/generate", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := []string{"WISP_PROVIDER=" + c.provider, "WISP_ENDPOINT=" + c.endpoint, "WISP_MODEL=test",
				"WISP_FIM_TEMPLATE=" + c.template, "OPENAI_API_KEY=test-key",
				"XDG_CONFIG_HOME=" + t.TempDir(), "HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
			out, errOut, code := run(t, env, "", "context", cursor, "--json")
			if code != 0 {
				t.Fatalf("context: exit %d: %s", code, errOut)
			}
			var printed struct {
				Provider string          `json:"provider"`
				Wire     json.RawMessage `json:"wire"`
				Context  struct {
					Tokens, Budget int
				} `json:"context"`
				Request struct {
					Language  string   `json:"language"`
					Stop      []string `json:"stop"`
					MaxTokens int      `json:"maxTokens"`
				} `json:"request"`
			}
			if err := json.Unmarshal([]byte(out), &printed); err != nil {
				t.Fatalf("context output: %v\n%s", err, out)
			}
			if printed.Provider != c.provider || printed.Request.Language != "go" || printed.Request.MaxTokens == 0 {
				t.Errorf("context printed provider %q, request %+v", printed.Provider, printed.Request)
			}
			mu.Lock()
			*got = nil
			mu.Unlock()
			if _, errOut, code := run(t, env, "", "complete", cursor); code != 0 {
				t.Fatalf("complete: exit %d: %s", code, errOut)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(*got) != 1 {
				t.Fatalf("the model server received %d requests, want 1", len(*got))
			}
			want, received := decode(t, printed.Wire), decode(t, (*got)[0])
			if !reflect.DeepEqual(want, received) {
				t.Errorf("%s: wisp context printed\n%s\nthe model received\n%s", cursor, printed.Wire, (*got)[0])
			}
		})
	}
}

// decode reads a wire body, leaving out the WebSocket stream_id, which
// each attempt numbers anew.
func decode(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	delete(m, "stream_id")
	return m
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// A 10 KB Go line and a 14 KB minified JavaScript line: wisp complete
// answers and wisp context shows a window of the line's own bytes, at
// the cursor in the middle of the line.
func TestLongLinesComplete(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{Text: "\"epsilon\", "})
	dir := t.TempDir()
	goLine := "var words = []string{" + strings.Repeat("\"alpha\", \"beta\", ", 600) + "}"
	jsLine := "var app=function(){" + strings.Repeat("function a(t,e){return t*e+1};", 460) + "}();"
	for _, c := range []struct{ name, src string }{
		{"long.go", "package main\n" + goLine + "\n\nfunc main() {}\n"},
		{"app.min.js", jsLine + "\n"},
	} {
		p := writeFile(t, dir, c.name, c.src, 0o644)
		line := 2
		if c.name == "app.min.js" {
			line = 1
		}
		cursor := p + ":" + itoa(line) + ":5000"
		if out, errOut, code := run(t, env, "", "complete", cursor); code != 0 || out == "" {
			t.Errorf("%s: complete exit %d, stdout %q, stderr %s", c.name, code, out, errOut)
		}
		out, errOut, code := run(t, env, "", "context", cursor, "--json")
		if code != 0 {
			t.Fatalf("%s: context exit %d: %s", c.name, code, errOut)
		}
		var res struct {
			Request struct{ Prefix, Suffix string } `json:"request"`
			Context struct{ Tokens, Budget int }    `json:"context"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(res.Request.Prefix, "\n") || strings.Contains(res.Request.Suffix, "\n") ||
			len(res.Request.Prefix) < 1000 || len(res.Request.Suffix) < 100 || res.Context.Tokens*100 < res.Context.Budget*95 {
			t.Errorf("%s: prefix %d bytes, suffix %d bytes, %d of %d tokens: want a window of the line's own bytes using the budget",
				c.name, len(res.Request.Prefix), len(res.Request.Suffix), res.Context.Tokens, res.Context.Budget)
		}
	}
}

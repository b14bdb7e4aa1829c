package transport

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/transport/transporttest"
)

func newTestSSE(t *testing.T, ts *testHTTPServer, cfg SSEConfig) *SSEModel {
	t.Helper()
	cfg.Endpoint = ts.srv.URL + "/v1" + cfg.Endpoint
	if cfg.APIKey == "" {
		cfg.APIKey, cfg.APIKeyEnv = testKey, "TEST_KEY"
	}
	m, err := NewSSE(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func TestSSEChat(t *testing.T) {
	ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, chatChunk("fmt."), chatChunk("Println"), chatChunk("()"),
			`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"completion_tokens":3}}`, "[DONE]")
	})
	m := newTestSSE(t, ts, SSEConfig{Model: "m1", MaxTokens: 50})
	onDelta, got := collect()
	req := Request{Prefix: "x", Suffix: "y", Stop: []string{"\n\n"}}
	res, err := m.Generate(context.Background(), req, onDelta)
	if err != nil || res.Text != "fmt.Println()" || res.FinishReason != "stop" || res.OutputTokens != 3 {
		t.Fatalf("%+v, %v", res, err)
	}
	if d := strings.Join(got(), "|"); d != "fmt.|Println|()" {
		t.Errorf("deltas %q", d)
	}
	r := recv(t, ts.requests)
	instr, input := RenderChat(req)
	msgs, _ := r.Body["messages"].([]any)
	if r.Path != "/v1/chat/completions" || r.Body["stream"] != true || r.Body["max_tokens"] != 50.0 ||
		r.Body["model"] != "m1" || len(msgs) != 2 || fmt.Sprint(r.Body["stop"]) != "[\n\n]" {
		t.Errorf("request %s %v", r.Path, r.Body)
	}
	if len(msgs) == 2 {
		sys, user := msgs[0].(map[string]any), msgs[1].(map[string]any)
		if sys["role"] != "system" || sys["content"] != instr || user["role"] != "user" || user["content"] != input {
			t.Errorf("messages %v", msgs)
		}
	}
	if r.Header.Get("Authorization") != "Bearer "+testKey {
		t.Errorf("Authorization %q", r.Header.Get("Authorization"))
	}
}

func TestSSECompletionsWithSuffix(t *testing.T) {
	ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, textChunk("a"), textChunk("b"), `{"choices":[{"text":"","finish_reason":"length"}]}`, "[DONE]")
	})
	m := newTestSSE(t, ts, SSEConfig{Completions: true})
	res, err := m.Generate(context.Background(), Request{Prefix: "pre", Suffix: "suf"}, nil)
	if err != nil || res.Text != "ab" || res.FinishReason != "length" {
		t.Fatalf("%+v, %v", res, err)
	}
	r := recv(t, ts.requests)
	if r.Path != "/v1/completions" || r.Body["prompt"] != "pre" || r.Body["suffix"] != "suf" || r.Body["stream"] != true {
		t.Errorf("request %s %v", r.Path, r.Body)
	}
}

func TestSSEStatusErrors(t *testing.T) {
	for _, tc := range []struct {
		status int
		header string
		kind   ErrorKind
		want   string
		retry  time.Duration
	}{
		{401, "", KindAuth, "rejected the API key in $TEST_KEY (401)", 0},
		{403, "", KindAuth, "(403)", 0},
		{429, "3", KindRateLimited, "retry after 3s", 3 * time.Second},
		{400, "", KindBadRequest, "refused the request (400)", 0},
		{503, "", KindUnavailable, "(503)", 0},
	} {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
				if tc.header != "" {
					w.Header().Set("Retry-After", tc.header)
				}
				w.WriteHeader(tc.status)
				fmt.Fprintf(w, `{"error":{"message":"no good: %s","code":"x"}}`, testKey)
			})
			m := newTestSSE(t, ts, SSEConfig{})
			_, err := m.Generate(context.Background(), Request{}, nil)
			var e *Error
			if !asError(err, &e) || e.Kind != tc.kind || e.RetryAfter != tc.retry || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v (%+v), want kind %v containing %q", err, e, tc.kind, tc.want)
			}
			if strings.Contains(err.Error(), testKey) {
				t.Errorf("key leaked: %q", err)
			}
		})
	}
}

func TestSSEDialErrorIsUnavailable(t *testing.T) {
	ts := newTestHTTPServer(t, func(http.ResponseWriter, *http.Request) {})
	m := newTestSSE(t, ts, SSEConfig{})
	ts.srv.Close()
	_, err := m.Generate(context.Background(), Request{}, nil)
	if KindOf(err) != KindUnavailable {
		t.Errorf("err = %v, want unavailable", err)
	}
}

func TestSSECancelClosesStream(t *testing.T) {
	gone := make(chan struct{})
	ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, chatChunk("one"))
		closedBy(r, gone) // the client closed the stream
	})
	m := newTestSSE(t, ts, SSEConfig{})
	ctx, cancel := context.WithCancel(context.Background())
	_, err := m.Generate(ctx, Request{}, func(string) { cancel() })
	if !IsCancelled(err) {
		t.Fatalf("err = %v, want cancelled", err)
	}
	recv(t, gone)
}

func TestSSEStopClosesStream(t *testing.T) {
	gone := make(chan struct{})
	ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, chatChunk("ab\n"), chatChunk("\ncd"))
		closedBy(r, gone)
	})
	m := newTestSSE(t, ts, SSEConfig{})
	res, err := m.Generate(context.Background(), Request{Stop: []string{"\n\n"}}, nil)
	if err != nil || res.Text != "ab" || res.FinishReason != "stop" {
		t.Fatalf("%+v, %v", res, err)
	}
	recv(t, gone)
}

func TestSSEStreamErrorEvent(t *testing.T) {
	ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, chatChunk("a"), `{"error":{"message":"overloaded","code":"server_error"}}`)
	})
	m := newTestSSE(t, ts, SSEConfig{})
	_, err := m.Generate(context.Background(), Request{}, nil)
	if KindOf(err) != KindUnavailable || !strings.Contains(err.Error(), "overloaded") {
		t.Errorf("err = %v", err)
	}
}

func TestSSEKeepAliveReusesConnection(t *testing.T) {
	for _, tc := range []struct {
		newConn bool
		want    int32
	}{{false, 1}, {true, 4}} {
		ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodHead {
				return
			}
			sse(w, chatChunk("x"), "[DONE]")
			// End the chunked body a moment after [DONE]: a client that
			// closes the body without reading it to the end loses the
			// connection instead of returning it to the pool. No event
			// exists: the server cannot see when the client has read
			// [DONE]. The pause can only let a wrong client pass on a
			// slow machine, never fail a right one.
			time.Sleep(20 * time.Millisecond)
		})
		m := newTestSSE(t, ts, SSEConfig{NewConnPerRequest: tc.newConn})
		if err := m.Warm(context.Background()); err != nil {
			t.Fatal(err)
		}
		if n := ts.newConns.Load(); n != 1 {
			t.Errorf("Warm opened %d connections, want 1", n)
		}
		for range 3 {
			if _, err := m.Generate(context.Background(), Request{}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if n := ts.newConns.Load(); n != tc.want {
			t.Errorf("newConnPerRequest=%v: %d connections for warm + 3 requests, want %d", tc.newConn, n, tc.want)
		}
	}
}

func TestSSERefusesRedirectToOtherHost(t *testing.T) {
	other := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) { sse(w, "[DONE]") })
	ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, strings.Replace(other.srv.URL, "127.0.0.1", "localhost", 1)+r.URL.Path, http.StatusTemporaryRedirect)
	})
	m := newTestSSE(t, ts, SSEConfig{})
	if _, err := m.Generate(context.Background(), Request{}, nil); err == nil || !strings.Contains(err.Error(), "redirected") {
		t.Errorf("err = %v, want the redirect refused", err)
	}
	select {
	case r := <-other.requests:
		t.Errorf("the other host received a request (Authorization %q)", r.Header.Get("Authorization"))
	default:
	}
}

// closedBy closes gone when the client ends the request, giving up (and
// leaving gone open, which fails the test) after 10s.
func closedBy(r *http.Request, gone chan struct{}) {
	select {
	case <-r.Context().Done():
		close(gone)
	case <-time.After(10 * time.Second):
	}
}

func TestSSECloseFailsInFlight(t *testing.T) {
	gone := make(chan struct{})
	ts := newTestHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, chatChunk("one"))
		closedBy(r, gone)
	})
	m := newTestSSE(t, ts, SSEConfig{})
	_, err := m.Generate(context.Background(), Request{}, func(string) { m.Close() })
	if KindOf(err) != KindUnavailable {
		t.Fatalf("err = %v, want unavailable after Close", err)
	}
	recv(t, gone)
}

// A request to an endpoint that took the connection and never answers
// ends as soon as its context does, and Close ends one in flight and a
// Warm under way, rather than leaving them to the transport's timeouts.
func TestSSEEndsWhileServerHangs(t *testing.T) {
	hs := transporttest.NewHung(t)
	m, err := NewSSE(SSEConfig{Endpoint: "http://" + hs.Addr + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 3)
	go func() {
		_, err := m.Generate(ctx, Request{}, nil)
		errc <- err
	}()
	recv(t, hs.Asked)
	cancel()
	if err := promptly(t, errc, "the cancelled request"); !IsCancelled(err) {
		t.Errorf("cancelled request: err = %v, want cancelled", err)
	}

	go func() {
		_, err := m.Generate(context.Background(), Request{}, nil)
		errc <- err
	}()
	go func() { errc <- m.Warm(context.Background()) }()
	recv(t, hs.Asked)
	recv(t, hs.Asked)
	m.Close()
	for range 2 {
		if err := promptly(t, errc, "a request after Close"); KindOf(err) != KindUnavailable {
			t.Errorf("after Close: err = %v, want unavailable", err)
		}
	}
}

package modelserver

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

func getStats(t *testing.T, base string) map[string]int64 {
	t.Helper()
	resp, err := http.Get(base + "/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]int64
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestStatsEndpoint(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	// Two clients that do not share connections.
	for range 2 {
		c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		resp, err := c.Post(base+"/v1/completions", "application/json",
			jsonBody(map[string]any{"prompt": "func add(a, b int) int {", "stream": true}))
		if err != nil {
			t.Fatal(err)
		}
		sseData(resp.Body)
		resp.Body.Close()
	}
	tokens := int64(2 * len(Tokenize("\n\treturn a + b\n}")))
	m := getStats(t, base)
	for key, want := range map[string]int64{"requests": 2, "tokens": tokens, "cancels": 0, "tokensAfterCancel": 0} {
		if m[key] != want {
			t.Errorf("%s = %d, want %d (%v)", key, m[key], want, m)
		}
	}
	if m["connections"] < 2 {
		t.Errorf("connections = %d, want at least 2", m["connections"])
	}
	resp, err := http.Post(base+"/stats/reset", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if m := getStats(t, base); m["requests"] != 0 || m["tokens"] != 0 {
		t.Errorf("after reset: %v", m)
	}
}

// WaitStats returns once a request moves the counters it waits for, and
// gives up with the context's error when they never get there.
func TestWaitStats(t *testing.T) {
	ms, base := start(t, Options{Script: script()})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	waiting := make(chan struct{})
	got := make(chan error, 1)
	go func() {
		asked := false
		_, err := ms.WaitStats(ctx, func(st Stats) bool {
			if !asked {
				asked = true
				close(waiting) // the first look, before the request
			}
			return st.Requests == 1 && st.Tokens > 0
		})
		got <- err
	}()
	<-waiting
	resp := post(t, base+"/v1/completions", map[string]any{"prompt": "func add(a, b int) int {", "stream": true})
	sseData(resp.Body)
	resp.Body.Close()
	if err := <-got; err != nil {
		t.Fatalf("WaitStats did not see the request: %v", err)
	}

	cancel()
	if st, err := ms.WaitStats(ctx, func(st Stats) bool { return st.Requests == 2 }); err != context.Canceled || st.Requests != 1 {
		t.Fatalf("WaitStats for a request never sent: %+v, %v", st, err)
	}
}

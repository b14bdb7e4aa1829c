package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestModelServerRejectsBadRealismKnobs checks that an out-of-range
// --accuracy, --calibration or --false-doubts, or a negative
// --uncached-ms-per-1k, is refused with a clear error and exit status 2.
func TestModelServerRejectsBadRealismKnobs(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--accuracy", "1.5"}, "--accuracy must be"},
		{[]string{"--accuracy", "0"}, "--accuracy must be"},
		{[]string{"--uncached-ms-per-1k", "-1"}, "--accuracy must be"},
		{[]string{"--calibration", "1.5"}, "--calibration and --false-doubts must be"},
		{[]string{"--false-doubts", "-0.1"}, "--calibration and --false-doubts must be"},
	} {
		_, stderr, code := run(t, nil, "", append([]string{"model-server", "--listen", "127.0.0.1:0"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, stderr)
		}
	}
}

// TestModelServerDoubtKnobs runs `wisp model-server --accuracy 0.5
// --calibration 1 --false-doubts 1` and checks that a response.create
// asking for logprobs gets both kinds of doubt: wrong lines with the true
// token runner-up (0.35), true lines with a turned word runner-up (0.30).
func TestModelServerDoubtKnobs(t *testing.T) {
	var reply strings.Builder
	for i := range 30 {
		fmt.Fprintf(&reply, "\tcount%d := total + value\n", i)
	}
	script, err := json.Marshal(map[string]any{"replies": []any{map[string]any{"text": reply.String()}}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, script, 0o644); err != nil {
		t.Fatal(err)
	}
	line := runModelServerInProcess(t, "--listen", "127.0.0.1:0", "--script", path,
		"--accuracy", "0.5", "--seed", "3", "--calibration", "1", "--false-doubts", "1")
	url := regexp.MustCompile(`ws://\S+/v1/responses`).FindString(line)
	if url == "" {
		t.Fatalf("no WebSocket address in %q", line)
	}
	c, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.WriteJSON(map[string]any{"type": "response.create", "input": "go on", "stream_id": "s",
		"include": []string{"message.output_text.logprobs"}, "top_logprobs": 2}); err != nil {
		t.Fatal(err)
	}
	runnersUp := map[float64]int{}
	for {
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		var ev struct {
			Type     string `json:"type"`
			Logprobs []struct {
				Logprob float64 `json:"logprob"`
				Top     []struct {
					Logprob float64 `json:"logprob"`
				} `json:"top_logprobs"`
			} `json:"logprobs"`
		}
		if err := c.ReadJSON(&ev); err != nil {
			t.Fatal(err)
		}
		if ev.Type == "response.completed" {
			break
		}
		if ev.Type != "response.output_text.delta" && ev.Type != "response.created" && ev.Type != "response.output_text.done" {
			t.Fatalf("unexpected %s", ev.Type)
		}
		for _, lp := range ev.Logprobs {
			if lp.Logprob < math.Log(0.5) && len(lp.Top) == 2 {
				runnersUp[math.Round(math.Exp(lp.Top[1].Logprob)*100)]++
			}
		}
	}
	if runnersUp[35] == 0 || runnersUp[30] == 0 {
		t.Fatalf("runners-up by probability %v: want both wrong lines' (35%%) and true lines' (30%%) doubts", runnersUp)
	}
}

package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestModelServerStrict runs `wisp model-server --strict` and checks it
// answers response.cancel as the real service does: with an error event.
func TestModelServerStrict(t *testing.T) {
	cmd := exec.Command(wispBin, "model-server", "--listen", "127.0.0.1:0", "--strict")
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("model-server printed %q: %v", line, err)
	}
	url := regexp.MustCompile(`ws://\S+/v1/responses`).FindString(line)
	if url == "" {
		t.Fatalf("no WebSocket address in %q", line)
	}
	c, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.WriteJSON(map[string]any{"type": "response.cancel", "response_id": "resp_1", "stream_id": "s"}); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	var ev struct {
		Type  string `json:"type"`
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_, data, err := c.ReadMessage()
	if err != nil {
		t.Fatalf("no answer to response.cancel: %v", err)
	}
	if err := json.Unmarshal(data, &ev); err != nil || ev.Type != "error" || ev.Error.Code != "unknown_event_type" {
		t.Fatalf("response.cancel answered with %s, want an unknown_event_type error", data)
	}
}

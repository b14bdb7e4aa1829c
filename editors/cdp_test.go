package editors

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/gorilla/websocket"
)

// devtools is a connection to one page of a Chromium started with
// --remote-debugging-port=0, speaking the DevTools protocol: enough to
// evaluate JavaScript in the page, which is how a test sees what is on
// screen in VS Code (its DOM) without going through VS Code itself.
type devtools struct {
	conn *websocket.Conn // used by one goroutine at a time
	next int             // id of the next call
}

// connectDevtools waits until Chromium, started with --user-data-dir=dir,
// has a page whose URL contains urlPart, and connects to it.
func connectDevtools(t *testing.T, dir, urlPart string) *devtools {
	t.Helper()
	var wsURL string
	waitFor(t, 60*time.Second, "Chromium's page is open to DevTools", func() (bool, string) {
		data, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort"))
		if err != nil {
			return false, err.Error()
		}
		port, _, _ := strings.Cut(string(data), "\n")
		resp, err := http.Get("http://127.0.0.1:" + strings.TrimSpace(port) + "/json/list")
		if err != nil {
			return false, err.Error()
		}
		defer resp.Body.Close()
		var targets []struct{ Type, URL, WebSocketDebuggerURL string }
		if err := json.NewDecoder(resp.Body).Decode(&targets); err != nil {
			return false, err.Error()
		}
		for _, tg := range targets {
			if tg.Type == "page" && strings.Contains(tg.URL, urlPart) {
				wsURL = tg.WebSocketDebuggerURL
				return true, ""
			}
		}
		return false, fmt.Sprintf("targets: %+v", targets)
	})
	conn, _, err := websocket.DefaultDialer.Dial(wsURL, nil)
	if err != nil {
		t.Fatalf("DevTools %s: %v", wsURL, err)
	}
	t.Cleanup(func() { conn.Close() })
	return &devtools{conn: conn}
}

// eval evaluates expr in the page and decodes its value into out.
func (d *devtools) eval(expr string, out any) error {
	var res struct {
		Result           struct{ Value json.RawMessage }
		ExceptionDetails *struct{ Text string }
	}
	if err := d.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res); err != nil {
		return err
	}
	switch {
	case res.ExceptionDetails != nil:
		return fmt.Errorf("Runtime.evaluate: %s", res.ExceptionDetails.Text)
	case out == nil || len(res.Result.Value) == 0:
		return nil
	}
	return json.Unmarshal(res.Result.Value, out)
}

// typeKeys types s as the keyboard does: a letter, digit or space is a key
// pressed and released (keydown, keypress, input, keyup); any other
// character arrives as typed text alone (keypress, input), as a keyboard
// layout's shifted keys do, since its key code depends on the layout.
func (d *devtools) typeKeys(s string) error {
	for _, r := range s {
		var err error
		switch {
		case r >= 'a' && r <= 'z':
			err = d.press(string(r), "Key"+string(unicode.ToUpper(r)), int(unicode.ToUpper(r)), 0, string(r))
		case r >= '0' && r <= '9':
			err = d.press(string(r), "Digit"+string(r), int(r), 0, string(r))
		case r == ' ':
			err = d.press(" ", "Space", 32, 0, " ")
		default:
			err = d.call("Input.dispatchKeyEvent", map[string]any{"type": "char", "text": string(r)}, nil)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Modifier bits of Input.dispatchKeyEvent.
const ctrlKey = 2

// press presses and releases one key: key and code as in a KeyboardEvent,
// keyCode its Windows virtual key code, text what it types ("" for none).
func (d *devtools) press(key, code string, keyCode, modifiers int, text string) error {
	for _, kind := range []string{"keyDown", "keyUp"} {
		ev := map[string]any{"type": kind, "key": key, "code": code, "windowsVirtualKeyCode": keyCode, "modifiers": modifiers}
		if kind == "keyDown" && text != "" {
			ev["text"] = text
		} else if kind == "keyDown" {
			ev["type"] = "rawKeyDown"
		}
		if err := d.call("Input.dispatchKeyEvent", ev, nil); err != nil {
			return err
		}
	}
	return nil
}

// call sends one DevTools command and decodes its result into out.
func (d *devtools) call(method string, params, out any) error {
	d.next++
	id := d.next
	if err := d.conn.WriteJSON(map[string]any{"id": id, "method": method, "params": params}); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	for {
		var msg struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct{ Message string }
		}
		if err := d.conn.ReadJSON(&msg); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		switch {
		case msg.ID != id:
			continue // an event
		case msg.Error != nil:
			return fmt.Errorf("%s: %s", method, msg.Error.Message)
		case out == nil:
			return nil
		}
		return json.Unmarshal(msg.Result, out)
	}
}

// waitJS waits until expr is true in the page, or fails the test.
func (d *devtools) waitJS(t *testing.T, timeout time.Duration, what, expr string) {
	t.Helper()
	waitFor(t, timeout, what, func() (bool, string) {
		var ok bool
		err := d.eval(expr, &ok)
		return err == nil && ok, fmt.Sprint(err)
	})
}

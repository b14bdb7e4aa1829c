package editors

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"
)

// lspClient speaks JSON-RPC over a wisp process's stdio the way an editor
// does: it answers the server's requests with null and keeps notifications.
type lspClient struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  chan struct{} // closed when the read loop ends

	mu      sync.Mutex                   // guards the fields below
	nextID  int                          // last request id used
	pending map[int]chan json.RawMessage // replies (the whole message) by id
	notes   []json.RawMessage            // notifications received, in order
}

// startLSP starts `wisp serve` with env and begins reading its output.
func startLSP(t *testing.T, env []string) *lspClient {
	t.Helper()
	cmd := exec.Command(wispBinary(t), "serve")
	cmd.Env = append(os.Environ(), env...)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start wisp serve: %v", err)
	}
	c := &lspClient{t: t, cmd: cmd, stdin: stdin, done: make(chan struct{}), pending: map[int]chan json.RawMessage{}}
	go c.readLoop(stdout)
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		<-c.done
		cmd.Wait()
		if t.Failed() {
			t.Logf("wisp serve output (last 3000 bytes):\n%s", tail(stderr.String(), 3000))
		}
	})
	return c
}

// lockedBuffer collects a process's output; it is written and read from
// different goroutines.
type lockedBuffer struct {
	mu  sync.Mutex // guards buf
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (c *lspClient) readLoop(r io.Reader) {
	defer close(c.done)
	tp := textproto.NewReader(bufio.NewReader(r))
	for {
		hdr, err := tp.ReadMIMEHeader()
		if err != nil {
			return
		}
		n, err := strconv.Atoi(hdr.Get("Content-Length"))
		if err != nil {
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(tp.R, body); err != nil {
			return
		}
		var msg struct {
			ID     *json.RawMessage `json:"id"`
			Method string           `json:"method"`
		}
		if json.Unmarshal(body, &msg) != nil {
			continue
		}
		switch {
		case msg.ID != nil && msg.Method != "":
			c.write(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": nil})
		case msg.ID != nil:
			id, _ := strconv.Atoi(string(*msg.ID))
			c.mu.Lock()
			ch := c.pending[id]
			delete(c.pending, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- body
			}
		default:
			c.mu.Lock()
			c.notes = append(c.notes, body)
			c.mu.Unlock()
		}
	}
}

func (c *lspClient) write(msg any) error {
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err = fmt.Fprintf(c.stdin, "Content-Length: %d\r\n\r\n%s", len(data), data)
	return err
}

// notify sends a notification.
func (c *lspClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params}); err != nil {
		c.t.Fatalf("send %s: %v", method, err)
	}
}

// call sends a request and decodes its result into result; a response
// error fails the test.
func (c *lspClient) call(method string, params, result any) {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan json.RawMessage, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	if err := c.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		c.t.Fatalf("send %s: %v", method, err)
	}
	var body json.RawMessage
	select {
	case body = <-ch:
	case <-c.done:
		c.t.Fatalf("%s: wisp exited before answering", method)
	case <-time.After(30 * time.Second):
		c.t.Fatalf("%s: no answer in 30s", method)
	}
	var resp struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		c.t.Fatalf("%s: bad response %s: %v", method, body, err)
	}
	if resp.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, resp.Error.Code, resp.Error.Message)
	}
	if result != nil {
		if err := json.Unmarshal(resp.Result, result); err != nil {
			c.t.Fatalf("%s: result %s: %v", method, resp.Result, err)
		}
	}
}

package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// memConn is one end of a connection in memory: reads come from in, and
// writes collect in out.
type memConn struct {
	in  *bytes.Reader
	out bytes.Buffer
}

func (c *memConn) Read(p []byte) (int, error)  { return c.in.Read(p) }
func (c *memConn) Write(p []byte) (int, error) { return c.out.Write(p) }
func (c *memConn) Close() error                { return nil }

func frame(body []byte) []byte {
	return append([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body))), body...)
}

// FuzzTolerantStream sends one frame of any body followed by a good
// message. A body that decodes is read as it is and not answered; any
// other is answered with one parse or invalid-request error (none only
// for a malformed response) and the good message is read next: a bad
// frame never ends the connection.
func FuzzTolerantStream(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","id":5,"method":7}`,
		`{"jsonrpc":"2.0","id":"x","method":null}`,
		`{"jsonrpc":"2.0","id":6}`,
		`{"jsonrpc":"2.0","id":7,"result":3,"method":"a"}`,
		`{"jsonrpc":"2.0","id":8,"error":{"code":1,"message":"m"},"result":1}`,
		`{"jsonrpc":"1.0","id":9,"method":"a"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":[]}`,
		`[{"jsonrpc":"2.0","id":1,"method":"a"}]`,
		`{"jsonrpc":"2.0","id":9,`,
		`null`, `"x"`, "\xff",
	} {
		f.Add([]byte(seed))
	}
	next := []byte(`{"jsonrpc":"2.0","method":"exit"}`)
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) == 0 {
			return // an empty frame is a framing matter, not a body's
		}
		c := &memConn{in: bytes.NewReader(append(frame(body), frame(next)...))}
		s := newTolerantStream(c, zap.NewNop())
		msg, _, err := s.Read(context.Background())
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		if _, decodeErr := jsonrpc2.DecodeMessage(body); decodeErr == nil {
			if c.out.Len() != 0 {
				t.Fatalf("a valid message was answered with %q", c.out.String())
			}
			return
		}
		if n, ok := msg.(*jsonrpc2.Notification); !ok || n.Method() != "exit" {
			t.Fatalf("after a bad frame Read returned %#v, want the next message", msg)
		}
		var obj map[string]json.RawMessage
		isObject := json.Unmarshal(body, &obj) == nil && obj != nil
		_, hasMethod := obj["method"]
		_, hasResult := obj["result"]
		_, hasError := obj["error"]
		if c.out.Len() == 0 {
			if !isObject || hasMethod || !hasResult && !hasError {
				t.Fatalf("%q got no answer; only a malformed response goes unanswered", body)
			}
			return
		}
		reply := readOneFrame(t, c.out.Bytes())
		m, err := jsonrpc2.DecodeMessage(reply)
		r, ok := m.(*jsonrpc2.Response)
		if err != nil || !ok {
			t.Fatalf("the answer %q is not a response: %v", reply, err)
		}
		var rpcErr *jsonrpc2.Error
		if !errors.As(r.Err(), &rpcErr) || (rpcErr.Code != jsonrpc2.ParseError && rpcErr.Code != jsonrpc2.InvalidRequest) {
			t.Fatalf("the answer %q is not a parse or invalid-request error", reply)
		}
		// A request's own id, when it can be read, is the answer's.
		if !isObject {
			return
		}
		var id string
		if raw := obj["id"]; len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &id) == nil && r.ID() != jsonrpc2.NewStringID(id) {
			t.Fatalf("the answer to id %s is %q", raw, reply)
		}
		if n, err := strconv.ParseInt(string(obj["id"]), 10, 32); err == nil && r.ID() != jsonrpc2.NewNumberID(n) {
			t.Fatalf("the answer to id %d is %q", n, reply)
		}
	})
}

// readOneFrame returns the body of the only frame in data.
func readOneFrame(t *testing.T, data []byte) []byte {
	t.Helper()
	r := bufio.NewReader(bytes.NewReader(data))
	var n int
	if _, err := fmt.Fscanf(r, "Content-Length: %d\r\n\r\n", &n); err != nil {
		t.Fatalf("answer %q: %v", data, err)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		t.Fatalf("answer %q: %v", data, err)
	}
	if rest, _ := io.ReadAll(r); len(rest) != 0 {
		t.Fatalf("more than one answer: %q", data)
	}
	return body
}

package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/goleak"

	"github.com/wisp-lsp/wisp/client"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// fakeServer answers initialize choosing encoding, records every change
// it is sent, and on "poke" sends a notification and a request back.
type fakeServer struct {
	encoding string
	conn     jsonrpc2.Conn

	mu      sync.Mutex
	changes []json.RawMessage // didChange params, guarded by mu
}

func start(t *testing.T, encoding string, opts client.Options) (*client.Client, *fakeServer) {
	t.Helper()
	serverEnd, clientEnd := net.Pipe()
	s := &fakeServer{encoding: encoding, conn: jsonrpc2.NewConn(jsonrpc2.NewHeaderStream(serverEnd))}
	s.conn.Go(context.Background(), s.handle)
	c := client.New(clientEnd, opts)
	t.Cleanup(func() {
		clientEnd.Close()
		serverEnd.Close()
		c.Close()
		s.conn.Close()
	})
	return c, s
}

func (s *fakeServer) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	params := append(json.RawMessage(nil), req.Params()...)
	switch req.Method() {
	case "initialize":
		return map[string]any{"capabilities": map[string]any{"positionEncoding": s.encoding}}, nil
	case "textDocument/didChange":
		s.mu.Lock()
		s.changes = append(s.changes, params)
		s.mu.Unlock()
		return nil, nil
	case "poke":
		jsonrpc2.Async(ctx)
		s.conn.Notify(ctx, "note", map[string]any{"n": 1})
		var res struct {
			Applied bool `json:"applied"`
		}
		if _, err := s.conn.Call(ctx, "workspace/applyEdit", map[string]any{"edit": map[string]any{}}, &res); err != nil {
			return nil, err
		}
		return res.Applied, nil
	}
	if req.IsCall() {
		return nil, jsonrpc2.ErrMethodNotFound
	}
	return nil, nil
}

func ctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// The client's positions follow the encoding the server chose: the same
// byte offsets after "é" are character 2 in utf-8 and 1 in utf-16.
func TestReplaceSpeaksTheChosenEncoding(t *testing.T) {
	for _, tc := range []struct {
		encoding string
		want     int
	}{{"utf-8", 2}, {"utf-16", 1}} {
		c, s := start(t, tc.encoding, client.Options{})
		if _, err := c.Initialize(ctx(t), nil); err != nil {
			t.Fatal(err)
		}
		if got := c.Encoding().String(); got != tc.encoding {
			t.Fatalf("Encoding() = %s, want %s", got, tc.encoding)
		}
		if err := c.Open(ctx(t), "file:///a", "go", "é\n"); err != nil {
			t.Fatal(err)
		}
		if v, err := c.Replace(ctx(t), "file:///a", 2, 2, "x"); err != nil || v != 2 {
			t.Fatalf("Replace = %d, %v", v, err)
		}
		// The change is read before the answer to this call.
		if err := c.Call(ctx(t), "unknown", nil, nil); err == nil {
			t.Fatal("an unknown method succeeded")
		}
		s.mu.Lock()
		var p struct {
			ContentChanges []struct {
				Range struct{ Start struct{ Line, Character int } }
			}
		}
		err := json.Unmarshal(s.changes[0], &p)
		s.mu.Unlock()
		if err != nil || p.ContentChanges[0].Range.Start.Character != tc.want {
			t.Errorf("%s: change %+v, %v; want character %d", tc.encoding, p, err, tc.want)
		}
		if got := c.Text("file:///a").String(); got != "éx\n" {
			t.Errorf("the client's copy reads %q", got)
		}
	}
}

// Recording keeps notifications, the server's requests and responses in
// order, and ApplyEdit answers the server.
func TestRecord(t *testing.T) {
	c, _ := start(t, "utf-8", client.Options{Record: true, ApplyEdit: func(json.RawMessage) bool { return true }})
	var applied bool
	if err := c.Call(ctx(t), "poke", nil, &applied); err != nil || !applied {
		t.Fatalf("poke: %v, %v; want the edit applied", applied, err)
	}
	if _, err := c.AwaitNotification(ctx(t), "note", nil); err != nil {
		t.Fatal(err)
	}
	if got := len(c.Requests("workspace/applyEdit")); got != 1 {
		t.Errorf("%d applyEdit requests recorded, want 1", got)
	}
	var methods []string
	for _, m := range c.Messages() {
		methods = append(methods, m.Method)
	}
	if want := []string{"note", "workspace/applyEdit", ""}; !slices.Equal(methods, want) {
		t.Errorf("recorded %q, want %q (the response last)", methods, want)
	}
	// A request written raw gets its answer recorded under its own id.
	if err := c.WriteFrame([]byte(`{"jsonrpc":"2.0","id":"raw","method":"nope"}`)); err != nil {
		t.Fatal(err)
	}
	r, err := c.AwaitResponse(ctx(t), "raw")
	if err != nil || r.Err == nil {
		t.Fatalf("answer to a raw request: %+v, %v; want MethodNotFound", r, err)
	}
}

// Await ends with an error when the connection does.
func TestAwaitEndsWithTheConnection(t *testing.T) {
	c, _ := start(t, "utf-8", client.Options{Record: true})
	c.Close()
	err := c.Await(ctx(t), func([]client.Message) bool { return false })
	if err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Await on a closed connection: %v, want the connection's end", err)
	}
}

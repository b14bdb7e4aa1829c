package client

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
)

// Message is a notification, a request or a response the server sent,
// kept when Options.Record is set.
type Message struct {
	// Method and Params are a notification's or a request's; Method is
	// empty for a response.
	Method string
	Params json.RawMessage
	// Call is true for a request (the server waits for an answer).
	Call bool
	// ID, Result and Err are a response's: its id (a number, a string,
	// or nil for the null id of an answer to an unreadable message), and
	// its result or error.
	ID     any
	Result json.RawMessage
	Err    error
}

// recorder is the connection's stream, recording the responses it reads
// (the conn hands requests and notifications to handle, but keeps
// responses to itself, and drops those it did not ask for).
type recorder struct {
	jsonrpc2.Stream
	c *Client
}

func (r recorder) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	msg, n, err := r.Stream.Read(ctx)
	if resp, ok := msg.(*jsonrpc2.Response); ok && err == nil {
		m := Message{Result: json.RawMessage(resp.Result()), Err: resp.Err()}
		if id := resp.ID(); id.IsValid() {
			m.ID = wireID(id)
		}
		r.c.record(m)
	}
	return msg, n, err
}

// wireID is id as JSON shows it: an int64 or a string.
func wireID(id jsonrpc2.ID) any {
	if n, ok := id.Number(); ok {
		return n
	}
	s, _ := id.StringValue()
	return s
}

func (c *Client) record(m Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.log = append(c.log, m)
	close(c.changed)
	c.changed = make(chan struct{})
}

// Messages returns what the server has sent so far, in arrival order:
// every notification, request and response, or none unless
// Options.Record is set.
func (c *Client) Messages() []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Message(nil), c.log...)
}

// Notifications returns the params of the notifications with method
// received so far, in arrival order.
func (c *Client) Notifications(method string) []json.RawMessage {
	return c.matching(method, false)
}

// Requests returns the params of the requests with method the server has
// sent so far (workspace/applyEdit, client/registerCapability, …), in
// arrival order.
func (c *Client) Requests(method string) []json.RawMessage {
	return c.matching(method, true)
}

func (c *Client) matching(method string, call bool) []json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []json.RawMessage
	for _, m := range c.log {
		if m.Method == method && m.Call == call {
			out = append(out, m.Params)
		}
	}
	return out
}

// Await waits until ok accepts what the server has sent so far. ok is
// called with the recorded messages at once and again after each new
// one; Await returns ctx's error, or an error when the connection ends,
// if ok never accepts.
func (c *Client) Await(ctx context.Context, ok func([]Message) bool) error {
	ended := false
	for {
		c.mu.Lock()
		log, changed := c.log, c.changed
		c.mu.Unlock()
		if ok(log[:len(log):len(log)]) {
			return nil
		}
		if ended {
			return fmt.Errorf("the connection ended while waiting")
		}
		select {
		case <-changed:
		case <-c.conn.Done():
			ended = true // one last look: the message may have come with the close
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// AwaitNotification waits for a notification with method whose params ok
// accepts (nil accepts any) and returns its params.
func (c *Client) AwaitNotification(ctx context.Context, method string, ok func(json.RawMessage) bool) (json.RawMessage, error) {
	var found json.RawMessage
	err := c.Await(ctx, func(log []Message) bool {
		for _, m := range log {
			if m.Method == method && !m.Call && (ok == nil || ok(m.Params)) {
				found = m.Params
				return true
			}
		}
		return false
	})
	if err != nil {
		return nil, fmt.Errorf("waiting for %s: %w", method, err)
	}
	return found, nil
}

// AwaitResponse waits for the response with id (a number or a string,
// as sent; nil for the null id), including one to a request written with
// WriteFrame, which no Call waits for.
func (c *Client) AwaitResponse(ctx context.Context, id any) (Message, error) {
	switch n := id.(type) {
	case int:
		id = int64(n)
	case float64: // as encoding/json decodes a number
		id = int64(n)
	}
	var found Message
	err := c.Await(ctx, func(log []Message) bool {
		for _, m := range log {
			if m.Method == "" && m.ID == id {
				found = m
				return true
			}
		}
		return false
	})
	if err != nil {
		return Message{}, fmt.Errorf("waiting for the response to %v: %w", id, err)
	}
	return found, nil
}

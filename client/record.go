package client

import (
	"context"
	"encoding/json"
	"fmt"
)

// Message is a notification or a request the server sent, kept when
// Options.Record is set.
type Message struct {
	Method string
	Params json.RawMessage
	// Call is true for a request (the server waited for an answer).
	Call bool
}

func (c *Client) record(m Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.log = append(c.log, m)
	close(c.changed)
	c.changed = make(chan struct{})
}

// Messages returns what the server has sent so far, in arrival order:
// every notification and request, or none unless Options.Record is set.
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
	for {
		c.mu.Lock()
		log, changed := c.log, c.changed
		c.mu.Unlock()
		if ok(log[:len(log):len(log)]) {
			return nil
		}
		select {
		case <-changed:
		case <-c.conn.Done():
			// One last look: the message may have come with the close.
			c.mu.Lock()
			log = c.log
			c.mu.Unlock()
			if ok(log[:len(log):len(log)]) {
				return nil
			}
			return fmt.Errorf("the connection ended while waiting")
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

// Package client is the editor side of an LSP session with wisp: a small
// real client that opens documents, types into them as incremental
// changes, asks for inline completions and quick edits, and hears the
// server's notifications. `wisp demo`, the benchmark harness, the editor
// tests and the language server's own tests all drive wisp with it.
package client

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"

	"github.com/wisp-lsp/wisp/text"
)

// Client is one LSP session. Its methods are safe for concurrent use, but
// document changes must be sent from one goroutine, in order.
type Client struct {
	conn jsonrpc2.Conn
	// rwc is the connection under conn, for WriteFrame; immutable.
	rwc io.ReadWriteCloser
	// opts is immutable after New.
	opts Options

	mu sync.Mutex // guards the fields below
	// docs holds the client's copy of each open document.
	docs map[string]*doc
	// log holds what the server sent, in arrival order, when opts.Record
	// is set.
	log []Message
	// changed is closed and replaced whenever log grows; never nil.
	changed chan struct{}
	// enc is the position encoding the server chose at initialize
	// (UTF-16, the protocol's default, until then).
	enc text.Encoding
}

type doc struct {
	text    *text.Text
	version int
}

// Options configure a Client.
type Options struct {
	// OnNotification, if set, hears every notification from the server.
	// It runs on the connection's read loop: be quick.
	OnNotification func(method string, params json.RawMessage)
	// ApplyEdit answers workspace/applyEdit; nil refuses every edit.
	ApplyEdit func(params json.RawMessage) bool
	// PositionEncodings are the encodings Initialize offers, most wanted
	// first; nil offers utf-8 and utf-16. VS Code offers only utf-16.
	PositionEncodings []string
	// Record keeps every notification, request and response the server
	// sends, for Messages, Notifications, Requests, AwaitResponse and
	// Await.
	Record bool
}

// New starts a client over rwc (the server's stdio, or a pipe).
func New(rwc io.ReadWriteCloser, opts Options) *Client {
	c := &Client{rwc: rwc, opts: opts, docs: map[string]*doc{}, changed: make(chan struct{})}
	stream := jsonrpc2.NewHeaderStream(rwc)
	if opts.Record {
		stream = recorder{stream, c}
	}
	c.conn = jsonrpc2.NewConn(stream)
	c.conn.Go(context.Background(), c.handle)
	return c
}

func (c *Client) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	method := strings.Clone(req.Method())
	params := append(json.RawMessage(nil), req.Params()...)
	if c.opts.Record {
		c.record(Message{Method: method, Params: params, Call: req.IsCall()})
	}
	if !req.IsCall() {
		if c.opts.OnNotification != nil {
			c.opts.OnNotification(method, params)
		}
		return nil, nil
	}
	// Answer off the read loop, as editors do: a reply written from the
	// reader blocks on an unbuffered pipe until the server reads, and the
	// server may itself be writing a reply from its read loop, so both
	// would wait on each other for good.
	jsonrpc2.Async(ctx)
	switch method {
	case "workspace/applyEdit":
		ok := c.opts.ApplyEdit != nil && c.opts.ApplyEdit(params)
		return map[string]any{"applied": ok}, nil
	case "window/workDoneProgress/create", "client/registerCapability":
		return nil, nil
	}
	return nil, jsonrpc2.ErrMethodNotFound
}

// Close ends the session's connection.
func (c *Client) Close() error { return c.conn.Close() }

// Call sends a request and decodes its result into result (may be nil).
// When ctx ends before the answer it tells the server with
// $/cancelRequest, as editors do when a keystroke supersedes a pending
// request; the late answer is dropped.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	var raw json.RawMessage
	id, err := c.conn.Call(ctx, method, params, &raw)
	if err != nil {
		if ctx.Err() != nil && id.IsValid() {
			// Best effort: the connection may be closing, and then there is
			// nothing left to cancel.
			_ = c.conn.Notify(context.WithoutCancel(ctx), "$/cancelRequest", map[string]any{"id": wireID(id)})
		}
		return fmt.Errorf("%s: %w", method, err)
	}
	if result == nil || len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, result); err != nil {
		return fmt.Errorf("%s: result %s: %w", method, raw, err)
	}
	return nil
}

// Notify sends a notification.
func (c *Client) Notify(ctx context.Context, method string, params any) error {
	if err := c.conn.Notify(ctx, method, params); err != nil {
		return fmt.Errorf("notify %s: %w", method, err)
	}
	return nil
}

// WriteFrame writes body to the server in one LSP frame, as it is: for
// tests of what the server does with malformed JSON. It never splits
// another message, since every message is written with one Write.
func (c *Client) WriteFrame(body []byte) error {
	frame := fmt.Appendf(nil, "Content-Length: %d\r\n\r\n%s", len(body), body)
	if _, err := c.rwc.Write(frame); err != nil {
		return fmt.Errorf("write frame: %w", err)
	}
	return nil
}

// Package client is the editor side of an LSP session with wisp: a small
// real client that opens documents, types into them as incremental
// changes, asks for inline completions and hears the server's
// notifications. `wisp demo` and the benchmark harness drive wisp with it.
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

	mu sync.Mutex // guards the fields below
	// docs holds the client's copy of each open document.
	docs    map[string]*doc
	onNote  func(method string, params json.RawMessage)
	applied func(params json.RawMessage) bool
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
}

// New starts a client over rwc (the server's stdio, or a pipe).
func New(rwc io.ReadWriteCloser, opts Options) *Client {
	c := &Client{conn: jsonrpc2.NewConn(jsonrpc2.NewHeaderStream(rwc)), docs: map[string]*doc{},
		onNote: opts.OnNotification, applied: opts.ApplyEdit}
	c.conn.Go(context.Background(), c.handle)
	return c
}

func (c *Client) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	params := append(json.RawMessage(nil), req.Params()...)
	if !req.IsCall() {
		if c.onNote != nil {
			c.onNote(strings.Clone(req.Method()), params)
		}
		return nil, nil
	}
	switch req.Method() {
	case "workspace/applyEdit":
		ok := c.applied != nil && c.applied(params)
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
			var wire any
			if n, ok := id.Number(); ok {
				wire = n
			} else {
				wire, _ = id.StringValue()
			}
			// Best effort: the connection may be closing, and then there is
			// nothing left to cancel.
			_ = c.conn.Notify(context.WithoutCancel(ctx), "$/cancelRequest", map[string]any{"id": wire})
		}
		return fmt.Errorf("%s: %w", method, err)
	}
	if result == nil || len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, result)
}

// Notify sends a notification.
func (c *Client) Notify(ctx context.Context, method string, params any) error {
	return c.conn.Notify(ctx, method, params)
}

// Initialize runs the handshake with the given initializationOptions, as a
// client that offers utf-8 and utf-16 and supports inline completion.
func (c *Client) Initialize(ctx context.Context, options any) (json.RawMessage, error) {
	params := map[string]any{
		"processId":  nil,
		"clientInfo": map[string]any{"name": "wisp-client"},
		"capabilities": map[string]any{
			"general":      map[string]any{"positionEncodings": []string{"utf-8", "utf-16"}},
			"textDocument": map[string]any{"inlineCompletion": map[string]any{"dynamicRegistration": false}},
			"workspace":    map[string]any{"workspaceEdit": map[string]any{"documentChanges": true}},
			"window":       map[string]any{"workDoneProgress": true},
		},
		"initializationOptions": options,
	}
	var res json.RawMessage
	if err := c.Call(ctx, "initialize", params, &res); err != nil {
		return nil, err
	}
	return res, c.Notify(ctx, "initialized", map[string]any{})
}

// Shutdown sends shutdown and exit.
func (c *Client) Shutdown(ctx context.Context) error {
	if err := c.Call(ctx, "shutdown", nil, nil); err != nil {
		return err
	}
	return c.Notify(ctx, "exit", nil)
}

// Open opens a document.
func (c *Client) Open(ctx context.Context, uri, languageID, content string) error {
	c.mu.Lock()
	c.docs[uri] = &doc{text: text.New(content), version: 1}
	c.mu.Unlock()
	return c.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": languageID, "version": 1, "text": content}})
}

// Replace replaces bytes [start, end) of the open document uri with s,
// sending one incremental change in utf-8 positions (the encoding
// Initialize offers first). It returns the new version.
func (c *Client) Replace(ctx context.Context, uri string, start, end int, s string) (int, error) {
	c.mu.Lock()
	d := c.docs[uri]
	if d == nil {
		c.mu.Unlock()
		return 0, fmt.Errorf("%s is not open", uri)
	}
	r, err := d.text.RangeOf(start, end, text.UTF8)
	if err != nil {
		c.mu.Unlock()
		return 0, err
	}
	next, _, err := d.text.Replace(start, end, s)
	if err != nil {
		c.mu.Unlock()
		return 0, err
	}
	d.text = next
	d.version++
	version := d.version
	c.mu.Unlock()
	return version, c.Notify(ctx, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"range": lspRange(r), "text": s}},
	})
}

// Text returns the client's copy of the document.
func (c *Client) Text(uri string) *text.Text {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d := c.docs[uri]; d != nil {
		return d.text
	}
	return nil
}

// InlineCompletion asks for the inline completion at byte offset off and
// returns the first item's text ("" for none). Ending ctx cancels the
// request at the server.
func (c *Client) InlineCompletion(ctx context.Context, uri string, off int) (string, error) {
	t := c.Text(uri)
	if t == nil {
		return "", fmt.Errorf("%s is not open", uri)
	}
	p, err := t.Position(off, text.UTF8)
	if err != nil {
		return "", err
	}
	var res struct {
		Items []struct {
			InsertText string `json:"insertText"`
		} `json:"items"`
	}
	err = c.Call(ctx, "textDocument/inlineCompletion", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"position":     map[string]any{"line": p.Line, "character": p.Character},
		"context":      map[string]any{"triggerKind": 2},
	}, &res)
	if err != nil || len(res.Items) == 0 {
		return "", err
	}
	return res.Items[0].InsertText, nil
}

func lspRange(r text.Range) map[string]any {
	pos := func(p text.Position) map[string]any { return map[string]any{"line": p.Line, "character": p.Character} }
	return map[string]any{"start": pos(r.Start), "end": pos(r.End)}
}

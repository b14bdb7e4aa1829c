package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/wisp-lsp/wisp/text"
)

// Initialize runs the handshake with the given initializationOptions, as a
// client that offers Options.PositionEncodings and supports inline
// completion.
func (c *Client) Initialize(ctx context.Context, options any) (json.RawMessage, error) {
	encodings := c.opts.PositionEncodings
	if encodings == nil {
		encodings = []string{"utf-8", "utf-16"}
	}
	params := map[string]any{
		"processId":  nil,
		"clientInfo": map[string]any{"name": "wisp-client"},
		"capabilities": map[string]any{
			"general":      map[string]any{"positionEncodings": encodings},
			"textDocument": map[string]any{"inlineCompletion": map[string]any{"dynamicRegistration": false}},
			"workspace":    map[string]any{"workspaceEdit": map[string]any{"documentChanges": true}},
			"window":       map[string]any{"workDoneProgress": true},
		},
		"initializationOptions": options,
	}
	return c.InitializeWith(ctx, params)
}

// InitializeWith runs the handshake with params as they are (a real
// editor's initialize params, say) and returns the result. From then on
// the client's positions are in the encoding the server chose.
func (c *Client) InitializeWith(ctx context.Context, params any) (json.RawMessage, error) {
	var res json.RawMessage
	if err := c.Call(ctx, "initialize", params, &res); err != nil {
		return nil, err
	}
	var chosen struct {
		Capabilities struct {
			PositionEncoding string `json:"positionEncoding"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(res, &chosen); err != nil {
		return nil, fmt.Errorf("initialize result %s: %w", res, err)
	}
	enc, ok := text.ParseEncoding(chosen.Capabilities.PositionEncoding)
	if !ok && chosen.Capabilities.PositionEncoding != "" {
		return nil, fmt.Errorf("the server chose position encoding %q, which no client offers", chosen.Capabilities.PositionEncoding)
	}
	c.mu.Lock()
	c.enc = enc
	c.mu.Unlock()
	return res, c.Notify(ctx, "initialized", map[string]any{})
}

// Encoding is the position encoding the server chose at initialize.
func (c *Client) Encoding() text.Encoding {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.enc
}

// Shutdown sends shutdown and exit.
func (c *Client) Shutdown(ctx context.Context) error {
	if err := c.Call(ctx, "shutdown", nil, nil); err != nil {
		return err
	}
	return c.Notify(ctx, "exit", nil)
}

// InlineItem is one inline completion item: the text, and the byte range
// of the client's document it replaces.
type InlineItem struct {
	Text       string
	Start, End int
}

// InlineCompletion asks for the inline completion at byte offset off and
// returns the first item's text ("" for none). Ending ctx cancels the
// request at the server.
func (c *Client) InlineCompletion(ctx context.Context, uri string, off int) (string, error) {
	items, err := c.InlineItems(ctx, uri, off)
	if err != nil || len(items) == 0 {
		return "", err
	}
	return items[0].Text, nil
}

// InlineItems asks for the inline completions at byte offset off and
// returns the items with their ranges in bytes of the client's document
// (an item without a range replaces nothing at off).
func (c *Client) InlineItems(ctx context.Context, uri string, off int) ([]InlineItem, error) {
	t := c.Text(uri)
	if t == nil {
		return nil, fmt.Errorf("%s is not open", uri)
	}
	p, err := t.Position(off, c.Encoding())
	if err != nil {
		return nil, err
	}
	var res struct {
		Items []struct {
			InsertText string      `json:"insertText"`
			Range      *text.Range `json:"range"`
		} `json:"items"`
	}
	err = c.Call(ctx, "textDocument/inlineCompletion", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"position":     Position(p),
		"context":      map[string]any{"triggerKind": 2},
	}, &res)
	if err != nil {
		return nil, err
	}
	items := make([]InlineItem, 0, len(res.Items))
	for _, it := range res.Items {
		item := InlineItem{Text: it.InsertText, Start: off, End: off}
		if it.Range != nil {
			if item.Start, item.End, err = t.Span(*it.Range, c.Encoding()); err != nil {
				return nil, fmt.Errorf("inline item range %+v: %w", *it.Range, err)
			}
		}
		items = append(items, item)
	}
	return items, nil
}

// QuickEdit asks for a quick edit of bytes [start, end) of the open
// document uri (a cursor when they are equal) with workspace/executeCommand
// "wisp.quickEdit". The server answers once it has sent its
// workspace/applyEdit, which Options.ApplyEdit hears.
func (c *Client) QuickEdit(ctx context.Context, uri string, start, end int, instruction string) error {
	t := c.Text(uri)
	if t == nil {
		return fmt.Errorf("%s is not open", uri)
	}
	r, err := t.RangeOf(start, end, c.Encoding())
	if err != nil {
		return err
	}
	return c.Call(ctx, "workspace/executeCommand", map[string]any{"command": "wisp.quickEdit", "arguments": []any{map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": c.Version(uri)},
		"range":        Range(r),
		"instruction":  instruction,
	}}}, nil)
}

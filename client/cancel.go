package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/wisp-lsp/wisp/text"
)

// CallCancellable sends a request like Call, and when ctx ends before the
// answer it tells the server with $/cancelRequest, as editors do when a
// keystroke supersedes a pending request. The late answer is dropped.
func (c *Client) CallCancellable(ctx context.Context, method string, params, result any) error {
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

// InlineCompletionCancellable is InlineCompletion sent with
// CallCancellable: ending ctx cancels the request at the server.
func (c *Client) InlineCompletionCancellable(ctx context.Context, uri string, off int) (string, error) {
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
	err = c.CallCancellable(ctx, "textDocument/inlineCompletion", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"position":     map[string]any{"line": p.Line, "character": p.Character},
		"context":      map[string]any{"triggerKind": 2},
	}, &res)
	if err != nil || len(res.Items) == 0 {
		return "", err
	}
	return res.Items[0].InsertText, nil
}

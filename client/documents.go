package client

import (
	"context"
	"fmt"

	"github.com/wisp-lsp/wisp/text"
)

// Open opens a document at version 1.
func (c *Client) Open(ctx context.Context, uri, languageID, content string) error {
	c.mu.Lock()
	c.docs[uri] = &doc{text: text.New(content), version: 1}
	c.mu.Unlock()
	return c.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": languageID, "version": 1, "text": content}})
}

// Replace replaces bytes [start, end) of the open document uri with s,
// sending one incremental change in the negotiated encoding's positions.
// It returns the new version.
func (c *Client) Replace(ctx context.Context, uri string, start, end int, s string) (int, error) {
	c.mu.Lock()
	d := c.docs[uri]
	if d == nil {
		c.mu.Unlock()
		return 0, fmt.Errorf("%s is not open", uri)
	}
	r, err := d.text.RangeOf(start, end, c.enc)
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
		"contentChanges": []any{map[string]any{"range": Range(r), "text": s}},
	})
}

// Text returns the client's copy of the document, nil if it is not open.
func (c *Client) Text(uri string) *text.Text {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d := c.docs[uri]; d != nil {
		return d.text
	}
	return nil
}

// Version returns the client's version of the document, 0 if it is not
// open.
func (c *Client) Version(uri string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d := c.docs[uri]; d != nil {
		return d.version
	}
	return 0
}

// Range is r as LSP JSON.
func Range(r text.Range) map[string]any {
	return map[string]any{"start": Position(r.Start), "end": Position(r.End)}
}

// Position is p as LSP JSON.
func Position(p text.Position) map[string]any {
	return map[string]any{"line": p.Line, "character": p.Character}
}

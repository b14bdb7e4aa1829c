package main

import (
	"context"
	"path/filepath"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// sent is what wisp sends the model for one hole.
type sent struct {
	// Text is the rendered prompt (the user message; the fixed system
	// instructions are left out, they name no identifier of the code).
	Text string
	// Used and Budget are wisp's own token accounting for the request.
	Used, Budget int
}

// project is one tree as wisp sees it: the folder an editor would open.
type project struct {
	Root string
	Lang string
}

// wispContext returns what wisp really sends for a completion at cursor in
// doc, the text of ws's file rel as the user has it while typing: the
// engine's builder (completion.BuildRequest) rendered as the
// WebSocket and SSE providers render it. It is the one place to change
// when the request builder or the workspace index change.
func wispContext(ws project, rel, doc string, cursor, budget int) sent {
	path := filepath.ToSlash(rel)
	t := text.New(doc)
	var tree *syntax.Tree
	if lang := syntax.Detect(ws.Lang, path); lang != nil {
		tree, _ = syntax.Parse(context.Background(), lang, t)
	}
	if tree != nil {
		defer tree.Close()
	}
	b := completion.BuildRequest(completion.Query{Path: path, LanguageID: ws.Lang, Text: t, Tree: tree, Cursor: cursor}, budget, 0)
	_, input := transport.RenderChat(b.Request)
	return sent{Text: input, Used: b.Context.Tokens, Budget: b.Context.Budget}
}

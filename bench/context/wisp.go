package main

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/workspace"
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
	// Index is wisp's workspace index of Root; nil for none.
	Index *workspace.Index
}

// wispContext returns what wisp really sends for a completion at cursor in
// doc, the text of ws's file rel as the user has it while typing (original
// is the file on disk): the engine's builder (completion.BuildRequest),
// with the workspace index holding doc for the file as an editor's
// buffer would, rendered as the WebSocket and SSE providers render it. It
// is the one place to change when the request builder or the workspace
// index change.
func wispContext(ws project, rel, doc, original string, cursor, budget int) sent {
	path := filepath.Join(ws.Root, filepath.FromSlash(rel))
	if ws.Index != nil {
		ws.Index.Update(path, []byte(doc))
		defer ws.Index.Update(path, []byte(original))
	}
	t := text.New(doc)
	var tree *syntax.Tree
	if lang := syntax.Detect(ws.Lang, path); lang != nil {
		tree, _ = syntax.Parse(context.Background(), lang, t)
	}
	if tree != nil {
		defer tree.Close()
	}
	q := completion.Query{Path: path, LanguageID: ws.Lang, Text: t, Tree: tree, Cursor: cursor}
	if ws.Index != nil {
		q.Workspace = ws.Index
	}
	b := completion.BuildRequest(q, config.Completion{Budget: budget, LookAhead: true}, 0)
	_, input := transport.RenderChat(b.Request)
	// Paths are shown from the tree's root: the folders above it (the
	// module cache's, say) would otherwise lend the prompt words that
	// are no part of the code.
	input = strings.ReplaceAll(input, ws.Root+string(filepath.Separator), "")
	return sent{Text: input, Used: b.Context.Tokens, Budget: b.Context.Budget}
}

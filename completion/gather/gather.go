// Package gather chooses what a completion request shows the model: the
// text around the cursor and, within a token budget, the pieces of the
// file and of other open buffers most likely to help (the enclosing
// headers, the imports, signatures of what the code near the cursor uses,
// recent edits elsewhere). It works in byte offsets on *text.Text and
// never parses: callers hand it the trees they already have.
package gather

import (
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// Buffer is one open document as Gather reads it.
type Buffer struct {
	Path, LanguageID string
	// Text is the document; never nil.
	Text *text.Text
	// Tree is Text's syntax tree, or nil (then only plain-text windows are
	// chosen). Gather reads it from the calling goroutine only: give each
	// call its own Tree.Copy.
	Tree *syntax.Tree
	// Index, when not nil, is NewIndex(Tree) cached by the caller for this
	// exact Text; Gather then does not walk the whole tree. Caching it per
	// document version keeps Gather well under a millisecond on large
	// workspaces.
	Index *Index
	// Recent holds recently edited byte ranges of Text, newest first.
	Recent []syntax.Span
}

// Input is one completion's context request.
type Input struct {
	Buffer
	// Cursor is the byte offset of the completion in Buffer.Text.
	Cursor int
	// Others are the other open buffers, most recently used first.
	Others []Buffer
	// Budget is the context size in estimated tokens; 0 means
	// DefaultBudget.
	Budget int
	// Workspace, when set, resolves the identifiers around the cursor to
	// definitions anywhere in the workspace, open or not.
	Workspace Resolver
}

// Context is the chosen context. It is JSON-friendly: `wisp context --json`
// prints it as is.
type Context struct {
	// Prefix and Suffix are the document text just before and after the
	// cursor (they are also Pieces[0] and Pieces[1]).
	Prefix string `json:"-"`
	Suffix string `json:"-"`
	// PrefixStart and SuffixEnd are the byte offsets where Prefix starts
	// and Suffix ends; PrefixStart <= cursor <= SuffixEnd.
	PrefixStart int `json:"prefixStart"`
	SuffixEnd   int `json:"suffixEnd"`
	// Pieces lists everything chosen: the prefix, the suffix, then the
	// extra pieces, most important first.
	Pieces []Piece `json:"pieces"`
	// Tokens is the estimated size of all Pieces; Budget the limit it was
	// chosen under. Tokens <= Budget unless the cursor's own line alone is
	// larger.
	Tokens int `json:"tokens"`
	Budget int `json:"budget"`
}

// Piece is one chosen piece of context.
type Piece struct {
	// Kind is "prefix", "suffix", "enclosing", "imports", "definition",
	// "signature" or "recent".
	Kind string `json:"kind"`
	// Why says in plain words why the piece was chosen.
	Why string `json:"why"`
	// Path is the file the piece comes from.
	Path string `json:"path"`
	Text string `json:"text"`
	// Tokens is Estimate(Text).
	Tokens int `json:"tokens"`
	// span is where Text lies in its buffer.
	span syntax.Span
}

// Budget shares of the prefix and suffix windows, in percent; the rest
// goes to extra pieces, and whatever those leave unused grows the prefix.
const (
	prefixShare = 55
	suffixShare = 15
)

// Gather chooses the context for a completion at in.Cursor. It never
// fails: with no tree it returns plain windows around the cursor.
func Gather(in Input) Context {
	doc := in.Text
	cursor := max(0, min(in.Cursor, doc.Len()))
	budget := in.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	g := gatherer{in: in, doc: doc, cursor: cursor}
	g.scopes = scopesAt(in.Tree, cursor)
	g.index = indexOf(in.Buffer)

	prefixTokens, suffixTokens := budget*prefixShare/100, budget*suffixShare/100
	if Estimate(doc.String()) <= prefixTokens+suffixTokens {
		g.prefixStart, g.suffixEnd = 0, doc.Len()
	} else {
		g.prefixStart = g.prefixWindow(prefixTokens)
		g.suffixEnd = g.suffixWindow(suffixTokens)
	}
	used := Estimate(doc.String()[g.prefixStart:cursor]) + Estimate(doc.String()[cursor:g.suffixEnd])
	extras := g.extras(budget - used)
	for _, p := range extras {
		used += p.Tokens
	}
	if left := budget - used; left > 0 && g.prefixStart > 0 {
		// Unused budget widens the prefix; pieces it now covers go.
		grown := g.prefixWindow(Estimate(doc.String()[g.prefixStart:cursor]) + left)
		if grown < g.prefixStart {
			g.prefixStart = grown
			extras = dropCovered(extras, in.Path, grown)
		}
	}
	return g.context(budget, extras)
}

// gatherer holds one Gather call's working state.
type gatherer struct {
	in     Input
	doc    *text.Text
	cursor int
	// scopes enclose the cursor, innermost first, blocks excluded.
	scopes []syntax.Scope
	// index is the current buffer's index; never nil.
	index *Index
	// prefixStart and suffixEnd bound the windows around the cursor.
	prefixStart, suffixEnd int
}

// context assembles the result.
func (g *gatherer) context(budget int, extras []Piece) Context {
	s := g.doc.String()
	c := Context{
		Prefix: s[g.prefixStart:g.cursor], Suffix: s[g.cursor:g.suffixEnd],
		PrefixStart: g.prefixStart, SuffixEnd: g.suffixEnd, Budget: budget,
	}
	c.Pieces = append(c.Pieces,
		newPiece("prefix", "text before the cursor, from "+lineName(g.doc, g.prefixStart), g.in.Path, c.Prefix, syntax.Span{Start: g.prefixStart, End: g.cursor}),
		newPiece("suffix", "text after the cursor, to "+lineName(g.doc, g.suffixEnd), g.in.Path, c.Suffix, syntax.Span{Start: g.cursor, End: g.suffixEnd}))
	c.Pieces = append(c.Pieces, extras...)
	for _, p := range c.Pieces {
		c.Tokens += p.Tokens
	}
	return c
}

func newPiece(kind, why, path, text string, span syntax.Span) Piece {
	return Piece{Kind: kind, Why: why, Path: path, Text: text, Tokens: Estimate(text), span: span}
}

// dropCovered removes the current buffer's enclosing and import pieces
// that now lie inside the prefix, which starts at start.
func dropCovered(ps []Piece, path string, start int) []Piece {
	out := ps[:0]
	for _, p := range ps {
		if p.Path == path && (p.Kind == "enclosing" || p.Kind == "imports") && p.span.Start >= start {
			continue
		}
		out = append(out, p)
	}
	return out
}

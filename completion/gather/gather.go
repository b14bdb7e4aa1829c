// Package gather chooses what a completion request shows the model: the
// text around the cursor and, within a token budget, the pieces of the
// file, of the workspace and of the user's recent edits most likely to
// help (the imports, the enclosing headers, definitions and signatures of
// what the code near the cursor uses, recent edits). It spends the whole
// budget: what the extra pieces leave grows the window around the cursor,
// on both sides. It works in byte offsets on *text.Text and never parses:
// callers hand it the trees they already have.
package gather

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/wisp-lsp/wisp/completion/history"
	"github.com/wisp-lsp/wisp/lang"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/workspace"
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
	// Index, when not nil, is syntax.NewIndex(Tree) cached by the caller for this
	// exact Text; Gather then does not walk the whole tree. Caching it per
	// document version keeps Gather well under a millisecond on large
	// workspaces.
	Index *syntax.Index
}

// Input is one completion's context request.
type Input struct {
	Buffer
	// Cursor is the byte offset of the completion in Buffer.Text; it is
	// clamped to the text.
	Cursor int
	// Others are the other open buffers, most recently used first.
	Others []Buffer
	// History holds the user's recent edits across files, newest first.
	History []history.Edit
	// Budget is the context size in estimated tokens; 0 means
	// DefaultBudget.
	Budget int
	// Workspace, when set, resolves the identifiers around the cursor to
	// definitions anywhere in the workspace, open or not.
	Workspace Resolver
}

// Context is the chosen context. It is JSON-friendly: `wisp context --json`
// prints it with its pieces' paths as the prompt shows them (Shown).
type Context struct {
	// Prefix and Suffix are the document text just before and after the
	// cursor (they are also the last two Pieces), less the runs of
	// comment lines far from the cursor that the window leaves out
	// (elided): near the cursor, they are the text as it is.
	Prefix string `json:"-"`
	Suffix string `json:"-"`
	// PrefixStart and SuffixEnd are the byte offsets where the text
	// Prefix shows starts and the text Suffix shows ends; PrefixStart <=
	// cursor <= SuffixEnd.
	PrefixStart int `json:"prefixStart"`
	SuffixEnd   int `json:"suffixEnd"`
	// Pieces lists everything chosen in the order the prompt shows it:
	// what changes least between requests first (imports and workspace
	// definitions, then the file's other pieces, then recent edits), the
	// prefix and the suffix last.
	Pieces []Piece `json:"pieces"`
	// Tokens is the estimated size of the prompt: all Pieces and Frame;
	// Budget the limit it was chosen under. Tokens <= Budget always, and
	// whenever the file alone is larger than Budget, Tokens falls short of
	// it by a few tokens of rounding at most (at least 95% of budgets of
	// 100 tokens and more).
	Tokens int `json:"tokens"`
	Budget int `json:"budget"`
	// Frame is the part of Tokens the prompt's own lines take: the file's
	// header and markers, and each snippet's "Context from PATH:" line.
	Frame int `json:"frame"`
	// Root is the workspace folder the paths shown to the model are
	// relative to; "" when there is none (paths are shown as given).
	Root string `json:"root,omitempty"`
}

// Piece is one chosen piece of context.
type Piece struct {
	// Kind is "prefix", "suffix", "imports", "definition", "similar",
	// "uses", "modules", "expected", "signature", "type", "enclosing" or
	// "recent".
	Kind string `json:"kind"`
	// Why says in plain words why the piece was chosen.
	Why string `json:"why"`
	// Path is the file the piece comes from.
	Path string `json:"path"`
	Text string `json:"text"`
	// Tokens is Estimate(Text).
	Tokens int `json:"tokens"`
	// span is where Text lies in its buffer; for "recent" pieces, the
	// edited lines; the zero Span for pieces with no place in a buffer
	// (workspace definitions from other files, similar code).
	span syntax.Span
}

// placed reports whether p has a place in a buffer (a non-zero span).
func (p Piece) placed() bool { return p.span != syntax.Span{} }

// extrasShare is the most of the budget, in percent, that pieces other
// than the window around the cursor may take; what they leave goes to the
// window. Measured with bench/context: without the workspace, past a
// quarter the window lost more than the pieces brought; with workspace
// definitions and similar code from related files, recall at 1,024 tokens
// is flat from 25% to 60% (0.812, 0.813, 0.814; later 0.809 at both 50%
// and 60%), while the share of other-file definitions the context holds
// grows with it (0.298 at 40%, 0.324 at 50%, 0.343 at 60%); at 70% recall
// falls (0.804). Three fifths keeps the window the model reads most and
// shows it the signatures of what it calls.
const extrasShare = 60

// wholeFileShare is the largest file, in percent of the budget, shown
// whole with the extras getting what it leaves. A larger one is shown
// through a window like a file larger than the budget, so that the
// extras keep extrasShare: a file that just fits would leave them next
// to nothing. Measured with bench/context at 1,024 tokens: other-file
// definition presence rises by 0.019 (at 40%, and 0.014 at 70%) against
// showing every file that fits whole, while recall moves by 0.001.
const wholeFileShare = 40

// Gather chooses the context for a completion at in.Cursor. It never
// fails and never panics on any text or cursor: with no tree, or on lines
// too long to read as code, it returns plain-text windows of the text's
// own bytes.
func Gather(in Input) Context {
	doc := in.Text
	budget := in.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	g := &gatherer{in: in, doc: doc, cursor: max(0, min(in.Cursor, doc.Len())), budget: budget,
		lang: languageOf(in.Tree, in.LanguageID, in.Path)}
	g.keywords = keywordsOf(g.lang)
	if r, ok := in.Workspace.(rooted); ok {
		g.root = r.Root()
	}
	// The prompt's own lines around the file (its path, the markers) are
	// paid for first: what is left is the pieces'.
	// A budget too small for them (a test's) has the pieces alone.
	if g.frame = frameTokens + pathTokens(g.display(in.Path)); g.frame*4 > budget {
		g.frame = 0
	}
	budget -= g.frame
	g.index = indexOf(in.Buffer)
	if g.plain = g.longLine(); !g.plain {
		g.scopes = scopesAt(in.Tree, g.cursor)
	}
	if limit := budget * wholeFileShare / 100 * milliPerToken; cost(doc.String(), limit) <= limit {
		g.prefixStart, g.suffixEnd = 0, doc.Len()
	}
	if g.prefixStart != 0 || g.suffixEnd != doc.Len() || g.windowTokens() > budget {
		// Larger than the budget (or only just fitting, with the token the
		// cut at the cursor may add): a window.
		g.prefixStart, g.suffixEnd = g.cursor, g.cursor
		g.grow(budget - budget*extrasShare/100)
	}
	// Beside a window, the extras' allowance is a fixed share, not what
	// the first growth happened to leave, so that it does not change with
	// every keystroke; beside the whole file, it is all that is left.
	allowance := budget - g.windowTokens()
	if g.prefixStart != 0 || g.suffixEnd != doc.Len() {
		allowance = min(allowance, budget*extrasShare/100)
	}
	extras := g.extras(allowance)
	// left is what the window and the extras leave of the budget.
	left := func() int {
		return budget - g.windowTokens() - tokensOf(extras) - g.headers(promptOrder(extras, g.in.Path))
	}
	// Whatever the extras left grows the window; pieces of this file the
	// grown window now shows are dropped, which frees more, until none is.
	for {
		g.grow(left())
		n := len(extras)
		if extras = g.dropCovered(extras); len(extras) == n {
			break
		}
	}
	if g.prefixStart == 0 && g.suffixEnd == doc.Len() {
		g.restore(left())
	}
	return g.context(extras)
}

// gatherer holds one Gather call's working state.
type gatherer struct {
	in     Input
	doc    *text.Text
	cursor int // clamped to doc
	budget int
	// scopes enclose the cursor, innermost first, blocks excluded; empty
	// without a tree or on a long line.
	scopes []syntax.Scope
	// plain is set when the cursor's line is too long to read as code
	// (minified or generated text): the file's own definitions are not
	// looked up.
	plain bool
	// index is the current buffer's index; never nil.
	index *syntax.Index
	// prefixStart and suffixEnd bound the window around the cursor;
	// 0 <= prefixStart <= cursor <= suffixEnd <= doc.Len() always.
	prefixStart, suffixEnd int
	// prefixCut and suffixCut are set once a side of the window ends
	// inside a line (a line too long to take whole): it grows no more.
	prefixCut, suffixCut bool
	// near is cursorNames' answer, once asked.
	near *nearNames
	// lang is the buffer's language (languageOf), nil for none known;
	// keywords are its words never looked up (keywordsOf).
	lang     *lang.Language
	keywords map[string]bool
	// root is the workspace folder paths are shown relative to ("" for
	// none); frame the tokens of the prompt's lines around the file.
	root  string
	frame int
	// similarFound holds the similar windows once similarDone is set
	// (asked once per request).
	similarFound []workspace.Snippet
	similarDone  bool
	// elidedLines caches elided's answers by line, opens
	// opensDocstring's; written holds the scopes documents reads, once
	// writtenDone is set.
	elidedLines map[int]bool
	opens       map[int]bool
	written     []syntax.Scope
	writtenDone bool
}

func (g *gatherer) windowTokens() int {
	return Estimate(g.shown(g.prefixStart, g.cursor)) + Estimate(g.shown(g.cursor, g.suffixEnd))
}

func tokensOf(ps []Piece) int {
	n := 0
	for _, p := range ps {
		n += p.Tokens
	}
	return n
}

// context assembles the result, in prompt order.
func (g *gatherer) context(extras []Piece) Context {
	c := Context{
		Prefix: g.shown(g.prefixStart, g.cursor), Suffix: g.shown(g.cursor, g.suffixEnd),
		PrefixStart: g.prefixStart, SuffixEnd: g.suffixEnd, Budget: g.budget, Root: g.root,
	}
	ordered := promptOrder(extras, g.in.Path)
	c.Pieces = append(ordered,
		newPiece("prefix", "text before the cursor, from "+lineName(g.doc, g.prefixStart)+g.leftOut(g.prefixStart, g.cursor), g.in.Path, c.Prefix, syntax.Span{Start: g.prefixStart, End: g.cursor}),
		newPiece("suffix", "text after the cursor, to "+lineName(g.doc, g.suffixEnd)+g.leftOut(g.cursor, g.suffixEnd), g.in.Path, c.Suffix, syntax.Span{Start: g.cursor, End: g.suffixEnd}))
	c.Frame = g.frame + g.headers(ordered)
	c.Tokens = tokensOf(c.Pieces) + c.Frame
	return c
}

// rooted is a Resolver that knows the workspace's root folder
// (*workspace.Index implements it).
type rooted interface{ Root() string }

// The prompt's own lines (transport.RenderChat), in tokens as o200k
// counts them: the file's "File: PATH (language)" line and its three
// markers, less the path, is frameTokens; a snippet's "Context from
// PATH:" line and blank line, less the path, headerTokens. Estimate
// counts each "/", "." and "_" of a path as a token, half again what a
// real tokenizer does, so paths are counted by pathTokens instead.
const (
	frameTokens  = 27
	headerTokens = 4
)

// pathTokens is the size of a path in a prompt: about four bytes a token.
func pathTokens(path string) int { return (len(path) + 3) / 4 }

// display returns path as the model is shown it: relative to the
// workspace root when it lies inside it (no folder of the user's
// machine reaches the model, and fewer tokens), else as given.
func (g *gatherer) display(path string) string { return displayPath(g.root, path) }

// Shown returns c with each piece's path as the prompt shows it
// (relative to Root when inside it), for printing c beside the request.
func (c Context) Shown() Context {
	c.Pieces = slices.Clone(c.Pieces)
	for i := range c.Pieces {
		c.Pieces[i].Path = displayPath(c.Root, c.Pieces[i].Path)
	}
	return c
}

func displayPath(root, path string) string {
	if root == "" || !filepath.IsAbs(path) {
		return path
	}
	if rel, err := filepath.Rel(root, path); err == nil && rel != "." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != ".." {
		return filepath.ToSlash(rel)
	}
	return path
}

// headers returns the tokens of the "Context from PATH:" lines the
// prompt shows for ordered, pieces in prompt order: one for each snippet
// Context.Request makes of them.
func (g *gatherer) headers(ordered []Piece) int {
	n, prevKind, prevPath := 0, "", ""
	for i, p := range ordered {
		if i == 0 || !joins(prevKind, prevPath, p) {
			n += headerTokens + pathTokens(g.display(p.Path))
		}
		prevKind, prevPath = p.Kind, p.Path
	}
	return n
}

func newPiece(kind, why, path, text string, span syntax.Span) Piece {
	return Piece{Kind: kind, Why: why, Path: path, Text: text, Tokens: Estimate(text), span: span}
}

// dropCovered removes the pieces of the current buffer that the window
// now shows whole; a piece with no place is never shown by it.
func (g *gatherer) dropCovered(ps []Piece) []Piece {
	out := ps[:0]
	for _, p := range ps {
		if p.Path == g.in.Path && p.Kind != "recent" && p.placed() && p.span.Start >= g.prefixStart && p.span.End <= g.suffixEnd {
			continue
		}
		out = append(out, p)
	}
	return out
}

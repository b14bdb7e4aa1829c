package syntax

import (
	"context"
	"errors"
	"fmt"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/wisp-lsp/wisp/text"
)

// ErrNoLanguage is returned when Parse is given a nil *Language.
var ErrNoLanguage = errors.New("syntax: no language")

// Tree is a parsed syntax tree plus the *text.Text it was parsed from.
//
// A Tree is not safe for concurrent use, not even for reads: give another
// goroutine t.Copy(). Close releases the tree's memory; a closed Tree
// answers every question as if the document were empty of structure.
type Tree struct {
	lang *Language // never nil
	src  *text.Text
	// tree is the parsed tree; nil once closed.
	tree *sitter.Tree
}

// Parse parses src from scratch. It fails when lang is nil, when src is
// past the parse limits (ErrTooLarge, see CheckSize), or when ctx is done
// before the parse completes.
func Parse(ctx context.Context, lang *Language, src *text.Text) (*Tree, error) {
	if lang == nil {
		return nil, ErrNoLanguage
	}
	if src == nil {
		src = text.New("")
	}
	tr, err := lang.parse(ctx, nil, src)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", lang.Name(), err)
	}
	return &Tree{lang: lang, src: src, tree: tr}, nil
}

// Reparse returns the tree for src, which must be t's text after edits
// (applied in order, each against the text the previous one produced, as
// text.Apply returns them). The parse is incremental: it reuses t. t itself
// is left unchanged and still valid; the caller closes it when done.
//
// Only the edits' byte offsets are used: the edits are folded into one
// covering edit whose tree-sitter points are computed from t's text and
// src. Edits that cannot describe the change from t's text to src (offsets
// out of range, or lengths that do not add up) are ignored and src is
// parsed from scratch, which gives the same tree, only slower. Like Parse
// it refuses a src past the parse limits with ErrTooLarge.
//
// Where src has syntax errors, tree-sitter's error recovery depends on the
// subtrees it reuses, so ERROR nodes may sit differently than in a fresh
// parse; wherever a fresh parse has no errors the trees are equal.
func (t *Tree) Reparse(ctx context.Context, src *text.Text, edits []text.Edit) (*Tree, error) {
	if src == nil {
		src = text.New("")
	}
	c, ok := coalesce(t.src.Len(), src.Len(), edits)
	if t.tree == nil || !ok {
		return Parse(ctx, t.lang, src)
	}
	old := t.tree.Copy()
	defer old.Close()
	editTree(old, t.src, src, c)
	tr, err := t.lang.parse(ctx, old, src)
	if err != nil {
		return nil, fmt.Errorf("reparse %s: %w", t.lang.Name(), err)
	}
	return &Tree{lang: t.lang, src: src, tree: tr}, nil
}

// parse runs one parse with a pooled parser. It refuses a text past the
// parse limits (see CheckSize) before copying anything.
func (l *Language) parse(ctx context.Context, old *sitter.Tree, src *text.Text) (*sitter.Tree, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := CheckSize(src); err != nil {
		return nil, err
	}
	content := bytesOf(src.String())
	p := l.parsers.get()
	tr, err := p.ParseCtx(ctx, old, content)
	if err == nil && tr == nil {
		err = sitter.ErrOperationLimit
	}
	// The binding raises the parser's cancellation flag from a goroutine
	// when ctx ends, and can do so after the parse has finished; a parser
	// whose ctx ended may be left flagged, so it is closed, not pooled.
	if ctx.Err() == nil && err == nil {
		l.parsers.put(p)
	} else {
		p.Close()
	}
	if errors.Is(err, sitter.ErrOperationLimit) && ctx.Err() == nil {
		// No limit is ever set, so this is a stale cancellation flag on
		// a pooled parser (see above): retry once on a fresh parser.
		p := l.parsers.fresh()
		tr, err = p.ParseCtx(ctx, old, content)
		if err == nil {
			l.parsers.put(p)
		} else {
			p.Close()
		}
	}
	if err != nil {
		return nil, err
	}
	return tr, nil
}

// bytesOf returns s's bytes without copying them. The binding only reads
// the slice (it copies it into C memory before parsing), so the string's
// immutability is kept; this saves a copy of the document per keystroke.
func bytesOf(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// Copy returns an independent copy of t, for use by another goroutine.
// Copying is cheap: the trees share their immutable nodes.
func (t *Tree) Copy() *Tree {
	c := &Tree{lang: t.lang, src: t.src}
	if t.tree != nil {
		c.tree = t.tree.Copy()
	}
	return c
}

// Close releases the tree's memory. It is safe to call more than once.
func (t *Tree) Close() {
	if t.tree != nil {
		t.tree.Close()
		t.tree = nil
	}
}

// Language returns the language t was parsed as; never nil.
func (t *Tree) Language() *Language { return t.lang }

// Text returns the text t was parsed from; never nil.
func (t *Tree) Text() *text.Text { return t.src }

// String returns the root node as an S-expression, for tests; "" once
// closed.
func (t *Tree) String() string {
	if t.tree == nil {
		return ""
	}
	return t.tree.RootNode().String()
}

// HasError reports whether the tree holds syntax errors or missing nodes.
func (t *Tree) HasError() bool {
	return t.tree != nil && t.tree.RootNode().HasError()
}

// root returns the root node, or nil once closed.
func (t *Tree) root() *sitter.Node {
	if t.tree == nil {
		return nil
	}
	return t.tree.RootNode()
}

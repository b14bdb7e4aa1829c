package gather

import "github.com/wisp-lsp/wisp/syntax"

// Index is what Gather reads from a buffer's whole tree: its definitions
// and its import section. Building one walks the entire tree, which on a
// large file costs far more than Gather itself, so callers build it once
// per document version and hand it in with Buffer.Index. An Index is
// immutable once built and may be shared between goroutines.
type Index struct {
	// Defs are the tree's top-level definitions, in source order.
	Defs []syntax.Definition
	// Imports are the spans of the import section(s), in source order.
	Imports []syntax.Span
}

// NewIndex reads tree's definitions and imports. A nil tree gives an
// empty Index.
func NewIndex(tree *syntax.Tree) *Index {
	if tree == nil {
		return &Index{}
	}
	return &Index{Defs: tree.Definitions(), Imports: tree.Imports()}
}

// indexOf returns b's cached index, else one read from its tree now.
func indexOf(b Buffer) *Index {
	if b.Index != nil {
		return b.Index
	}
	return NewIndex(b.Tree)
}

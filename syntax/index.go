package syntax

// Index is what a context builder reads from a whole tree: its definitions
// and its import section. Building one walks the entire tree, which on a
// large file costs far more than reading it, so callers build it once per
// document version and cache it. An Index is immutable once built and may
// be shared between goroutines.
type Index struct {
	// Defs are the tree's top-level definitions, in source order.
	Defs []Definition
	// Imports are the spans of the import section(s), in source order.
	Imports []Span
}

// NewIndex reads tree's definitions and imports. A nil tree gives an
// empty Index.
func NewIndex(tree *Tree) *Index {
	if tree == nil {
		return &Index{}
	}
	return &Index{Defs: tree.Definitions(), Imports: tree.Imports()}
}

package gather

import "github.com/wisp-lsp/wisp/syntax"

// indexOf returns b's cached index, else one read from its tree now.
func indexOf(b Buffer) *syntax.Index {
	if b.Index != nil {
		return b.Index
	}
	return syntax.NewIndex(b.Tree)
}

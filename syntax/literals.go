package syntax

import "strings"

// NodeAt returns the type and span of the smallest named node containing
// off in [start, end); the root when none smaller does. off is clamped to
// the text. It returns "" and the zero Span once the tree is closed.
func (t *Tree) NodeAt(off int) (nodeType string, span Span) {
	root := t.root()
	if root == nil {
		return "", Span{}
	}
	off = max(0, min(off, t.src.Len()))
	path := descend(root, off)
	for i := len(path) - 1; i >= 0; i-- {
		if path[i].IsNamed() {
			return path[i].Type(), spanOf(path[i])
		}
	}
	return root.Type(), spanOf(root)
}

// InStringOrComment reports whether off is inside a string literal (after
// its opening quote, before its closing one, and not in an interpolated
// expression) or inside a comment (after its opening marker; the end of a
// line comment counts as inside, the end of a block comment does not).
func (t *Tree) InStringOrComment(off int) (inString, inComment bool) {
	root := t.root()
	if root == nil {
		return false, false
	}
	off = max(0, min(off, t.src.Len()))
	r := t.lang.rules
	path := descend(root, off)
	for i := len(path) - 1; i > 0; i-- {
		n := path[i]
		typ := n.Type()
		if r.codeInString[typ] {
			break
		}
		if int(n.StartByte()) < off && (r.strings[typ] || r.comments[typ]) {
			return r.strings[typ], r.comments[typ]
		}
	}
	if off == 0 {
		return false, false
	}
	// A line comment ends where its line does: an offset at its end is
	// still in it.
	before := descend(root, off-1)
	n := before[len(before)-1]
	for i := len(before) - 1; i > 0 && !r.comments[n.Type()]; i-- {
		n = before[i]
	}
	if r.comments[n.Type()] && int(n.EndByte()) == off && !strings.HasSuffix(t.content(n), "*/") {
		return false, true
	}
	return false, false
}

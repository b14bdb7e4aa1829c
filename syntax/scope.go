package syntax

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// ScopeKind classifies a Scope.
type ScopeKind string

// The scope kinds. KindClass also covers struct, interface, enum, trait and
// impl declarations; KindBlock covers the bodies of if, for, while, try and
// similar statements, and bare blocks.
const (
	KindFunction ScopeKind = "function"
	KindMethod   ScopeKind = "method"
	KindClass    ScopeKind = "class"
	KindBlock    ScopeKind = "block"
)

// Span is a half-open range [Start, End) of byte offsets into a Tree's Text.
type Span struct{ Start, End int }

// Len returns the span's length in bytes.
func (s Span) Len() int { return s.End - s.Start }

// Contains reports whether off lies in [Start, End).
func (s Span) Contains(off int) bool { return s.Start <= off && off < s.End }

// Scope is a function, method, class-like declaration or block.
type Scope struct {
	Kind ScopeKind
	// Name is the declared identifier; "" for blocks and anonymous
	// functions.
	Name string
	// Span is the whole node (for a block, its owning statement).
	Span Span
	// Header runs from the node's start to where its body starts, trailing
	// whitespace included; it equals Span when there is no body.
	Header Span
	// Body is the body: a brace block, or an indented block in Python;
	// the zero Span when there is none.
	Body Span
	// NodeType is the raw tree-sitter node type.
	NodeType string
}

// EnclosingScopes returns the scopes containing off, innermost first,
// blocks included. off is clamped to the text. In languages whose blocks
// end without a closing brace (Python), an offset right after a scope's
// last character counts as inside it, so typing at the end of a function's
// last line stays in that function.
func (t *Tree) EnclosingScopes(off int) []Scope {
	path := t.scopePath(off)
	var scopes []Scope
	for i := len(path) - 1; i >= 0; i-- {
		if s, ok := t.scopeOf(path[i]); ok {
			scopes = append(scopes, s)
		}
	}
	// A function directly inside a class body is one of its methods.
	for i := range scopes {
		if scopes[i].Kind == KindFunction && i+1 < len(scopes) && scopes[i+1].Kind == KindClass &&
			isMember(path, scopes[i], scopes[i+1]) {
			scopes[i].Kind = KindMethod
		}
	}
	return scopes
}

// Enclosing returns the innermost scope containing off whose kind is one of
// kinds, or of any kind when none are given.
func (t *Tree) Enclosing(off int, kinds ...ScopeKind) (Scope, bool) {
	for _, s := range t.EnclosingScopes(off) {
		if len(kinds) == 0 {
			return s, true
		}
		for _, k := range kinds {
			if s.Kind == k {
				return s, true
			}
		}
	}
	return Scope{}, false
}

// isMember reports whether inner's node sits directly in outer's body (or
// in one wrapper node there, like a decorator or a class field), which
// makes a function a method.
func isMember(path []*sitter.Node, inner, outer Scope) bool {
	if outer.Body == (Span{}) {
		return false
	}
	for i := len(path) - 1; i > 0; i-- {
		if spanOf(path[i]) != inner.Span {
			continue
		}
		for up := 1; up <= 2 && i-up >= 0; up++ {
			if spanOf(path[i-up]) == outer.Body {
				return true
			}
		}
		return false
	}
	return false
}

// scopePath returns the nodes containing off, outermost (the root) first.
// Where off is at the end of a node and no scope starts at off, the nodes
// ending at off count as containing it in indent-block languages, and in
// any language when they do not end with a closing brace.
func (t *Tree) scopePath(off int) []*sitter.Node {
	root := t.root()
	if root == nil {
		return nil
	}
	off = max(0, min(off, t.src.Len()))
	path := descend(root, off)
	if off == 0 || (!t.lang.facts.IndentBlocks && t.src.String()[off-1] == '}') {
		return path
	}
	before := descend(root, off-1)
	common := 0
	for common < len(path) && common < len(before) && spanOf(path[common]) == spanOf(before[common]) &&
		path[common].Type() == before[common].Type() {
		common++
	}
	for _, n := range path[common:] {
		if t.isScopeNode(n) {
			return path
		}
	}
	return before
}

// descend returns the chain of nodes from root to the smallest node
// containing byte off, each containing off in [start, end).
func descend(root *sitter.Node, off int) []*sitter.Node {
	path := []*sitter.Node{root}
	c := sitter.NewTreeCursor(root)
	defer c.Close()
	// The cursor finds the first child with end >= its goal; asking for
	// off+1 gives the first child with end > off.
	for c.GoToFirstChildForByte(uint32(off)+1) >= 0 {
		n := c.CurrentNode()
		if int(n.StartByte()) > off {
			break
		}
		path = append(path, n)
	}
	return path
}

// isScopeNode reports whether n forms a scope of any kind.
func (t *Tree) isScopeNode(n *sitter.Node) bool {
	_, ok := t.scopeOf(n)
	return ok
}

// scopeOf returns the scope n forms, if any.
func (t *Tree) scopeOf(n *sitter.Node) (Scope, bool) {
	r := t.lang.rules
	typ := n.Type()
	if rule, ok := r.scopes[typ]; ok {
		return t.declScope(n, rule)
	}
	if !r.blocks[typ] {
		return Scope{}, false
	}
	owner := n.Parent()
	if owner == nil || owner.Parent() == nil || r.blocks[owner.Type()] {
		owner = n // a bare block
	} else if _, ok := t.scopeOf(owner); ok {
		return Scope{}, false // the body of a function or class
	}
	body := spanOf(n)
	header := Span{int(owner.StartByte()), body.Start}
	// A second block of the same statement (Go's and Java's else) has the
	// keywords between the blocks as its header.
	for prev := n.PrevSibling(); prev != nil && owner != n; prev = prev.PrevSibling() {
		if prev.IsNamed() {
			if r.blocks[prev.Type()] {
				header.Start = int(prev.EndByte())
				header.Start += len(t.src.String()[header.Start:body.Start]) -
					len(strings.TrimLeft(t.src.String()[header.Start:body.Start], " \t\r\n"))
			}
			break
		}
	}
	return Scope{
		Kind:     KindBlock,
		Span:     spanOf(owner),
		Header:   header,
		Body:     body,
		NodeType: owner.Type(),
	}, true
}

// declScope builds the scope of a declaration node n matched by rule.
func (t *Tree) declScope(n *sitter.Node, rule scopeRule) (Scope, bool) {
	if rule.typeField != nil {
		tf := n.ChildByFieldName("type")
		if tf == nil || !rule.typeField[tf.Type()] {
			return Scope{}, false
		}
	}
	body, hasBody := t.bodyOf(n)
	if rule.needsBody && !hasBody {
		return Scope{}, false
	}
	s := Scope{Kind: rule.kind, Name: t.nameOf(n), Span: spanOf(n), Body: body, NodeType: n.Type()}
	if rule.wrapper != "" {
		if p := n.Parent(); p != nil && p.Type() == rule.wrapper && p.NamedChildCount() == 1 {
			s.Span = spanOf(p)
		}
	}
	s.Header = s.Span
	if hasBody {
		s.Header.End = body.Start
		// Python's block starts at its first statement: the comments
		// between the ":" and it are the body's, not the header's.
		for i := 0; i < int(n.ChildCount()); i++ {
			if c := n.Child(i); !c.IsNamed() && c.Type() == ":" && int(c.EndByte()) <= body.Start {
				s.Header.End = int(c.EndByte())
			}
		}
	}
	return s, true
}

// bodyOf returns the span of n's body: its "body" field, or else the first
// brace-delimited part of n or of n's "type" field (Go struct and
// interface types).
func (t *Tree) bodyOf(n *sitter.Node) (Span, bool) {
	if b := n.ChildByFieldName("body"); b != nil {
		return spanOf(b), true
	}
	if tf := n.ChildByFieldName("type"); tf != nil {
		n = tf
	}
	src := t.src.String()
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		if s := spanOf(c); s.Len() > 0 && src[s.Start] == '{' {
			if !c.IsNamed() {
				s.End = int(n.EndByte()) // a bare "{" token: the body runs to the end
			}
			return s, true
		}
	}
	return Span{}, false
}

// spanOf returns n's byte span.
func spanOf(n *sitter.Node) Span {
	return Span{int(n.StartByte()), int(n.EndByte())}
}

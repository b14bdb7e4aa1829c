package syntax

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// nameOf returns the identifier a declaration node declares, or "".
func (t *Tree) nameOf(n *sitter.Node) string {
	switch n.Type() {
	case "impl_item": // Rust: impl [Trait for] Type
		return t.typeName(n.ChildByFieldName("type"))
	case "function_definition": // C: the name is deep in the declarator
		if d := n.ChildByFieldName("declarator"); d != nil {
			for next := d.ChildByFieldName("declarator"); next != nil; next = d.ChildByFieldName("declarator") {
				d = next
			}
			return t.content(d)
		}
	}
	if name := n.ChildByFieldName("name"); name != nil {
		return t.content(name)
	}
	// An anonymous function takes the name of what it is assigned to.
	if p := n.Parent(); p != nil {
		switch p.Type() {
		case "variable_declarator", "field_definition", "public_field_definition", "pair":
			for _, f := range []string{"name", "property", "key"} {
				if name := p.ChildByFieldName(f); name != nil {
					return t.content(name)
				}
			}
		}
	}
	return ""
}

// receiverType returns the type name of a Go method's receiver, without
// pointer or type arguments.
func (t *Tree) receiverType(n *sitter.Node) string {
	recv := n.ChildByFieldName("receiver")
	if recv == nil || recv.NamedChildCount() == 0 {
		return ""
	}
	return t.typeName(recv.NamedChild(0).ChildByFieldName("type"))
}

// typeName returns a type's bare name: "Server" for *Server, Server[T],
// Server<T> or pkg.Server.
func (t *Tree) typeName(n *sitter.Node) string {
	for n != nil {
		switch n.Type() {
		case "pointer_type", "generic_type", "reference_type":
			if inner := n.ChildByFieldName("type"); inner != nil {
				n = inner
				continue
			}
			if n.NamedChildCount() > 0 {
				n = n.NamedChild(0)
				continue
			}
		case "qualified_type", "scoped_type_identifier":
			if name := n.ChildByFieldName("name"); name != nil {
				return t.content(name)
			}
		}
		return t.content(n)
	}
	return ""
}

// content returns n's text.
func (t *Tree) content(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	s := spanOf(n)
	src := t.src.String()
	if s.Start < 0 || s.End > len(src) || s.Start > s.End {
		return ""
	}
	return src[s.Start:s.End]
}

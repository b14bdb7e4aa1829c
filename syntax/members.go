package syntax

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// memberBody returns the node holding a type's members: its "body" field,
// Go's field list, or a Go interface type itself.
func memberBody(n *sitter.Node) *sitter.Node {
	if b := n.ChildByFieldName("body"); b != nil {
		return b
	}
	switch n.Type() {
	case "struct_type":
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if c := n.NamedChild(i); c.Type() == "field_declaration_list" {
				return c
			}
		}
	case "interface_type":
		return n
	}
	return nil
}

// members appends the members of type-like node n (a class, struct,
// interface, enum, trait or impl) as symbols whose Parent is parent and
// Container container.
func (t *Tree) members(n *sitter.Node, parent, container string, out *[]Symbol) {
	body := memberBody(n)
	if body == nil || parent == "" {
		return
	}
	for i := 0; i < int(body.NamedChildCount()); i++ {
		m := body.NamedChild(i)
		doc := t.docBefore(m)
		m = t.stripWrappers(m)
		if m == nil {
			continue
		}
		add := func(name, kind, sig string) {
			if name != "" {
				*out = append(*out, Symbol{Name: name, Kind: kind, Parent: parent, Container: container, Signature: sig, Doc: doc,
					Span: spanOf(m), Line: t.src.LineOf(int(m.StartByte()))})
			}
		}
		switch m.Type() {
		case "field_declaration": // Go, Rust
			names := t.fieldAll(m, "name")
			if len(names) == 0 { // Go: an embedded field
				names = []string{t.typeName(m.ChildByFieldName("type"))}
			}
			for _, name := range names {
				add(name, "field", memberText(t, m))
			}
		case "method_elem", "method_spec", "method_signature", "abstract_method_signature",
			"method_definition", "function_item", "function_signature_item":
			add(t.nameOf(m), "method", t.header(m))
		case "function_definition": // Python
			if doc == "" {
				doc = t.docstring(m)
			}
			add(t.nameOf(m), "method", t.header(m))
			if t.nameOf(m) == "__init__" {
				for _, f := range t.selfFields(m) {
					*out = append(*out, Symbol{Name: f.name, Kind: "field", Parent: parent, Container: container,
						Signature: clip(squeeze(t.content(f.assignment)), maxValueBytes),
						Span:      spanOf(f.assignment), Line: t.src.LineOf(int(f.assignment.StartByte()))})
				}
			}
		case "public_field_definition", "field_definition", "property_signature":
			name := m.ChildByFieldName("name")
			if name == nil {
				name = m.ChildByFieldName("property")
			}
			add(t.content(name), "field", memberText(t, m))
		case "enum_variant", "enum_assignment":
			add(t.content(m.ChildByFieldName("name")), "field", memberText(t, m))
		case "property_identifier", "identifier": // TypeScript enum members
			add(t.content(m), "field", t.content(m))
		case "expression_statement": // Python class attributes
			if a := m.NamedChild(0); a != nil && a.Type() == "assignment" {
				if left := a.ChildByFieldName("left"); left != nil && left.Type() == "identifier" {
					add(t.content(left), "field", clip(squeeze(t.content(a)), maxValueBytes))
				}
			}
		case "const_item", "type_item":
			add(t.nameOf(m), strings.TrimSuffix(m.Type(), "_item"), memberText(t, m))
		}
	}
}

// selfField is an attribute a Python __init__ assigns on self, and its
// first assignment.
type selfField struct {
	name       string
	assignment *sitter.Node
}

// selfFields returns the attributes a Python __init__ assigns on self,
// in order, each once.
func (t *Tree) selfFields(init *sitter.Node) []selfField {
	var names []selfField
	seen := map[string]bool{}
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if n.Type() == "assignment" {
			if left := n.ChildByFieldName("left"); left != nil && left.Type() == "attribute" &&
				t.content(left.ChildByFieldName("object")) == "self" {
				if f := t.content(left.ChildByFieldName("attribute")); f != "" && !seen[f] {
					seen[f] = true
					names = append(names, selfField{f, n})
				}
			}
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if c := n.NamedChild(i); c.Type() != "function_definition" && c.Type() != "class_definition" {
				walk(c)
			}
		}
	}
	if body := init.ChildByFieldName("body"); body != nil {
		walk(body)
	}
	return names
}

// memberText is a member's one-line text: a header when it has a body,
// else the whole member, without a trailing separator.
func memberText(t *Tree, m *sitter.Node) string {
	if _, ok := t.bodyOf(m); ok && m.Type() != "field_declaration" && m.Type() != "enum_variant" {
		return t.header(m)
	}
	s := squeeze(t.content(m))
	return clip(strings.TrimRight(s, ";,"), maxValueBytes)
}

// compactType returns a type declaration's header followed by its members
// on one line, cut at maxMemberBytes: "type Point struct { X, Y int }",
// "class Point(Base): x: int; def norm(self) -> float". decl is the
// declaration; typ is the node holding the members (decl itself, or a Go
// spec's struct or interface type).
func (t *Tree) compactType(decl, typ *sitter.Node) string {
	start := int(decl.StartByte())
	body := memberBody(typ)
	end := int(decl.EndByte())
	if body != nil {
		end = int(body.StartByte())
	}
	head := squeeze(strings.TrimSpace(t.src.String()[start:end]))
	if typ.Type() == "interface_type" { // Go: the members sit in the type itself
		head = t.content(decl.ChildByFieldName("name")) + " interface"
	}
	if body == nil {
		return strings.TrimSuffix(head, ";")
	}
	var parts []string
	size := 0
	cut := false
	for i := 0; i < int(body.NamedChildCount()); i++ {
		m := body.NamedChild(i)
		if t.lang.rules.comments[m.Type()] || isDocstring(m) {
			continue
		}
		m = t.stripWrappers(m)
		if m == nil {
			continue
		}
		p := strings.TrimSuffix(memberText(t, m), ":")
		if m.Type() == "function_definition" && t.nameOf(m) == "__init__" {
			for _, f := range t.selfFields(m) {
				p += "; self." + f.name
			}
		}
		if size+len(p) > maxMemberBytes {
			cut = true
			break
		}
		size += len(p) + 2
		parts = append(parts, p)
	}
	list := strings.Join(parts, "; ")
	if cut {
		list += "; …"
	}
	if t.lang.facts.IndentBlocks {
		return head + " " + list
	}
	if list == "" {
		return head + " {}"
	}
	return head + " { " + list + " }"
}

func isDocstring(n *sitter.Node) bool {
	return n.Type() == "expression_statement" && n.NamedChildCount() == 1 && n.NamedChild(0).Type() == "string"
}

// fieldAll returns the text of every child of n in field.
func (t *Tree) fieldAll(n *sitter.Node, field string) []string {
	var out []string
	for _, c := range t.children(n, field) {
		out = append(out, t.content(c))
	}
	return out
}

// docBefore returns the first line of the comment block right above n
// (ending on the line before n starts, not trailing code), or "".
func (t *Tree) docBefore(n *sitter.Node) string {
	comments := t.lang.rules.comments
	line := t.src.LineOf(int(n.StartByte()))
	var first *sitter.Node
	for prev := n.PrevNamedSibling(); prev != nil; prev = prev.PrevNamedSibling() {
		comment := comments[prev.Type()]
		if !comment && !t.lang.rules.attributes[prev.Type()] {
			break
		}
		end := int(prev.EndByte())
		if end > 0 && t.src.String()[end-1] == '\n' {
			end-- // Rust line comments end with their newline
		}
		if t.src.LineOf(end) != line-1 || !t.startsLine(prev) {
			break
		}
		if comment {
			first = prev
		}
		line = t.src.LineOf(int(prev.StartByte()))
	}
	if first == nil {
		return ""
	}
	return firstDocLine(t.content(first))
}

// startsLine reports whether only white space precedes n on its line.
func (t *Tree) startsLine(n *sitter.Node) bool {
	off := int(n.StartByte())
	ls := t.src.LineStart(t.src.LineOf(off))
	return strings.TrimSpace(t.src.String()[ls:off]) == ""
}

// docstring returns the first line of a Python function's or class's
// docstring, or "".
func (t *Tree) docstring(n *sitter.Node) string {
	body := n.ChildByFieldName("body")
	if body == nil || body.NamedChildCount() == 0 || !isDocstring(body.NamedChild(0)) {
		return ""
	}
	s := strings.TrimLeft(t.content(body.NamedChild(0)), "rbuRBU") // string prefixes
	s = strings.Trim(s, "\"'")
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// firstDocLine strips comment markers and returns the first non-empty line.
func firstDocLine(c string) string {
	for _, l := range strings.Split(c, "\n") {
		l = strings.TrimSpace(l)
		for _, p := range []string{"///", "//!", "//", "/**", "/*", "#", "*"} {
			if strings.HasPrefix(l, p) {
				l = l[len(p):]
				break
			}
		}
		l = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l), "*/"))
		if l != "" {
			return l
		}
	}
	return ""
}

// symbolsFromDefinitions maps Definitions to symbols, for languages
// without member rules.
func (t *Tree) symbolsFromDefinitions() []Symbol {
	var out []Symbol
	for _, d := range t.Definitions() {
		kind := "func"
		switch d.Kind {
		case KindMethod:
			kind = "method"
		case KindClass:
			kind = "class"
		}
		out = append(out, Symbol{Name: d.Name, Kind: kind, Parent: d.Parent, Signature: d.Signature,
			Span: d.Span, Line: t.src.LineOf(d.Span.Start)})
	}
	return out
}

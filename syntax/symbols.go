package syntax

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Symbol is one definition a workspace index keeps: a top-level
// declaration, or a member of one (a method, field, enum member or
// interface method).
type Symbol struct {
	Name string
	// Kind is "func", "method", "type", "class", "interface", "enum",
	// "field", "const" or "var".
	Kind string
	// Parent names the type, class, trait or impl a member belongs to;
	// "" for top-level symbols.
	Parent string
	// Container is the header of what a member belongs to, as written
	// and squeezed to one line, without its body or opening "{" or ":":
	// "type Conn struct", "class Future(Base)", "impl<'a> Iterator for
	// Chain<'a>". "" for top-level symbols.
	Container string
	// Signature is the declaration's header, never a body, squeezed to
	// one line. Small types carry their members compactly: "type Point
	// struct { X, Y int; Name string }"; a long member list is cut with
	// "…".
	Signature string
	// Doc is the first line of the doc comment (or Python docstring), or "".
	Doc string
	// Span is the whole declaration; Line is the 0-based line it starts on.
	Span Span
	Line int
}

// Bounds on what a symbol carries.
const (
	// maxMemberBytes bounds a type's compact member list.
	maxMemberBytes = 480
	// maxValueBytes bounds a constant's or variable's signature.
	maxValueBytes = 160
)

// Symbols returns the file's top-level definitions and their members, in
// source order. C and Java files give their functions, methods and
// classes only.
func (t *Tree) Symbols() []Symbol {
	root := t.root()
	if root == nil {
		return nil
	}
	switch t.lang {
	case langC, langJava:
		return t.symbolsFromDefinitions()
	}
	var out []Symbol
	t.collect(root, "", &out)
	return out
}

// collect appends the symbols declared directly in container (a file, or
// an inline Rust module) to out.
func (t *Tree) collect(container *sitter.Node, parent string, out *[]Symbol) {
	for i := 0; i < int(container.NamedChildCount()); i++ {
		n := container.NamedChild(i)
		doc := t.docBefore(n)
		outer := n
		n = t.stripWrappers(n)
		if n == nil {
			continue
		}
		first := len(*out)
		t.declaration(n, parent, doc, out)
		// "export" is part of the declaration as written: what other files
		// may import.
		if lead := t.exportLead(outer, n); lead != "" {
			for i := first; i < len(*out); i++ {
				switch sym := &(*out)[i]; {
				case sym.Parent == parent:
					sym.Signature = lead + sym.Signature
				case sym.Container != "":
					sym.Container = lead + sym.Container
				}
			}
		}
	}
}

// exportLead returns "export " or "export default " when outer is an
// export statement around the declaration n, else "".
func (t *Tree) exportLead(outer, n *sitter.Node) string {
	if outer == n || outer.Type() != "export_statement" {
		return ""
	}
	switch lead := squeeze(t.src.String()[outer.StartByte():n.StartByte()]); lead {
	case "export", "export default":
		return lead + " "
	}
	return ""
}

// stripWrappers returns the declaration inside n's wrappers (export,
// decorator), n itself when it is none; nil when a wrapper holds none.
func (t *Tree) stripWrappers(n *sitter.Node) *sitter.Node {
	for n != nil {
		field, ok := t.lang.rules.wrappers[n.Type()]
		if !ok {
			return n
		}
		n = n.ChildByFieldName(field)
	}
	return nil
}

// declaration appends the symbols node n declares.
func (t *Tree) declaration(n *sitter.Node, parent, doc string, out *[]Symbol) {
	add := func(name, kind, sig string) {
		if name == "" {
			return
		}
		*out = append(*out, Symbol{Name: name, Kind: kind, Parent: parent, Signature: sig, Doc: doc,
			Span: spanOf(n), Line: t.src.LineOf(int(n.StartByte()))})
	}
	switch n.Type() {
	case "function_declaration", "generator_function_declaration", "function_signature",
		"function_item", "function_signature_item", "function_definition":
		kind := "func"
		if parent != "" {
			kind = "method"
		}
		if n.Type() == "function_definition" && doc == "" {
			doc = t.docstring(n)
		}
		add(t.nameOf(n), kind, t.header(n))
	case "method_declaration": // Go
		parent = t.receiverType(n)
		add(t.nameOf(n), "method", t.header(n))
	case "type_declaration": // Go
		for i := 0; i < int(n.NamedChildCount()); i++ {
			spec := n.NamedChild(i)
			sdoc := doc
			if n.NamedChildCount() > 1 {
				sdoc = t.docBefore(spec)
			}
			t.goType(spec, n, sdoc, out)
		}
	case "const_declaration", "var_declaration": // Go
		kind := strings.TrimSuffix(n.Type(), "_declaration")
		specs := goSpecs(n)
		for _, spec := range specs {
			sig := clip(kind+" "+squeeze(t.content(spec)), maxValueBytes)
			sdoc := doc
			if len(specs) > 1 || spec.Parent() != n {
				sdoc = t.docBefore(spec)
			}
			for _, name := range t.fieldAll(spec, "name") {
				*out = append(*out, Symbol{Name: name, Kind: kind, Parent: parent, Signature: sig, Doc: sdoc,
					Span: spanOf(spec), Line: t.src.LineOf(int(spec.StartByte()))})
			}
		}
	case "class_definition", "class_declaration", "abstract_class_declaration", "class",
		"interface_declaration", "enum_declaration", "struct_item", "union_item", "enum_item", "trait_item":
		if n.Type() == "class_definition" && doc == "" {
			doc = t.docstring(n)
		}
		name := t.nameOf(n)
		add(name, typeKind(n.Type()), t.compactType(n, n))
		t.members(n, name, t.containerHeader(n), out)
	case "impl_item": // Rust: methods of the implemented type
		t.members(n, t.nameOf(n), t.containerHeader(n), out)
	case "type_alias_declaration", "type_item":
		add(t.nameOf(n), "type", clip(squeeze(strings.TrimSuffix(t.content(n), ";")), maxValueBytes))
	case "const_item", "static_item":
		kind := "const"
		if n.Type() == "static_item" {
			kind = "var"
		}
		add(t.nameOf(n), kind, clip(squeeze(strings.TrimSuffix(t.content(n), ";")), maxValueBytes))
	case "macro_definition": // Rust macro_rules!: its name and what each rule matches
		add(t.nameOf(n), "macro", t.macroSignature(n))
	case "mod_item":
		if body := n.ChildByFieldName("body"); body != nil {
			t.collect(body, "", out)
		}
	case "lexical_declaration", "variable_declaration":
		kind := "var"
		if strings.HasPrefix(t.content(n), "const") {
			kind = "const"
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			d := n.NamedChild(i)
			if d.Type() != "variable_declarator" {
				continue
			}
			name := t.content(d.ChildByFieldName("name"))
			if v := d.ChildByFieldName("value"); v != nil && isFunctionValue(v.Type()) {
				add(name, "func", t.header(v))
				(*out)[len(*out)-1].Signature = squeeze(kind + " " + name + " = " + t.header(v))
				continue
			}
			add(name, kind, clip(kind+" "+squeeze(t.content(d)), maxValueBytes))
		}
	case "expression_statement": // Python: X = 1 at the top of a module
		if a := n.NamedChild(0); a != nil && a.Type() == "assignment" {
			left := a.ChildByFieldName("left")
			if left != nil && left.Type() == "identifier" {
				name := t.content(left)
				kind := "var"
				if strings.ToUpper(name) == name {
					kind = "const"
				}
				add(name, kind, clip(squeeze(t.content(a)), maxValueBytes))
			}
		}
	}
}

// goSpecs returns the const or var specs of a Go declaration: its own,
// or those of the var_spec_list a grouped "var ( … )" holds them in.
func goSpecs(decl *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	for i := 0; i < int(decl.NamedChildCount()); i++ {
		switch c := decl.NamedChild(i); c.Type() {
		case "const_spec", "var_spec":
			out = append(out, c)
		case "var_spec_list":
			out = append(out, goSpecs(c)...)
		}
	}
	return out
}

// macroSignature renders a Rust macro_rules! definition as its name and
// the patterns its rules match, without what they expand to:
// "macro_rules! bail { ($msg:literal $(,)?) => …; ($err:expr $(,)?) => … }".
func (t *Tree) macroSignature(n *sitter.Node) string {
	var rules []string
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if r := n.NamedChild(i); r.Type() == "macro_rule" {
			if left := r.ChildByFieldName("left"); left != nil {
				rules = append(rules, squeeze(t.content(left))+" => …")
			}
		}
	}
	sig := "macro_rules! " + t.nameOf(n) + " {"
	if len(rules) > 0 {
		sig += " " + strings.Join(rules, "; ") + " "
	}
	return clip(sig+"}", maxValueBytes)
}

// goType appends a Go type spec's symbol and its members.
func (t *Tree) goType(spec, decl *sitter.Node, doc string, out *[]Symbol) {
	name := t.content(spec.ChildByFieldName("name"))
	if name == "" {
		return
	}
	typ := spec.ChildByFieldName("type")
	kind, sig := "type", "type "+squeeze(t.content(spec))
	if typ != nil && (typ.Type() == "struct_type" || typ.Type() == "interface_type") {
		if typ.Type() == "interface_type" {
			kind = "interface"
		}
		sig = t.compactType(spec, typ)
		if !strings.HasPrefix(sig, "type ") {
			sig = "type " + sig
		}
	} else {
		sig = clip(sig, maxValueBytes)
	}
	*out = append(*out, Symbol{Name: name, Kind: kind, Signature: sig, Doc: doc,
		Span: spanOf(spec), Line: t.src.LineOf(int(spec.StartByte()))})
	if typ != nil {
		header := "type " + squeeze(t.src.String()[spec.StartByte():typ.StartByte()]) + " " + strings.TrimSuffix(typ.Type(), "_type")
		t.members(typ, name, header, out)
	}
}

// containerHeader returns the header of a class, type, trait or impl
// node as Symbol.Container holds it.
func (t *Tree) containerHeader(n *sitter.Node) string {
	return strings.TrimRight(t.header(n), " {:")
}

// typeKind names the symbol kind of a type-like declaration node.
func typeKind(nodeType string) string {
	switch nodeType {
	case "interface_declaration", "trait_item":
		return "interface"
	case "enum_declaration", "enum_item":
		return "enum"
	case "struct_item", "union_item":
		return "type"
	}
	return "class"
}

func isFunctionValue(nodeType string) bool {
	switch nodeType {
	case "arrow_function", "function", "function_expression", "generator_function":
		return true
	}
	return false
}

// header returns a declaration's header: its text up to its body, squeezed.
func (t *Tree) header(n *sitter.Node) string {
	s := spanOf(n)
	if body, ok := t.bodyOf(n); ok {
		s.End = body.Start
	}
	h := strings.TrimSpace(t.src.String()[s.Start:s.End])
	return squeeze(strings.TrimSuffix(h, ";"))
}

// clip cuts s to at most n bytes, marking the cut with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut-- // never split a UTF-8 sequence
	}
	return s[:cut] + "…"
}

package syntax

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Import is what one import names, as written:
//
//   - Go: the import path ("example.com/m/pkg").
//   - Python: the dotted module, with its leading dots for a relative
//     import ("os.path", ".sibling", "..pkg.mod"); for "from M import a, b"
//     Path is M and Names are a and b.
//   - JavaScript and TypeScript: the module specifier of an import, an
//     export-from or a top-level require ("./util", "../lib", "react").
//   - Rust: the path of a use declaration up to its list or item
//     ("crate::net" for use crate::net::{Conn, dial}, with Names Conn and
//     dial), and "self::NAME" for a "mod NAME;" declaration.
//   - C: the included file; Java: the imported name.
type Import struct {
	Path  string
	Names []string
	// Alias is the name the import binds to the module when the source
	// says it: Go's "x" in import x "path", Python's "as x", a
	// JavaScript namespace or default import. "" otherwise (the module is
	// then known by its last path element).
	Alias string
	// Declares marks an import that names the file's own modules or API
	// rather than what its code uses: a JavaScript export-from, a Rust
	// "mod" declaration or "pub use".
	Declares bool
}

// Name returns the name the import binds the module to in the importing
// file: its Alias, else the last element of its Path (a Go major version
// such as "v2" skipped: example.com/m/v2 is package m).
func (imp Import) Name() string {
	if imp.Alias != "" {
		return imp.Alias
	}
	elems := strings.FieldsFunc(imp.Path, func(r rune) bool { return r == '/' || r == '.' || r == ':' })
	for i := len(elems) - 1; i >= 0; i-- {
		e := elems[i]
		if len(e) > 1 && e[0] == 'v' && strings.Trim(e[1:], "0123456789") == "" && i > 0 {
			continue
		}
		return e
	}
	return ""
}

// ImportTargets returns what the file's top-level imports name, in source
// order.
func (t *Tree) ImportTargets() []Import {
	root := t.root()
	if root == nil {
		return nil
	}
	var out []Import
	for i := 0; i < int(root.NamedChildCount()); i++ {
		n := root.NamedChild(i)
		switch n.Type() {
		case "import_declaration": // Go, Java
			if t.lang == langJava {
				out = append(out, Import{Path: strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(squeeze(t.content(n)), "import")), ";")})
				continue
			}
			t.walkType(n, "import_spec", func(spec *sitter.Node) {
				out = append(out, Import{Path: unquote(t.content(spec.ChildByFieldName("path"))),
					Alias: t.content(spec.ChildByFieldName("name"))})
			})
		case "import_statement":
			if src := n.ChildByFieldName("source"); src != nil { // JavaScript, TypeScript
				out = append(out, Import{Path: unquote(t.content(src)), Names: t.jsNames(n), Alias: t.jsAlias(n)})
				continue
			}
			for _, name := range t.children(n, "name") { // Python
				alias := ""
				if name.Type() == "aliased_import" {
					alias = t.content(name.ChildByFieldName("alias"))
					name = name.ChildByFieldName("name")
				}
				out = append(out, Import{Path: t.content(name), Alias: alias})
			}
		case "import_from_statement":
			imp := Import{Path: strings.ReplaceAll(t.content(n.ChildByFieldName("module_name")), " ", "")}
			for _, name := range t.children(n, "name") {
				if name.Type() == "aliased_import" {
					name = name.ChildByFieldName("name")
				}
				imp.Names = append(imp.Names, t.content(name))
			}
			out = append(out, imp)
		case "export_statement":
			if src := n.ChildByFieldName("source"); src != nil {
				out = append(out, Import{Path: unquote(t.content(src)), Declares: true})
			}
		case "lexical_declaration", "variable_declaration":
			t.walkType(n, "call_expression", func(c *sitter.Node) {
				if t.content(c.ChildByFieldName("function")) != "require" {
					return
				}
				if args := c.ChildByFieldName("arguments"); args != nil && args.NamedChildCount() == 1 &&
					args.NamedChild(0).Type() == "string" {
					out = append(out, Import{Path: unquote(t.content(args.NamedChild(0)))})
				}
			})
		case "use_declaration":
			imps := t.rustUse(n.ChildByFieldName("argument"), "")
			if n.NamedChildCount() > 0 && n.NamedChild(0).Type() == "visibility_modifier" {
				for i := range imps {
					imps[i].Declares = true // pub use: a re-export
				}
			}
			out = append(out, imps...)
		case "mod_item":
			if n.ChildByFieldName("body") == nil {
				out = append(out, Import{Path: "self::" + t.content(n.ChildByFieldName("name")), Declares: true})
			}
		case "preproc_include":
			out = append(out, Import{Path: strings.Trim(t.content(n.ChildByFieldName("path")), "\"<>")})
		}
	}
	return out
}

// rustUse flattens a use tree under prefix into imports.
func (t *Tree) rustUse(n *sitter.Node, prefix string) []Import {
	if n == nil {
		return nil
	}
	join := func(a, b string) string {
		if a == "" {
			return b
		}
		return a + "::" + b
	}
	switch n.Type() {
	case "use_as_clause":
		return t.rustUse(n.ChildByFieldName("path"), prefix)
	case "scoped_use_list":
		base := join(prefix, t.content(n.ChildByFieldName("path")))
		imp := Import{Path: base}
		var nested []Import
		if list := n.ChildByFieldName("list"); list != nil {
			for i := 0; i < int(list.NamedChildCount()); i++ {
				c := list.NamedChild(i)
				switch c.Type() {
				case "identifier", "self":
					imp.Names = append(imp.Names, t.content(c))
				default:
					nested = append(nested, t.rustUse(c, base)...)
				}
			}
		}
		return append([]Import{imp}, nested...)
	case "use_wildcard":
		return []Import{{Path: join(prefix, strings.TrimSuffix(t.content(n), "::*"))}}
	case "scoped_identifier":
		path := n.ChildByFieldName("path")
		return []Import{{Path: join(prefix, t.content(path)), Names: []string{t.content(n.ChildByFieldName("name"))}}}
	}
	return []Import{{Path: join(prefix, t.content(n))}}
}

// jsAlias returns the name a JavaScript import binds to the whole module:
// a namespace import's, or a default import's.
func (t *Tree) jsAlias(n *sitter.Node) string {
	alias := ""
	t.walkType(n, "import_clause", func(c *sitter.Node) {
		for i := 0; i < int(c.NamedChildCount()); i++ {
			switch k := c.NamedChild(i); k.Type() {
			case "identifier":
				alias = t.content(k)
			case "namespace_import":
				if k.NamedChildCount() > 0 {
					alias = t.content(k.NamedChild(0))
				}
			}
		}
	})
	return alias
}

// jsNames returns the names a JavaScript import statement binds from its
// module (named imports by their exported name).
func (t *Tree) jsNames(n *sitter.Node) []string {
	var names []string
	t.walkType(n, "import_specifier", func(s *sitter.Node) {
		names = append(names, t.content(s.ChildByFieldName("name")))
	})
	return names
}

// children returns n's children in field.
func (t *Tree) children(n *sitter.Node, field string) []*sitter.Node {
	var out []*sitter.Node
	for i := 0; i < int(n.ChildCount()); i++ {
		if n.FieldNameForChild(i) == field {
			out = append(out, n.Child(i))
		}
	}
	return out
}

// walkType calls f for every node of type typ under n, in order, not
// descending into matches.
func (t *Tree) walkType(n *sitter.Node, typ string, f func(*sitter.Node)) {
	if n.Type() == typ {
		f(n)
		return
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		t.walkType(n.NamedChild(i), typ, f)
	}
}

func unquote(s string) string {
	return strings.Trim(s, "\"'`")
}

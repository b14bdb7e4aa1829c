package syntax

import sitter "github.com/smacker/go-tree-sitter"

// declaring maps node types that declare local names to the field holding
// the names; "" means the whole node (parameter lists).
var declaring = map[string]string{
	// parameter lists, every language
	"parameter_list": "", "parameters": "", "formal_parameters": "", "lambda_parameters": "", "closure_parameters": "",
	// Go
	"short_var_declaration": "left", "var_spec": "name", "const_spec": "name", "range_clause": "left",
	// Python
	"assignment": "left", "for_statement": "left", "as_pattern": "alias", "for_in_clause": "left",
	// JavaScript and TypeScript
	"variable_declarator": "name", "for_in_statement": "left", "catch_clause": "parameter",
	// Rust
	"let_declaration": "pattern", "for_expression": "pattern",
}

// notNames are the fields under a declaring node that hold types, values
// or objects, never declared names.
var notNames = map[string]bool{"type": true, "value": true, "right": true, "default": true,
	"object": true, "operand": true, "function": true, "return_type": true, "result": true}

// LocalNames returns the names declared inside the outermost function or
// method enclosing off, before off: its parameters (and receiver) and its
// local variables. It returns nil outside any function.
func (t *Tree) LocalNames(off int) []string {
	path := t.scopePath(off)
	var fn *sitter.Node
	for _, n := range path {
		if s, ok := t.scopeOf(n); ok && (s.Kind == KindFunction || s.Kind == KindMethod) {
			fn = n
			break
		}
	}
	if fn == nil {
		return nil
	}
	seen := map[string]bool{}
	var names []string
	var names1 func(n *sitter.Node)
	names1 = func(n *sitter.Node) { // collect identifiers in a declaring position
		switch n.Type() {
		case "identifier", "shorthand_property_identifier_pattern":
			if w := t.content(n); !seen[w] {
				seen[w] = true
				names = append(names, w)
			}
			return
		case "attribute", "member_expression", "selector_expression", "field_expression", "subscript", "index_expression":
			return
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			if !notNames[n.FieldNameForChild(i)] {
				names1(n.Child(i))
			}
		}
	}
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if int(n.StartByte()) >= off {
			return
		}
		if field, ok := declaring[n.Type()]; ok {
			if field == "" {
				names1(n)
			} else {
				for _, c := range t.children(n, field) {
					names1(c)
				}
			}
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(fn)
	return names
}

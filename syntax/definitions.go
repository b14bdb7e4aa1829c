package syntax

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Definition is a top-level function, method or class-like declaration.
type Definition struct {
	Name string
	// Kind is KindFunction, KindMethod or KindClass.
	Kind ScopeKind
	// Signature is the header text, trimmed, with runs of white space made
	// single spaces and none just inside brackets: for example
	// "func (s *Server) Open(ctx context.Context) error" or, in Python,
	// "def f(a, b=1) -> int:". It never includes the body.
	Signature string
	// Span is the whole declaration.
	Span Span
	// Parent names the class, impl or receiver type a method belongs to;
	// "" for functions and classes.
	Parent string
}

// Definitions returns the top-level definitions and the methods of
// top-level classes, impls and traits, in source order.
func (t *Tree) Definitions() []Definition {
	root := t.root()
	if root == nil {
		return nil
	}
	var defs []Definition
	for i := 0; i < int(root.NamedChildCount()); i++ {
		for _, n := range t.unwrap(root.NamedChild(i)) {
			s, ok := t.scopeOf(n)
			if !ok || s.Kind == KindBlock {
				continue
			}
			d := t.definition(s)
			if n.Type() == "method_declaration" && t.lang == langGo {
				d.Parent = t.receiverType(n)
			}
			defs = append(defs, d)
			if s.Kind == KindClass {
				defs = append(defs, t.methods(n, s)...)
			}
		}
	}
	return defs
}

// methods returns the function-like members of class node n, whose scope
// is s, as methods of s.
func (t *Tree) methods(n *sitter.Node, s Scope) []Definition {
	body := n
	if b := n.ChildByFieldName("body"); b != nil {
		body = b
	}
	var defs []Definition
	for i := 0; i < int(body.NamedChildCount()); i++ {
		for _, m := range t.unwrap(body.NamedChild(i)) {
			ms, ok := t.scopeOf(m)
			if !ok || (ms.Kind != KindFunction && ms.Kind != KindMethod) {
				continue
			}
			ms.Kind = KindMethod
			d := t.definition(ms)
			d.Parent = s.Name
			defs = append(defs, d)
		}
	}
	return defs
}

// unwrap returns the definition nodes n stands for: n itself, the
// declaration inside an export statement or decorator, or the functions
// assigned in a variable declaration (const f = () => {}).
func (t *Tree) unwrap(n *sitter.Node) []*sitter.Node {
	if field, ok := t.lang.rules.wrappers[n.Type()]; ok {
		if inner := n.ChildByFieldName(field); inner != nil {
			return t.unwrap(inner)
		}
		return nil
	}
	switch n.Type() {
	case "type_declaration": // Go: type ( A struct{}; B interface{} )
		var specs []*sitter.Node
		for i := 0; i < int(n.NamedChildCount()); i++ {
			specs = append(specs, n.NamedChild(i))
		}
		return specs
	case "lexical_declaration", "variable_declaration":
		var fns []*sitter.Node
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if v := n.NamedChild(i).ChildByFieldName("value"); v != nil {
				fns = append(fns, v)
			}
		}
		return fns
	}
	return []*sitter.Node{n}
}

// definition turns a declaration scope into a Definition.
func (t *Tree) definition(s Scope) Definition {
	src := t.src.String()
	header := src[s.Header.Start:s.Header.End]
	if s.Body == (Span{}) {
		header = strings.TrimSuffix(strings.TrimSpace(header), ";")
	}
	return Definition{Name: s.Name, Kind: s.Kind, Signature: squeeze(header), Span: s.Span}
}

// squeeze trims s, turns each run of white space into one space and drops
// spaces just inside parentheses and brackets.
func squeeze(s string) string {
	return bracketSpaces.Replace(strings.Join(strings.Fields(s), " "))
}

// bracketSpaces drops the spaces just inside brackets; built once, as a
// Replacer is costly to build and safe for concurrent use.
var bracketSpaces = strings.NewReplacer("( ", "(", " )", ")", "[ ", "[", " ]", "]")

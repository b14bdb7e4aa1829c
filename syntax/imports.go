package syntax

import "strings"

// Imports returns the spans of the file's import section(s): Go import
// declarations, Python import statements, JavaScript and TypeScript import
// statements, Rust use declarations, C #include lines, Java package and
// import declarations. Only top-level ones count. Imports separated only by
// white space or comments are merged into one span; spans end at the last
// import's last non-space byte.
func (t *Tree) Imports() []Span {
	root := t.root()
	if root == nil {
		return nil
	}
	imports, comments := t.lang.rules.imports, t.lang.rules.comments
	var spans []Span
	open := false // the last span may still grow
	for i := 0; i < int(root.NamedChildCount()); i++ {
		n := root.NamedChild(i)
		switch typ := n.Type(); {
		case imports[typ]:
			s := spanOf(n)
			s.End = s.Start + len(strings.TrimRight(t.src.String()[s.Start:s.End], " \t\r\n"))
			if open {
				spans[len(spans)-1].End = s.End
			} else {
				spans = append(spans, s)
				open = true
			}
		case comments[typ]:
			// A comment between two imports joins them.
		default:
			open = false
		}
	}
	return spans
}

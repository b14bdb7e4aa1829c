package gather

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/workspace"
)

// ModuleLister is a Resolver that also lists the files a file could
// import and does not yet (*workspace.Index implements it).
type ModuleLister interface {
	Unnamed(fromPath string, named []syntax.Import, anchor syntax.Import, max int) []workspace.Module
}

// maxModules bounds the files the listing of modules not yet imported
// reads.
const maxModules = 32

// Import statements, as one line of them names their module, and the
// statements that declare a file's modules rather than import what its
// code uses: re-exports, Rust's module declarations. They read the lines
// being typed, which the syntax tree may not parse yet.
var (
	jsImportSpec  = regexp.MustCompile(`(?:\bfrom|^\s*import|\brequire\()\s*['"]([^'"]+)['"]`)
	pyImportSpec  = regexp.MustCompile(`^\s*(?:from\s+(\.+[\w.]*|[\w.]+)\s+import\b|import\s+([\w.]+))`)
	rustModSpec   = regexp.MustCompile(`^\s*(?:pub(?:\([^)]*\))?\s+)?(?:mod\s+(\w+)\s*;|use\s+((?:crate|self|super)(?:::\w+)*))`)
	jsOpenExport  = regexp.MustCompile(`^\s*export\s*(?:type\s*)?\{[^}'"]*$`)
	jsListNames   = regexp.MustCompile(`[A-Za-z_$][\w$]*`)
	jsReExport    = regexp.MustCompile(`^\s*(?:\}|export\s*(?:type\s*)?[{*])`)
	rustDeclaring = regexp.MustCompile(`^\s*(?:pub(?:\([^)]*\))?\s+(?:use|mod)|mod)\b`)
)

// maxImportScanLines bounds how far above the cursor importAbove looks.
const maxImportScanLines = 40

// modules returns, within tokens, when the cursor is among statements
// that declare the file's modules (an index file's re-exports, a Rust
// "mod" list, an __init__.py's imports), one piece listing the files the
// file could name and does not yet, each with the names it exports, the
// files after the one named above the cursor first: what comes next.
func (g *gatherer) modules(tokens int) []Piece {
	ml, ok := g.in.Workspace.(ModuleLister)
	if !ok || tokens <= 0 {
		return nil
	}
	anchor, declaring := g.importAbove()
	if !declaring {
		return nil
	}
	comment := g.commentPrefix()
	var b strings.Builder
	for _, m := range ml.Unnamed(g.in.Path, g.declaredModules(), anchor, maxModules) {
		line := comment + m.Spec
		if len(m.Names) > 0 {
			line += ": " + strings.Join(m.Names, ", ")
		}
		if b.Len() == 0 {
			line = comment + "Not imported yet:\n" + line
		} else {
			line = "\n" + line
		}
		if Estimate(b.String()+line) > tokens {
			break
		}
		b.WriteString(line)
	}
	if b.Len() == 0 {
		return nil
	}
	return []Piece{newPiece("modules", "the files this file could import and does not yet", g.in.Path, b.String(), syntax.Span{})}
}

// importAbove returns the import being written at the cursor: the
// module the nearest import statement above the cursor (or on its line,
// before it) names; for a JavaScript export list still open, the names
// it lists so far; the zero Import when none is within
// maxImportScanLines; and whether the cursor is among
// statements declaring the file's modules: its line, or that import's,
// is a re-export or a Rust module declaration, or the file is a Python
// package's __init__.py and the cursor is in its imports.
func (g *gatherer) importAbove() (anchor syntax.Import, declaring bool) {
	if g.lang == nil {
		return syntax.Import{}, false
	}
	s := g.doc.String()
	cl := g.doc.LineOf(g.cursor)
	lineAt := func(l int) string {
		return s[g.doc.LineStart(l):min(g.doc.LineEnd(l), max(g.cursor, g.doc.LineStart(l)))]
	}
	for l := cl; l >= 0 && l > cl-maxImportScanLines; l-- {
		line := lineAt(l)
		switch g.lang.Name {
		case "typescript", "javascript", "tsx":
			declaring = declaring || l == cl && jsReExport.MatchString(line)
			if m := jsImportSpec.FindStringSubmatch(line); m != nil {
				return syntax.Import{Path: m[1]}, declaring || jsReExport.MatchString(line)
			}
			// An export list still open: it names no module yet, and
			// the names it lists so far say which.
			if jsOpenExport.MatchString(line) {
				var names []string
				for k := l; k <= cl; k++ {
					for _, n := range jsListNames.FindAllString(lineAt(k), -1) {
						if n != "export" && n != "type" && n != "as" && n != "default" {
							names = append(names, n)
						}
					}
				}
				return syntax.Import{Names: names}, true
			}
		case "python":
			if m := pyImportSpec.FindStringSubmatch(line); m != nil {
				return syntax.Import{Path: m[1] + m[2]}, filepath.Base(g.in.Path) == "__init__.py"
			}
		case "rust":
			declaring = declaring || l == cl && rustDeclaring.MatchString(line)
			if m := rustModSpec.FindStringSubmatch(line); m != nil {
				if m[1] != "" {
					return syntax.Import{Path: "self::" + m[1]}, true
				}
				return syntax.Import{Path: m[2]}, declaring || rustDeclaring.MatchString(line)
			}
		}
	}
	return syntax.Import{}, declaring
}

// declaredModules returns the imports of the file that declare its own
// modules or API (syntax.Import.Declares: re-exports, Rust module
// declarations and public uses), and in a Python package's __init__.py
// all of them, as the syntax tree reads them.
func (g *gatherer) declaredModules() []syntax.Import {
	if g.in.Tree == nil {
		return nil
	}
	pkgInit := filepath.Base(g.in.Path) == "__init__.py"
	return slices.DeleteFunc(g.in.Tree.ImportTargets(), func(imp syntax.Import) bool { return !imp.Declares && !pkgInit })
}

// ExpectFinder is a Resolver that also says what other files take from a
// file that it does not define (*workspace.Index implements it).
type ExpectFinder interface {
	Expected(fromPath string, max int) []string
}

// maxExpected bounds the names the listing of what other files expect
// of this one reads.
const maxExpected = 40

// expected returns, within tokens, one piece naming what other files
// import from this one, or use after its name, that it does not define
// and its text does not name: what the code being written here is
// expected to provide.
func (g *gatherer) expected(tokens int) []Piece {
	ef, ok := g.in.Workspace.(ExpectFinder)
	if !ok || tokens <= 0 {
		return nil
	}
	// A name the buffer holds is defined or used here already, whatever
	// the index read of it while the text is broken mid-edit.
	src := g.doc.String()
	names := slices.DeleteFunc(ef.Expected(g.in.Path, maxExpected), func(n string) bool { return containsWord(src, n) })
	head := g.commentPrefix() + "Other files use from this one and it does not define: "
	for len(names) > 0 && Estimate(head+strings.Join(names, ", ")) > tokens {
		names = names[:len(names)-1]
	}
	if len(names) == 0 {
		return nil
	}
	return []Piece{newPiece("expected", "what other files take from this one and it does not define", g.in.Path, head+strings.Join(names, ", "), syntax.Span{})}
}

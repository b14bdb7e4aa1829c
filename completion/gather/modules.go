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
// code uses: re-exports, Rust's module declarations.
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
	var names []string // of an export list being written, in order
	for l := cl; l >= 0 && l > cl-maxImportScanLines; l-- {
		line := s[g.doc.LineStart(l):min(g.doc.LineEnd(l), max(g.cursor, g.doc.LineStart(l)))]
		switch g.lang.Name {
		case "typescript", "javascript", "tsx":
			declaring = declaring || l == cl && jsReExport.MatchString(line)
			if m := jsImportSpec.FindStringSubmatch(line); m != nil {
				return syntax.Import{Path: m[1]}, declaring || jsReExport.MatchString(line)
			}
			// An export list still open: it names no module yet, and
			// the names it lists so far say which.
			names = append(jsListNames.FindAllString(line, -1), names...)
			if jsOpenExport.MatchString(line) {
				names = slices.DeleteFunc(names, func(n string) bool { return n == "export" || n == "type" || n == "as" || n == "default" })
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

// declaredModules returns the modules the file's declaring statements
// (re-exports, Rust module declarations and public uses, an
// __init__.py's imports) name, the cursor's line left out: it is being
// written.
func (g *gatherer) declaredModules() []syntax.Import {
	var out []syntax.Import
	s := g.doc.String()
	cl := g.doc.LineOf(g.cursor)
	exporting := false // within a JavaScript export statement
	for l := range g.doc.LineCount() {
		line := s[g.doc.LineStart(l):g.doc.LineEnd(l)]
		if l == cl {
			exporting = false
			continue
		}
		switch g.lang.Name {
		case "typescript", "javascript", "tsx":
			if strings.HasPrefix(strings.TrimSpace(line), "export") {
				exporting = true
			} else if strings.HasPrefix(strings.TrimSpace(line), "import") {
				exporting = false
			}
			if m := jsImportSpec.FindStringSubmatch(line); m != nil {
				if exporting {
					out = append(out, syntax.Import{Path: m[1]})
				}
				exporting = false
			}
		case "python":
			if m := pyImportSpec.FindStringSubmatch(line); m != nil {
				out = append(out, syntax.Import{Path: m[1] + m[2]})
			}
		case "rust":
			if m := rustModSpec.FindStringSubmatch(line); m != nil && rustDeclaring.MatchString(line) {
				if m[1] != "" {
					out = append(out, syntax.Import{Path: "self::" + m[1]})
				} else {
					out = append(out, syntax.Import{Path: m[2]})
				}
			}
		}
	}
	return out
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

package gather

import (
	"regexp"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/workspace"
)

// ModuleResolver is a Resolver that also lists a module's top-level
// definitions as an import names it (*workspace.Index implements it).
type ModuleResolver interface {
	ModuleSymbols(fromPath string, imp syntax.Import, max int) []workspace.Symbol
}

// maxModuleSymbols bounds the definitions of the module an import being
// written names.
const maxModuleSymbols = 12

// Import statements that name their module where the cursor may be
// among the names they bring.
var (
	// Python: "from M import a, b‸", or "from M‸".
	pyFromImport = regexp.MustCompile(`^\s*from\s+(\.*[\w.]*)\s+import\b|^\s*from\s+(\.*[\w.]+)$`)
	// TypeScript, JavaScript: "import {a, b‸} from './m'" (the module
	// after the cursor, on its line).
	jsBraceImport = regexp.MustCompile(`^\s*(?:import|export)\s+(?:type\s+)?\{[^}'"]*$`)
	jsFromSpec    = regexp.MustCompile(`\bfrom\s*['"]([^'"]+)['"]`)
	// Rust: "use crate::m::{a, b‸" or "use crate::m::‸".
	rustUsePath = regexp.MustCompile(`^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+((?:crate|self|super)(?:::\w+)*)::(?:\{[^}]*)?$`)
)

// importAtCursor returns the import whose names the cursor is among, as
// the cursor's line says it, and whether there is one. named is unset
// when the cursor ends the module's name (Python's "from M‸"): the word
// before it is the module's, not a name being typed.
func (g *gatherer) importAtCursor() (imp syntax.Import, named, ok bool) {
	if g.lang == nil {
		return syntax.Import{}, false, false
	}
	line := g.doc.LineOf(g.cursor)
	s := g.doc.String()
	before, after := s[g.doc.LineStart(line):g.cursor], s[g.cursor:max(g.cursor, g.doc.LineEnd(line))]
	switch g.lang.Name {
	case "python":
		if m := pyFromImport.FindStringSubmatch(strings.TrimRight(before, " ")); m != nil && m[1]+m[2] != "" {
			return syntax.Import{Path: m[1] + m[2]}, m[1] != "", true
		}
	case "typescript", "javascript", "tsx":
		if jsBraceImport.MatchString(before) {
			if m := jsFromSpec.FindStringSubmatch(after); m != nil {
				return syntax.Import{Path: m[1]}, true, true
			}
		}
	case "rust":
		// The word being typed is not part of the path.
		word := strings.TrimRightFunc(before, func(r rune) bool { return r < 128 && isIdentPart(byte(r)) })
		if m := rustUsePath.FindStringSubmatch(word); m != nil {
			return syntax.Import{Path: m[1]}, true, true
		}
	}
	return syntax.Import{}, false, false
}

// moduleSymbols returns the definitions of the module the import at the
// cursor names that the word being typed may become, in the module's
// order.
func (g *gatherer) moduleSymbols(typing string) []workspace.Symbol {
	mr, ok := g.in.Workspace.(ModuleResolver)
	if !ok {
		return nil
	}
	imp, named, ok := g.importAtCursor()
	if !ok {
		return nil
	}
	if !named {
		typing = ""
	}
	var out []workspace.Symbol
	for _, s := range mr.ModuleSymbols(g.in.Path, imp, maxModuleSymbols*4) {
		if strings.HasPrefix(s.Name, typing) && len(out) < maxModuleSymbols {
			out = append(out, s)
		}
	}
	return out
}

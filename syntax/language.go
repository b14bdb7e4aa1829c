package syntax

import (
	"path/filepath"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// Language is a grammar wisp can parse, with its pool of parsers and the
// node-type tables that answer structural questions. Languages are created
// once, at package initialisation, and are immutable afterwards; compare
// them by pointer.
type Language struct {
	name    string
	grammar *sitter.Language
	// parsers reuses parsers set to grammar; never nil.
	parsers *parserPool
	// rules is the language's node-type table (see rules.go); never nil.
	rules *rules
}

// Name returns the language's short name: "go", "python", "javascript",
// "typescript", "tsx", "rust", "c" or "java".
func (l *Language) Name() string { return l.name }

// String returns Name, so a *Language prints readably.
func (l *Language) String() string { return l.name }

func newLanguage(name string, grammar *sitter.Language, r *rules) *Language {
	return &Language{name: name, grammar: grammar, rules: r, parsers: newParserPool(grammar)}
}

var (
	langGo         = newLanguage("go", golang.GetLanguage(), goRules)
	langPython     = newLanguage("python", python.GetLanguage(), pythonRules)
	langJavaScript = newLanguage("javascript", javascript.GetLanguage(), javascriptRules)
	langTypeScript = newLanguage("typescript", typescript.GetLanguage(), typescriptRules)
	langTSX        = newLanguage("tsx", tsx.GetLanguage(), typescriptRules)
	langRust       = newLanguage("rust", rust.GetLanguage(), rustRules)
	langC          = newLanguage("c", c.GetLanguage(), cRules)
	langJava       = newLanguage("java", java.GetLanguage(), javaRules)

	// languages lists every language in a stable order; immutable.
	languages = []*Language{langGo, langPython, langJavaScript, langTypeScript, langTSX, langRust, langC, langJava}

	// byLanguageID maps LSP languageId values to languages; immutable.
	byLanguageID = map[string]*Language{
		"go": langGo, "python": langPython,
		"javascript": langJavaScript, "javascriptreact": langJavaScript, "jsx": langJavaScript,
		"typescript": langTypeScript, "typescriptreact": langTSX, "tsx": langTSX,
		"rust": langRust, "c": langC, "java": langJava,
	}

	// byExtension maps lower-case file extensions to languages; immutable.
	byExtension = map[string]*Language{
		".go": langGo, ".py": langPython, ".pyi": langPython,
		".js": langJavaScript, ".mjs": langJavaScript, ".cjs": langJavaScript, ".jsx": langJavaScript,
		".ts": langTypeScript, ".mts": langTypeScript, ".cts": langTypeScript, ".tsx": langTSX,
		".rs": langRust, ".c": langC, ".h": langC, ".java": langJava,
	}
)

// Detect returns the language for an LSP languageId or, when the id is
// empty or unknown, for path's extension. It returns nil when neither names
// a supported language; callers then work on plain text.
func Detect(languageID, path string) *Language {
	if l, ok := byLanguageID[strings.ToLower(languageID)]; ok {
		return l
	}
	return byExtension[strings.ToLower(filepath.Ext(path))]
}

// Languages returns every supported language. The slice is the caller's.
func Languages() []*Language {
	return append([]*Language(nil), languages...)
}

package syntax

import (
	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"

	"github.com/wisp-lsp/wisp/lang"
)

// Language is a grammar wisp can parse, with its pool of parsers and the
// node-type tables that answer structural questions. Languages are created
// once, at package initialisation, and are immutable afterwards; compare
// them by pointer.
type Language struct {
	// facts is the language's row in the language table; never nil.
	facts   *lang.Language
	grammar *sitter.Language
	// parsers reuses parsers set to grammar; never nil.
	parsers *parserPool
	// rules is the language's node-type table (see rules.go); never nil.
	rules *rules
}

// Name returns the language's short name, its row's in the language table:
// "go", "python", "javascript", "typescript", "tsx", "rust", "c" or "java".
func (l *Language) Name() string { return l.facts.Name }

// Facts returns the language's row in the language table: comments,
// brackets, quotes, indentation.
func (l *Language) Facts() *lang.Language { return l.facts }

// String returns Name, so a *Language prints readably.
func (l *Language) String() string { return l.Name() }

// grammars pairs each language table row wisp can parse with its
// tree-sitter grammar and node-type table: the per-language part that needs
// cgo. Adding a language is a row in the table and an entry here.
var grammars = map[string]struct {
	grammar *sitter.Language
	rules   *rules
}{
	"go":         {golang.GetLanguage(), goRules},
	"python":     {python.GetLanguage(), pythonRules},
	"javascript": {javascript.GetLanguage(), javascriptRules},
	"typescript": {typescript.GetLanguage(), typescriptRules},
	"tsx":        {tsx.GetLanguage(), typescriptRules},
	"rust":       {rust.GetLanguage(), rustRules},
	"c":          {c.GetLanguage(), cRules},
	"java":       {java.GetLanguage(), javaRules},
}

var (
	// languages lists every language with a grammar in the table's order;
	// immutable.
	languages []*Language
	// byName maps table names to languages; immutable.
	byName = map[string]*Language{}
	// The languages whose node rules the code names; set by init.
	langGo, langPython, langC, langJava *Language
)

func init() {
	for _, row := range lang.All() {
		g, ok := grammars[row.Name]
		if !ok {
			continue
		}
		l := &Language{facts: row, grammar: g.grammar, rules: g.rules, parsers: newParserPool(g.grammar)}
		languages = append(languages, l)
		byName[row.Name] = l
	}
	langGo, langPython, langC, langJava = byName["go"], byName["python"], byName["c"], byName["java"]
}

// Detect returns the language for an LSP languageId or, when the id is
// empty or unknown, for path's extension (lang.Detect). It returns nil
// when neither names a language wisp can parse; callers then work on plain
// text.
func Detect(languageID, path string) *Language {
	if row := lang.Detect(languageID, path); row != nil {
		return byName[row.Name]
	}
	return nil
}

// Languages returns every supported language. The slice is the caller's.
func Languages() []*Language {
	return append([]*Language(nil), languages...)
}

package lang

import (
	"path/filepath"
	"strings"
)

// Language is one row of the table: the facts about a language that wisp's
// parts share. Rows are created at package initialisation and are
// immutable afterwards; compare them by pointer.
type Language struct {
	// Name is the short name, also the key of the language's grammar in
	// the syntax package: "go", "python", "typescript", ...
	Name string
	// IDs are the LSP languageId values that name the language, lower case.
	IDs []string
	// Extensions are the file extensions that name it, lower case with the
	// dot.
	Extensions []string

	// LineComment starts a comment that runs to the end of the line.
	LineComment string
	// BlockComment opens and closes a block comment; both "" when the
	// language has none.
	BlockComment [2]string
	// Brackets are the bracket pairs, each opener followed by its closer.
	Brackets string
	// Quotes are the string delimiters, longest first, so """ is tried
	// before ". A one-byte quote other than ` does not span lines.
	Quotes []string
	// Lifetimes: a lone ' is a lifetime ('a), not a quote, unless it
	// closes a one-character literal (Rust).
	Lifetimes bool

	// IndentBlocks: blocks end by dedenting, not with a closing bracket
	// (Python).
	IndentBlocks bool
	// Indent is the indentation unit assumed when a file shows none.
	Indent string
	// FlatCases: the case labels of a switch sit at the switch's own
	// level, not one deeper (gofmt).
	FlatCases bool

	// Keywords are the reserved words that carry a program's structure
	// (the local engine keeps them apart from the program's own names).
	Keywords []string
	// Predeclared are the other names no definition of the user's can
	// explain: the reserved words Keywords leaves out, built-in types,
	// constants and functions, the receiver's conventional name.
	Predeclared []string
}

// String returns Name.
func (l *Language) String() string { return l.Name }

// IsLineComment reports whether line, its indentation aside, is a line
// comment of l and nothing else. A nil l, or one without line comments,
// has none.
func (l *Language) IsLineComment(line string) bool {
	return l != nil && l.LineComment != "" && strings.HasPrefix(strings.TrimSpace(line), l.LineComment)
}

// Closer returns the bracket that closes open, and whether open is an
// opening bracket of l.
func (l *Language) Closer(open byte) (byte, bool) {
	for i := 0; i+1 < len(l.Brackets); i += 2 {
		if l.Brackets[i] == open {
			return l.Brackets[i+1], true
		}
	}
	return 0, false
}

// IsCloser reports whether c closes one of l's brackets.
func (l *Language) IsCloser(c byte) bool {
	for i := 1; i < len(l.Brackets); i += 2 {
		if l.Brackets[i] == c {
			return true
		}
	}
	return false
}

// All returns every row, in the table's order. The slice is the caller's.
func All() []*Language { return append([]*Language(nil), table...) }

// ByName returns the row named name, or nil.
func ByName(name string) *Language { return byName[name] }

// Detect returns the language an LSP languageId names or, when the id is
// empty or unknown, the one path's extension names; nil when neither
// names a language in the table.
func Detect(languageID, path string) *Language {
	if l, ok := byID[strings.ToLower(languageID)]; ok {
		return l
	}
	return byExtension[strings.ToLower(filepath.Ext(path))]
}

// Indexes of the table, built once at initialisation; immutable.
var byName, byID, byExtension = func() (names, ids, exts map[string]*Language) {
	names, ids, exts = map[string]*Language{}, map[string]*Language{}, map[string]*Language{}
	for _, l := range table {
		names[l.Name] = l
		for _, id := range l.IDs {
			ids[id] = l
		}
		for _, e := range l.Extensions {
			exts[e] = l
		}
	}
	return names, ids, exts
}()

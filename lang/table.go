package lang

// What C-family languages share: the three bracket pairs and /* */
// comments.
const cBrackets = "()[]{}"

var cBlockComment = [2]string{"/*", "*/"}

// jsKeywords are the structural keywords of JavaScript and its dialects.
var jsKeywords = []string{
	"function", "return", "if", "else", "for", "while", "class", "import", "from", "export",
	"let", "const", "var", "new", "static", "throw", "catch", "try", "finally", "switch", "case",
	"default", "break", "continue", "true", "false", "null", "async", "await", "yield", "in",
}

// tsKeywords adds what TypeScript declares besides.
var tsKeywords = append(append([]string(nil), jsKeywords...), "type", "interface", "public", "private", "protected")

// jsPredeclared are JavaScript's other reserved words and built-in
// names; tsPredeclared adds TypeScript's built-in types.
var (
	jsPredeclared = []string{"delete", "do", "extends", "instanceof", "of", "this", "typeof", "void", "undefined"}
	tsPredeclared = append(append([]string(nil), jsPredeclared...), "number", "boolean")
)

// Plain is what is assumed of a language the table does not know:
// C-like comments and quotes, four-space indents.
var Plain = &Language{
	Name: "", LineComment: "//", BlockComment: cBlockComment, Brackets: cBrackets,
	Quotes: []string{`"`, `'`, "`"}, Indent: "    ",
}

// table is every language, in a stable order; immutable.
var table = []*Language{
	{
		Name: "go", IDs: []string{"go"}, Extensions: []string{".go"},
		LineComment: "//", BlockComment: cBlockComment, Brackets: cBrackets,
		Quotes: []string{`"`, `'`, "`"},
		Indent: "\t", FlatCases: true,
		Keywords: []string{
			"func", "return", "if", "else", "for", "package", "import", "var", "const", "type",
			"struct", "interface", "switch", "case", "default", "break", "continue", "go", "defer",
			"select", "range", "map", "chan", "true", "false", "nil",
		},
		Predeclared: []string{
			"fallthrough", "goto", "string", "int", "bool", "error", "byte", "rune", "any",
			"len", "cap", "make", "new", "append",
		},
	},
	{
		Name: "python", IDs: []string{"python"}, Extensions: []string{".py", ".pyi"},
		LineComment: "#", Brackets: cBrackets,
		Quotes:       []string{`"""`, `'''`, `"`, `'`},
		IndentBlocks: true, Indent: "    ",
		Keywords: []string{
			"def", "class", "return", "if", "else", "for", "while", "import", "from", "in", "not",
			"and", "or", "is", "with", "as", "try", "except", "finally", "raise", "yield", "async",
			"await", "lambda", "pass", "break", "continue", "None", "True", "False",
		},
		Predeclared: []string{"assert", "del", "elif", "global", "nonlocal", "self"},
	},
	{
		Name: "javascript", IDs: []string{"javascript", "javascriptreact", "jsx"},
		Extensions:  []string{".js", ".mjs", ".cjs", ".jsx"},
		LineComment: "//", BlockComment: cBlockComment, Brackets: cBrackets,
		Quotes: []string{`"`, `'`, "`"}, Indent: "  ", Keywords: jsKeywords, Predeclared: jsPredeclared,
	},
	{
		Name: "typescript", IDs: []string{"typescript"}, Extensions: []string{".ts", ".mts", ".cts"},
		LineComment: "//", BlockComment: cBlockComment, Brackets: cBrackets,
		Quotes: []string{`"`, `'`, "`"}, Indent: "  ", Keywords: tsKeywords, Predeclared: tsPredeclared,
	},
	{
		Name: "tsx", IDs: []string{"typescriptreact", "tsx"}, Extensions: []string{".tsx"},
		LineComment: "//", BlockComment: cBlockComment, Brackets: cBrackets,
		Quotes: []string{`"`, `'`, "`"}, Indent: "  ", Keywords: tsKeywords, Predeclared: tsPredeclared,
	},
	{
		Name: "rust", IDs: []string{"rust"}, Extensions: []string{".rs"},
		LineComment: "//", BlockComment: cBlockComment, Brackets: cBrackets,
		Quotes: []string{`"`, `'`}, Lifetimes: true, Indent: "    ",
		Keywords: []string{
			"fn", "pub", "impl", "use", "mod", "match", "struct", "type", "const", "let", "static",
			"return", "if", "else", "for", "while", "in", "as", "async", "await", "break",
			"continue", "true", "false",
		},
		Predeclared: []string{
			"crate", "enum", "loop", "move", "mut", "ref", "Self", "trait", "unsafe", "where",
			"u8", "u32", "u64", "i32", "i64", "usize", "str", "String", "Vec", "Option", "Some",
			"Ok", "Err",
		},
	},
	{
		Name: "c", IDs: []string{"c"}, Extensions: []string{".c", ".h"},
		LineComment: "//", BlockComment: cBlockComment, Brackets: cBrackets,
		Quotes: []string{`"`, `'`}, Indent: "    ",
		Keywords: []string{
			"return", "if", "else", "for", "while", "struct", "switch", "case", "default", "break",
			"continue", "const", "static", "void",
		},
	},
	{
		Name: "java", IDs: []string{"java"}, Extensions: []string{".java"},
		LineComment: "//", BlockComment: cBlockComment, Brackets: cBrackets,
		Quotes: []string{`"""`, `"`, `'`}, Indent: "    ",
		Keywords: []string{
			"class", "interface", "package", "import", "public", "private", "protected", "static",
			"void", "new", "return", "if", "else", "for", "while", "switch", "case", "default",
			"break", "continue", "try", "catch", "finally", "throw", "true", "false", "null",
		},
	},
}

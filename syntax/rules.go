package syntax

// rules is one language's node-type table: which tree-sitter node types
// are scopes, blocks, imports, strings and comments. With the grammar they
// are the only per-language knowledge in the package (the rest is the
// language's row in the lang table); the code that reads them is shared.
// All fields are immutable after initialisation.
type rules struct {
	// scopes maps node types to the scope they form.
	scopes map[string]scopeRule
	// blocks are the node types of statement blocks. A block that is not
	// the body of a function, method or class is a "block" scope owned by
	// its parent statement (if, for, while, try, ...).
	blocks set
	// imports are the top-level node types that make up the import section.
	imports set
	// strings and comments are the literal node types; codeInString are
	// nodes inside a string that hold code again (interpolations).
	strings, comments, codeInString set
	// wrappers are node types that wrap one top-level definition without
	// being one (export statements, decorators).
	wrappers map[string]string // node type → field holding the definition
	// attributes are node types that stand between a definition and its
	// doc comment as siblings (Rust's #[derive(…)]).
	attributes set
}

// scopeRule says what scope a node type forms.
type scopeRule struct {
	kind ScopeKind
	// typeField, when set, restricts the rule to nodes whose "type" field
	// is one of these node types (Go: only struct and interface type specs
	// are classes).
	typeField set
	// needsBody restricts the rule to nodes with a body (C: a struct
	// specifier with fields, not a use of a struct type).
	needsBody bool
	// wrapper, when set, names the parent node type that the scope spans
	// when the node is its parent's only named child (Go: a type spec in
	// its own type declaration, so the header reads "type T struct").
	wrapper string
}

// set is a set of node types.
type set map[string]bool

func newSet(types ...string) set {
	s := make(set, len(types))
	for _, t := range types {
		s[t] = true
	}
	return s
}

var (
	fn     = scopeRule{kind: KindFunction}
	method = scopeRule{kind: KindMethod}
	class  = scopeRule{kind: KindClass}
)

var goRules = &rules{
	scopes: map[string]scopeRule{
		"function_declaration": fn,
		"method_declaration":   method,
		"func_literal":         fn,
		"type_spec": {kind: KindClass, wrapper: "type_declaration",
			typeField: newSet("struct_type", "interface_type")},
	},
	blocks:   newSet("block"),
	imports:  newSet("import_declaration"),
	strings:  newSet("interpreted_string_literal", "raw_string_literal", "rune_literal"),
	comments: newSet("comment"),
}

var pythonRules = &rules{
	scopes: map[string]scopeRule{
		"function_definition": fn,
		"class_definition":    class,
	},
	blocks:       newSet("block"),
	imports:      newSet("import_statement", "import_from_statement", "future_import_statement"),
	strings:      newSet("string", "concatenated_string"),
	codeInString: newSet("interpolation"),
	comments:     newSet("comment"),
	wrappers:     map[string]string{"decorated_definition": "definition"},
}

// javascriptRules serves JavaScript and JSX.
var javascriptRules = &rules{
	scopes: map[string]scopeRule{
		"function_declaration":           fn,
		"generator_function_declaration": fn,
		"function_expression":            fn,
		"function":                       fn,
		"generator_function":             fn,
		"arrow_function":                 fn,
		"method_definition":              method,
		"class_declaration":              class,
		"class":                          class,
	},
	blocks:       newSet("statement_block"),
	imports:      newSet("import_statement"),
	strings:      newSet("string", "template_string", "regex"),
	codeInString: newSet("template_substitution"),
	comments:     newSet("comment"),
	wrappers:     map[string]string{"export_statement": "declaration"},
}

// typescriptRules serves TypeScript and TSX: JavaScript's rules plus the
// declarations only TypeScript has.
var typescriptRules = javascriptRules.with(map[string]scopeRule{
	"function_signature":         fn,
	"method_signature":           method,
	"abstract_method_signature":  method,
	"abstract_class_declaration": class,
	"interface_declaration":      class,
	"enum_declaration":           class,
})

// with returns a copy of r whose scopes also hold extra.
func (r *rules) with(extra map[string]scopeRule) *rules {
	c := *r
	c.scopes = make(map[string]scopeRule, len(r.scopes)+len(extra))
	for k, v := range r.scopes {
		c.scopes[k] = v
	}
	for k, v := range extra {
		c.scopes[k] = v
	}
	return &c
}

var rustRules = &rules{
	scopes: map[string]scopeRule{
		"function_item":           fn,
		"function_signature_item": fn,
		"closure_expression":      fn,
		"struct_item":             class,
		"enum_item":               class,
		"union_item":              class,
		"trait_item":              class,
		"impl_item":               class,
	},
	blocks:     newSet("block"),
	imports:    newSet("use_declaration", "extern_crate_declaration"),
	strings:    newSet("string_literal", "raw_string_literal", "char_literal"),
	comments:   newSet("line_comment", "block_comment"),
	attributes: newSet("attribute_item"),
}

var cRules = &rules{
	scopes: map[string]scopeRule{
		"function_definition": fn,
		"struct_specifier":    {kind: KindClass, needsBody: true},
		"union_specifier":     {kind: KindClass, needsBody: true},
		"enum_specifier":      {kind: KindClass, needsBody: true},
	},
	blocks:   newSet("compound_statement"),
	imports:  newSet("preproc_include"),
	strings:  newSet("string_literal", "char_literal", "system_lib_string", "raw_string_literal"),
	comments: newSet("comment"),
}

var javaRules = &rules{
	scopes: map[string]scopeRule{
		"method_declaration":              method,
		"constructor_declaration":         method,
		"compact_constructor_declaration": method,
		"lambda_expression":               fn,
		"class_declaration":               class,
		"interface_declaration":           class,
		"enum_declaration":                class,
		"record_declaration":              class,
		"annotation_type_declaration":     class,
	},
	blocks:   newSet("block"),
	imports:  newSet("import_declaration", "package_declaration"),
	strings:  newSet("string_literal", "character_literal", "text_block"),
	comments: newSet("line_comment", "block_comment"),
}

package main

import (
	"regexp"
	"strings"
)

// boundLocally returns the names a file binds inside its code rather than
// defines for other files to use: parameters (of functions, methods,
// closures, lambdas), generic type parameters, local variables, loop and
// pattern bindings, caught exceptions. A continuation using such a name
// (a parameter "loose", a generic "T") means the file's own binding, so
// definition presence must not ask for another file's definition of it.
// Like definitions, it reads the code by patterns, independent of wisp's
// parser; it errs towards binding names, so a name it misses only keeps a
// case that counted before.
func boundLocally(lang, src string, mask []byte) map[string]bool {
	b := []byte(src)
	for i := range b {
		if mask[i] != code && b[i] != '\n' {
			b[i] = ' ' // comments and strings bind nothing
		}
	}
	code := string(b)
	out := make(map[string]bool)
	for _, p := range localPatterns[lang] {
		for _, m := range p.re.FindAllStringSubmatch(code, -1) {
			for _, n := range p.names(m[1]) {
				if n != "" && !vocabulary[lang][n] {
					out[n] = true
				}
			}
		}
	}
	return out
}

// localPattern finds binding sites; names reads the bound names out of
// the first group.
type localPattern struct {
	re    *regexp.Regexp
	names func(string) []string
}

func pat(re string, names func(string) []string) localPattern {
	return localPattern{regexp.MustCompile(re), names}
}

// one binds the group itself.
func one(s string) []string { return []string{strings.TrimSpace(s)} }

var (
	identRe = regexp.MustCompile(`[A-Za-z_$][\w$]*`)
	// paramMods are the words before a parameter's name.
	paramMods = set(`mut ref public private protected readonly override const let var`)
)

// params reads a parameter list ("a, b int", "x: T = 1", "*args",
// "&mut self", "{a, b}: Opts"): the first name of each comma-separated
// part at bracket depth 0, or every name of a destructuring part.
func params(s string) []string {
	var out []string
	for _, part := range splitTop(s) {
		part = strings.TrimSpace(part)
		if strings.HasPrefix(part, "{") || strings.HasPrefix(part, "[") || strings.HasPrefix(part, "(") {
			out = append(out, destructured(part)...)
			continue
		}
		for _, w := range identRe.FindAllString(part, -1) {
			if !paramMods[w] {
				out = append(out, w)
				break
			}
		}
	}
	return out
}

// destructured reads the names a destructuring pattern binds: in
// "{a, b: c, ...rest} = x" they are a, c and rest.
func destructured(s string) []string {
	s = strings.Trim(strings.TrimSpace(s), "{}[]()")
	if i := strings.IndexAny(s, "}])"); i >= 0 {
		s = s[:i]
	}
	var out []string
	for _, part := range strings.Split(s, ",") {
		if _, after, ok := strings.Cut(part, ":"); ok {
			part = after // {key: name}
		}
		part, _, _ = strings.Cut(part, "=")
		if ws := identRe.FindAllString(part, -1); len(ws) > 0 && !paramMods[ws[len(ws)-1]] {
			out = append(out, ws[len(ws)-1])
		}
	}
	return out
}

// names reads a comma list of plain names ("a, b", "(k, v)").
func names(s string) []string {
	var out []string
	for _, w := range identRe.FindAllString(s, -1) {
		if !paramMods[w] {
			out = append(out, w)
		}
	}
	return out
}

// lowerNames reads the lower-case names of a pattern ("Some(x)",
// "Foo { a, b }", "(mut k, v)"): the upper-case ones are the types and
// variants it matches.
func lowerNames(s string) []string {
	var out []string
	for _, w := range names(s) {
		if w[0] >= 'a' && w[0] <= 'z' || w[0] == '_' {
			out = append(out, w)
		}
	}
	return out
}

// generics reads a generic parameter list ("T, U: Into<V>", "'a, T",
// "K comparable, V any"): the first name of each part, lifetimes left out.
func generics(s string) []string {
	var out []string
	for _, part := range splitTop(s) {
		part = strings.TrimSpace(part)
		if strings.HasPrefix(part, "'") {
			continue
		}
		part = strings.TrimPrefix(part, "const ")
		if w := identRe.FindString(part); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// splitTop splits s at the commas outside brackets.
func splitTop(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			if depth > 0 && !(s[i] == '>' && i > 0 && s[i-1] == '=') {
				depth--
			}
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

var localPatterns = map[string][]localPattern{
	"go": {
		pat(`\bfunc\s*\(([^)]*)\)`, goParams),                                          // receiver, or a literal's parameters
		pat(`\bfunc\s*(?:\([^)]*\)\s*)?\w+\s*(?:\[[^\]]*\])?\s*\(([^)]*)\)`, goParams), // parameters
		pat(`\bfunc\s*(?:\([^)]*\)\s*)?\w+\s*\[([^\]]*)\]`, generics),
		pat(`\)\s*\(([^)]*)\)\s*\{`, goParams), // named results
		pat(`(?m)^\s*([\w, ]+?)\s*:=`, names),
		pat(`\bfor\s+([\w, ]+?)\s*:=`, names),
		pat(`(?m)^\s+var\s+(\w+)`, one),
	},
	"python": {
		pat(`\bdef\s+\w+\s*\(([^)]*)\)`, params),
		pat(`\blambda\s+([^:]*):`, params),
		pat(`(?m)^\s+([\w, ]+?)\s*(?::[^=\n]*)?=[^=]`, names),
		pat(`\bfor\s+([\w, ()]+?)\s+in\b`, names),
		pat(`\b(?:with|except)\b[^\n]*?\bas\s+(\w+)`, one), // not an import's "as"
		pat(`(\w+)\s*:=`, one),
	},
	"typescript": jsLocals,
	"javascript": jsLocals,
	"rust": {
		pat(`\bfn\s+\w+\s*(?:<[^(]*>)?\s*\(([^)]*)\)`, params),
		pat(`\bfn\s+\w+\s*<([^(]*)>\s*\(`, generics),
		pat(`\b(?:impl|struct|enum|trait|union|type)\s*(?:\w+\s*)?<([^{;=]*?)>\s*(?:\w|\{|\(|for|where|=|;)`, generics),
		pat(`\blet\s+([^=;]*?)\s*(?::[^=;]*)?=`, lowerNames),
		pat(`\b(?:if|while)\s+let\s+([^=]*)=`, lowerNames),
		pat(`\bfor\s+([^{]*?)\s+in\b`, lowerNames),
		pat(`(?:^|[(,=]|move)\s*\|([^|]*)\|`, params),
		pat(`(?m)(?:^|[{,])\s*([^=\n{}]*?)\s*=>`, lowerNames), // match arms
	},
}

var jsLocals = []localPattern{
	pat(`\b(?:const|let|var)\s+([\w$]+(?:\s*=\s*require\b)?)`, notRequired(one)),
	pat(`\b(?:const|let|var)\s*([{\[][^=]*=(?:\s*require\b)?)`, notRequired(destructured)),
	pat(`\bfunction\b[^(]*\(([^)]*)\)`, params),
	pat(`\(([^()]*)\)\s*(?::\s*[^=;{]+)?=>`, params),
	pat(`([\w$]+)\s*=>`, one),
	pat(`\bcatch\s*\(\s*([\w$]+)`, one),
	pat(`(?m)^\s*(?:(?:public|private|protected|static|readonly|async|override|get|set)\s+)*[\w$#]+\s*(?:<[^>(]*>)?\s*\(([^)]*)\)\s*(?::[^{;]*)?\{`, params), // methods
	pat(`\b(?:function|class|interface|type)\s+[\w$]+\s*<([^>]*)>`, generics),
}

// notRequired binds what names reads, unless the binding is CommonJS's
// import (= require(…)): the names then mean another file's definitions.
func notRequired(names func(string) []string) func(string) []string {
	return func(s string) []string {
		if strings.HasSuffix(s, "require") {
			return nil
		}
		return names(strings.TrimSuffix(strings.TrimSpace(s), "="))
	}
}

// goParams reads a Go parameter list, where names share a type ("a, b
// int"): each part's first word when some part names its parameter (has
// two words), else none: "(Option, error)" lists types alone.
func goParams(s string) []string {
	parts := splitTop(s)
	named := false
	for _, part := range parts {
		named = named || len(strings.Fields(part)) > 1
	}
	if !named {
		return nil
	}
	var out []string
	for _, part := range parts {
		f := strings.Fields(part)
		if len(f) == 0 {
			continue
		}
		if w := identRe.FindString(f[0]); w == f[0] {
			out = append(out, w)
		}
	}
	return out
}

package shape

import "testing"

// The lexer reads comments, quotes and brackets from the language table:
// what is a comment or a string in one language is code in another.
func TestOpenStackByLanguage(t *testing.T) {
	for _, c := range []struct {
		lang, src, want string
	}{
		{"python", "f(a // b, [", "(["},            // // divides in Python
		{"go", "f(a // b, [", "("},                 // and comments in Go
		{"python", "f(x) # g(\n[", "["},            // # comments in Python
		{"python", `s = """ ( """ + (`, "("},       // a triple-quoted string
		{"java", `s = """ ( """ + (`, "("},         // a Java text block
		{"rust", "fn f<'a>(x: &'a str) -> {", "{"}, // lifetimes are not quotes
		{"go", "x := `(` + [", "["},                // a raw string
		{"", "a /* ( */ [", "["},                   // an unknown language is C-like
	} {
		stack, _, _ := openStack(dialectOf(c.lang), c.src)
		if string(stack) != c.want {
			t.Errorf("%s %q: open %q, want %q", c.lang, c.src, stack, c.want)
		}
	}
}

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

// The text after a cursor is read as following the text before it: a
// comment marker or quote split by the cursor is one ("/" + "/ it's" is a
// comment, so its apostrophe opens nothing), while a quote that ended a
// string before the cursor starts no longer one after it.
func TestLexingGoesOnAcrossTheCursor(t *testing.T) {
	for _, c := range []struct {
		lang, before, after string
		want                mode
	}{
		{"go", "x := 1\n/", "/ the buffer's language", inLineComment},
		{"go", "x := a /", "* it's */ b", inCode},
		{"go", "x := a /", "* it's", inBlockComment},
		{"go", "x := a /", " b", inCode},
		{"python", `s = "a"`, `"" + x`, inCode}, // "a" then "": no triple quote
		{"rust", "let x = 1; /", "/ it's", inLineComment},
	} {
		_, _, lx := openStack(dialectOf(c.lang), c.before)
		for i := 0; i < len(c.after); {
			_, i = lx.step(c.after, i)
		}
		if lx.mode != c.want {
			t.Errorf("%s %q‸%q: ends in mode %d, want %d", c.lang, c.before, c.after, lx.mode, c.want)
		}
	}
}

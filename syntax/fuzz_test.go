package syntax

import (
	"context"
	"testing"

	"github.com/wisp-lsp/wisp/text"
)

// FuzzReparse parses a text, applies edits decoded from ops (three bytes
// each: position, length and fragment), reparses incrementally, edits the
// text back and reparses again. Each incremental tree must equal a fresh
// parse wherever the fresh parse has no syntax errors, and nothing may
// panic.
func FuzzReparse(f *testing.F) {
	for i, lang := range Languages() {
		f.Add(uint8(i), sampleFor(f, lang), []byte{10, 0, 8, 40, 2, 16, 200, 1, 5})
	}
	f.Add(uint8(0), "package server\n\nimport (\n\t\"context\"\n\t\"fmt\"\n)\n\n// Cc (s *Server) Open(ctx context.Context,\n\tmode int) error {\n\tif s.name == \"\" {\n\t\treturn fmt.Errorf(\"no name\")\n\t} else {\n\t\tx := func(a int) int { return a }\n\t\t_ = x\n\t}\n\t// a comment\n\treturn nil\n}\n\nfunc Hello[T any](v *T) {}\n", []byte{10, 0, 8, 40, 2, 16, 200, 1, 5})
	f.Add(uint8(0), "package p\n\nfunc f() {\n\treturn\n}\n", []byte{20, 0, 22, 21, 1, 9})
	f.Add(uint8(1), "def f():\r\n    pass\r\n", []byte{9, 0, 6, 10, 1, 7})
	f.Add(uint8(6), "int main() { return 0; }", []byte{255, 255, 255})
	f.Fuzz(func(t *testing.T, which uint8, seed string, ops []byte) {
		lang := languages[int(which)%len(languages)]
		orig := text.New(seed)
		tree, err := Parse(context.Background(), lang, orig)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { tree.Close() }()
		src := orig
		var edits []text.Edit
		for i := 0; i+2 < len(ops) && i < 30; i += 3 {
			start := int(ops[i]) * src.Len() / 256
			end := min(src.Len(), start+int(ops[i+1]%8))
			var e text.Edit
			src, e, err = src.Replace(start, end, fragments[int(ops[i+2])%len(fragments)])
			if err != nil {
				t.Fatal(err)
			}
			edits = append(edits, e)
		}
		for _, step := range []struct {
			name  string
			edits []text.Edit
		}{{"edited", edits}, {"restored", nil}} {
			if step.name == "restored" {
				var e text.Edit
				src, e = restore(src, orig)
				step.edits = []text.Edit{e}
			}
			next, err := tree.Reparse(context.Background(), src, step.edits)
			if err != nil {
				t.Fatal(err)
			}
			checkSame(t, next, false, step.name)
			tree.Close()
			tree = next
			tree.EnclosingScopes(len(seed) / 2)
			tree.InStringOrComment(len(seed) / 3)
			tree.Definitions()
			tree.Imports()
		}
	})
}

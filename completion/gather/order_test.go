package gather_test

import (
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/completion/gather"
	"github.com/wisp-lsp/wisp/transport"
)

// TestPromptOrderIsStable: while the user types, consecutive prompts
// share everything before the file's own text (model servers cache an
// exact prompt prefix), even when the typing reuses a name whose
// signature is shown, which reorders pieces ranked by recent use.
func TestPromptOrderIsStable(t *testing.T) {
	in, src := input(t, 600)
	prompt := func(src string, cursor int) (string, int) {
		t.Helper()
		in.Buffer = buffer(t, "main.go", src)
		in.Cursor = cursor
		_, p := transport.RenderChat(gather.Gather(in).Request("main.go", "go"))
		return p, strings.Index(p, "File: main.go")
	}
	typed, cursor := "Open(names[1], 1)", in.Cursor
	// The typed name's signature is shown, with others', all the while:
	// without it the test would not test what it says.
	const openSig = "func Open(name string, flags int)"
	prev, fileAt := prompt(src, cursor)
	if fileAt < 0 || !strings.Contains(prev[:fileAt], openSig) || !strings.Contains(prev[:fileAt], "func Dial(") {
		t.Fatalf("the context before the file should show %q and Dial's signature:\n%s", openSig, prev)
	}
	for i := 1; i <= len(typed); i++ {
		next := src[:cursor] + typed[:i] + src[cursor:]
		p, fileAt := prompt(next, cursor+i)
		if fileAt < 0 || !strings.HasPrefix(prev, p[:fileAt]) {
			t.Fatalf("after typing %q the context before the file changed:\nbefore:\n%s\nafter:\n%s", typed[:i], prev, p[:fileAt])
		}
		if !strings.Contains(p[:fileAt], openSig) {
			t.Fatalf("after typing %q the context before the file no longer shows %q:\n%s", typed[:i], openSig, p[:fileAt])
		}
		prev = p
	}
}

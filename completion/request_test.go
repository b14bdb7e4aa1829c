package completion_test

import (
	"testing"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/text"
)

// Without a tree or a language id, the request names the language its
// extension names in the language table; an unknown extension is sent as
// it is.
func TestBuildRequestLanguage(t *testing.T) {
	for path, want := range map[string]string{"lru.py": "python", "App.TSX": "tsx", "notes.txt": "txt"} {
		b := completion.BuildRequest(completion.Query{Path: path, Text: text.New("x = 1\n"), Cursor: 5}, config.Completion{}, 0)
		if b.Request.Language != want {
			t.Errorf("%s: language %q, want %q", path, b.Request.Language, want)
		}
	}
}

package lsp_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// The user's recent edits in another file reach the model as a diff,
// merged from the keystrokes that made them; typing at the cursor does
// not (the window already shows it).
func TestRecentEditsReachTheModel(t *testing.T) {
	var mu sync.Mutex
	var inputs []string
	_, model := loopbackModel(t, modelserver.Options{Received: func(body []byte) {
		var frame struct{ Input string }
		if json.Unmarshal(body, &frame) == nil {
			mu.Lock()
			inputs = append(inputs, frame.Input)
			mu.Unlock()
		}
	}}, modelserver.Reply{Text: "return a + b"})
	e := startServer(t, model, countingConfig())
	e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", nil)
	add, util := "file:///tmp/add.go", "file:///tmp/util.go"
	e.open(add, "go", addGo)
	e.open(util, "go", "package p\n\nfunc scale(x int) int {\n\treturn x * 2\n}\n")
	// Rename scale to double, one key at a time, as an editor sends it.
	e.change(util, 2, 2, 5, 2, 10, "")
	for i, ch := range "double" {
		e.change(util, 3+i, 2, 5+i, 2, 5+i, string(ch))
	}
	e.change(add, 2, 3, 1, 3, 1, "r")
	if _, err := e.inline(context.Background(), add, 3, 2); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(inputs) != 1 {
		t.Fatalf("the model received %d requests, want 1", len(inputs))
	}
	in := inputs[0]
	want := "Context from /tmp/util.go:\n@@ -3,1 +3,1 @@\n-func scale(x int) int {\n+func double(x int) int {\n"
	if !strings.Contains(in, want) {
		t.Errorf("the prompt lacks the recent edit\n%s\nprompt:\n%s", want, in)
	}
	if strings.Contains(in, "+\tr") {
		t.Errorf("the typing at the cursor came as a recent edit:\n%s", in)
	}
}

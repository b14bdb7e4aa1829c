package modelserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The continuation oracle answers with what follows the prompt in the
// files, past the cursor's line, up to the suffix, a stop sequence or its
// bound; a prompt the files do not hold goes to the fallback.
func TestContinuation(t *testing.T) {
	dir := t.TempDir()
	file := "package p\n\n// header\nfunc f() int {\n\tx := 1\n\ty := 2\n\treturn x + y\n}\n"
	os.WriteFile(filepath.Join(dir, "a.go"), []byte(file), 0o644)
	// A second file shares the tail of the prompt below but not all of it.
	os.WriteFile(filepath.Join(dir, "b.go"), []byte("package q\n\nfunc f() int {\n\tx := 1\n\treturn x\n}\n"), 0o644)
	// A third repeats a long run inside itself: the prompt's last 256
	// bytes occur twice there, and only a longer tail tells them apart.
	rep := strings.Repeat("\tn++ // again\n", 25)
	twice := "package d\n\nfunc one() {\n" + rep + "\treturn 1\n}\n\nfunc two() {\n" + rep + "\treturn 2\n}\n"
	os.WriteFile(filepath.Join(dir, "d.go"), []byte(twice), 0o644)
	// A fourth has a comment run far above the cursor, which a prompt
	// may leave out.
	far := "package e\n\n" + strings.Repeat("// first, a long explanation of what follows, and why\n", 8) +
		"var a = 1\nvar b = 2\nvar c = 3\nvar d = 4\nvar e = 5\nvar f = 6\nvar g = 7\nvar h = 8\nvar i = 9\n"
	os.WriteFile(filepath.Join(dir, "e.go"), []byte(far), 0o644)
	// A fifth repeats a run, the second time under a comment a prompt
	// may leave out.
	note := "\t// The second count, for the totals, runs the same steps again.\n"
	twiceNoted := "package f\n\nfunc three() {\n" + rep + "\treturn 3\n}\n\nfunc four() {\n" + note + rep + "\treturn 4\n}\n"
	os.WriteFile(filepath.Join(dir, "f.go"), []byte(twiceNoted), 0o644)
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "c.go"), []byte(file+"junk"), 0o644)
	c, err := NewContinuation(dir, TextBackend("fallback"))
	if err != nil {
		t.Fatal(err)
	}
	gen := func(q Query) string {
		var b strings.Builder
		if err := c.Generate(context.Background(), q, func(tok string) bool { b.WriteString(tok); return true }); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	at := strings.Index(file, "\tx := 1") + len("\tx :=")
	cases := []struct {
		name string
		q    Query
		want string
	}{
		{"runs past the line", Query{Prefix: file[:at]}, file[at:]},
		{"found by its tail", Query{Prefix: "// header\nfunc f() int {\n\tx :="}, file[at:]},
		{"up to the suffix", Query{Prefix: file[:at], Suffix: "\treturn x + y\n}\n"}, " 1\n\ty := 2\n"},
		{"up to a stop", Query{Prefix: file[:at], Stop: []string{"\n"}}, " 1"},
		{"bounded by max tokens", Query{Prefix: file[:at], MaxTokens: 1}, file[at : at+8]},
		{"a tail twice in one file", Query{Prefix: twice[:strings.Index(twice, "\treturn 2")]}, "\treturn 2\n}\n"},
		{"not in the files", Query{Prefix: "func g() {\n\tz :="}, "fallback"},
		{"a tail twice, a comment before it left out", Query{Prefix: strings.Replace(twiceNoted[:strings.Index(twiceNoted, "\treturn 4")], note, "", 1)}, "\treturn 4\n}\n"},
		{"comment lines left out far up", Query{Prefix: far[:strings.Index(far, "// first")] + far[strings.Index(far, "var a"):strings.Index(far, "= 9")]}, "= 9\n"},
		{"a quick edit", Query{Prefix: file[:at], Instruction: "rename x"}, "fallback"},
	}
	for _, tc := range cases {
		if got := gen(tc.q); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// The OpenAI wires' stop field is one string or a list; either reaches
// the query, null is no stop sequences (not a stop on the empty string),
// and anything else is refused.
func TestStopsField(t *testing.T) {
	for body, want := range map[string][]string{`{"stop":"\n"}`: {"\n"}, `{"stop":["a","b"]}`: {"a", "b"}, `{}`: nil,
		`{"stop":null}`: nil, `{"stop": null }`: nil} {
		var chat chatRequest
		var completion completionRequest
		errChat, errCompletion := json.Unmarshal([]byte(body), &chat), json.Unmarshal([]byte(body), &completion)
		if errChat != nil || errCompletion != nil || !slices.Equal(chat.Stop, want) || !slices.Equal(completion.Stop, want) {
			t.Errorf("%s: stop %q (chat) and %q (completions), %v %v; want %q", body, chat.Stop, completion.Stop, errChat, errCompletion, want)
		}
	}
	var req completionRequest
	if err := json.Unmarshal([]byte(`{"stop":3}`), &req); err == nil {
		t.Errorf("a numeric stop was accepted: %q", req.Stop)
	}
}

package modelserver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	for in, want := range map[string][]string{
		"\treturn a + b\n}":    {"\t", "retu", "rn", " a", " +", " b", "\n", "}"},
		"    x := héllo_wörld": {"    ", "x", " :", "=", " hél", "lo_w", "örl", "d"},
		"":                     nil,
	} {
		if got := Tokenize(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Tokenize(%q) = %q, want %q", in, got, want)
		}
	}
	text := "func (s *Server) run(ctx context.Context) {\n\t\treturn nil // done 日本語\n}\n"
	toks := Tokenize(text)
	if strings.Join(toks, "") != text {
		t.Fatalf("tokens do not rejoin: %q", toks)
	}
	for _, tok := range toks {
		if tok == "" || len(tok) > 2*maxTokenBytes {
			t.Errorf("token %q", tok)
		}
	}
}

func TestScriptRules(t *testing.T) {
	sc := &Script{Replies: []Reply{
		{PrefixEndsWith: "{", InstructionContains: "rename", Text: "both"},
		{PrefixEndsWith: "{", Text: "prefix"},
		{InstructionContains: "rename", Text: "instruction"},
		{SuffixStartsWith: ")", Text: "suffix"},
	}}
	for _, c := range []struct {
		q    Query
		want string
		ok   bool
	}{
		{Query{Prefix: "f() {", Instruction: "rename x"}, "both", true},
		{Query{Prefix: "f() {"}, "prefix", true},
		{Query{Prefix: "f()", Instruction: "please rename"}, "instruction", true},
		{Query{Prefix: "f(", Suffix: ")\n"}, "suffix", true},
		{Query{Prefix: "nothing"}, "", false},
	} {
		if got, ok := sc.Match(c.q); got != c.want || ok != c.ok {
			t.Errorf("Match(%+v) = %q, %v; want %q, %v", c.q, got, ok, c.want, c.ok)
		}
	}
}

func TestScriptBackendFallsBack(t *testing.T) {
	collect := func(b Backend, q Query) (string, error) {
		var out strings.Builder
		err := b.Generate(context.Background(), q, func(tok string) bool { out.WriteString(tok); return true })
		return out.String(), err
	}
	sc := &Script{Replies: []Reply{{PrefixEndsWith: "a", Text: "scripted"}}}
	m := &fakeModel{reply: "from the model"}
	b := ScriptBackend{Script: sc, Fallback: ModelBackend{Model: m}}
	if got, err := collect(b, Query{Prefix: "a"}); got != "scripted" || err != nil {
		t.Errorf("matched: %q, %v", got, err)
	}
	if got, err := collect(b, Query{Prefix: "b", Suffix: "s"}); got != "from the model" || err != nil {
		t.Errorf("fallback: %q, %v", got, err)
	}
	if len(m.got) != 1 || m.got[0].Prefix != "b" || m.got[0].Suffix != "s" {
		t.Errorf("model asked %+v", m.got)
	}
	if _, err := collect(ScriptBackend{Script: sc}, Query{Prefix: "b"}); !errors.Is(err, ErrNoReply) {
		t.Errorf("no fallback: %v", err)
	}
}

func TestLoadScript(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"replies":[{"prefixEndsWith":"x","instructionContains":"y","text":"z"}]}`), 0o644)
	sc, err := LoadScript(good)
	if err != nil || len(sc.Replies) != 1 || sc.Replies[0] != (Reply{PrefixEndsWith: "x", InstructionContains: "y", Text: "z"}) {
		t.Fatalf("LoadScript = %+v, %v", sc, err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"replies":[{"prefixEndWith":"x","text":"z"}]}`), 0o644)
	if _, err := LoadScript(bad); err == nil || !strings.Contains(err.Error(), "prefixEndWith") {
		t.Fatalf("misspelt condition: %v", err)
	}
	if _, err := LoadScript(filepath.Join(dir, "missing.json")); err == nil {
		t.Fatal("missing file loaded")
	}
}

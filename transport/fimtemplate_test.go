package transport

import "testing"

func TestRenderFIM(t *testing.T) {
	req := Request{Prefix: "def f(", Suffix: "):\n", Path: "a.py"}
	withCtx := req
	withCtx.Context = []Snippet{{Path: "b.py", Text: "X = 1"}}
	for _, tc := range []struct {
		family string
		req    Request
		want   string
	}{
		{"qwen", req, "<|fim_prefix|>def f(<|fim_suffix|>):\n<|fim_middle|>"},
		{"qwen2.5-coder", withCtx, "<|file_sep|>b.py\nX = 1\n<|file_sep|>a.py\n<|fim_prefix|>def f(<|fim_suffix|>):\n<|fim_middle|>"},
		{"deepseek", req, "<\uff5cfim\u2581begin\uff5c>def f(<\uff5cfim\u2581hole\uff5c>):\n<\uff5cfim\u2581end\uff5c>"},
		{"starcoder", req, "<fim_prefix>def f(<fim_suffix>):\n<fim_middle>"},
		{"starcoder2", withCtx, "<file_sep>b.py\nX = 1\n<file_sep>a.py\n<fim_prefix>def f(<fim_suffix>):\n<fim_middle>"},
		{"codellama", req, "<PRE> def f( <SUF>):\n <MID>"},
		{"codestral", req, "[SUFFIX]):\n[PREFIX]def f("},
	} {
		got, err := RenderFIM(tc.family, tc.req)
		if err != nil || got != tc.want {
			t.Errorf("%s: %q, %v\nwant %q", tc.family, got, err, tc.want)
		}
		fam, prefix, suffix, ok := ParseFIM(got)
		want, _ := fimFamily(tc.family)
		if !ok || fam != want || prefix != tc.req.Prefix || suffix != tc.req.Suffix {
			t.Errorf("ParseFIM(%q) = %q %q %q %v", got, fam, prefix, suffix, ok)
		}
	}
	if _, err := RenderFIM("gpt-4", req); err == nil {
		t.Error("unknown family accepted")
	}
	if _, _, _, ok := ParseFIM("plain text"); ok {
		t.Error("ParseFIM accepted a prompt with no FIM tokens")
	}
}

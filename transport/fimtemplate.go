package transport

import (
	"fmt"
	"strings"
)

// FIM template families, the values of model.fimTemplate.
const (
	FIMQwen      = "qwen"      // Qwen2.5-Coder
	FIMDeepSeek  = "deepseek"  // DeepSeek-Coder
	FIMStarCoder = "starcoder" // StarCoder2
	FIMCodeLlama = "codellama" // CodeLlama
	FIMCodestral = "codestral" // Codestral (Mistral tokenizer v3 order: suffix first)
)

// Special tokens, byte for byte as the models' tokenizers define them.
// DeepSeek-Coder's use fullwidth vertical bars (U+FF5C) and U+2581 (▁).
const (
	qwenPrefix, qwenSuffix, qwenMiddle, qwenFileSep = "<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>", "<|file_sep|>"
	scPrefix, scSuffix, scMiddle, scFileSep         = "<fim_prefix>", "<fim_suffix>", "<fim_middle>", "<file_sep>"
	dsBegin, dsHole, dsEnd                          = "<｜fim▁begin｜>", "<｜fim▁hole｜>", "<｜fim▁end｜>"
	clPrefix, clSuffix, clMiddle                    = "<PRE> ", " <SUF>", " <MID>"
	csSuffix, csPrefix                              = "[SUFFIX]", "[PREFIX]"
)

// fimFamily normalises a family name, accepting common model names.
func fimFamily(name string) (string, error) {
	switch n := strings.ToLower(strings.TrimSpace(name)); n {
	case FIMQwen, "qwen2.5-coder", "qwen-coder", "qwen2.5":
		return FIMQwen, nil
	case FIMDeepSeek, "deepseek-coder":
		return FIMDeepSeek, nil
	case FIMStarCoder, "starcoder2":
		return FIMStarCoder, nil
	case FIMCodeLlama, "code-llama", "codellama-code":
		return FIMCodeLlama, nil
	case FIMCodestral, "mistral":
		return FIMCodestral, nil
	}
	return "", fmt.Errorf("unknown FIM template %q: want %s, %s, %s, %s or %s",
		name, FIMQwen, FIMDeepSeek, FIMStarCoder, FIMCodeLlama, FIMCodestral)
}

// RenderFIM renders req as a raw fill-in-the-middle prompt for a base
// model of the given family:
//
//	qwen       [<|file_sep|>PATH\nTEXT\n]… [<|file_sep|>PATH\n]<|fim_prefix|>PREFIX<|fim_suffix|>SUFFIX<|fim_middle|>
//	starcoder  [<file_sep>PATH\nTEXT\n]… [<file_sep>PATH\n]<fim_prefix>PREFIX<fim_suffix>SUFFIX<fim_middle>
//	deepseek   <｜fim▁begin｜>PREFIX<｜fim▁hole｜>SUFFIX<｜fim▁end｜>
//	codellama  <PRE> PREFIX <SUF>SUFFIX <MID>
//	codestral  [SUFFIX]SUFFIX[PREFIX]PREFIX
//
// Context snippets become preceding files for the families with a file
// separator token (qwen, starcoder); the others get prefix and suffix only.
func RenderFIM(family string, req Request) (string, error) {
	f, err := fimFamily(family)
	if err != nil {
		return "", err
	}
	switch f {
	case FIMQwen:
		return files(qwenFileSep, req) + qwenPrefix + req.Prefix + qwenSuffix + req.Suffix + qwenMiddle, nil
	case FIMStarCoder:
		return files(scFileSep, req) + scPrefix + req.Prefix + scSuffix + req.Suffix + scMiddle, nil
	case FIMDeepSeek:
		return dsBegin + req.Prefix + dsHole + req.Suffix + dsEnd, nil
	case FIMCodeLlama:
		return clPrefix + req.Prefix + clSuffix + req.Suffix + clMiddle, nil
	default:
		return csSuffix + req.Suffix + csPrefix + req.Prefix, nil
	}
}

// files renders context snippets as repository files, then the current
// file's header; nothing when there is no context.
func files(sep string, req Request) string {
	if len(req.Context) == 0 {
		return ""
	}
	var b strings.Builder
	for _, s := range req.Context {
		b.WriteString(sep + s.Path + "\n" + s.Text + "\n")
	}
	b.WriteString(sep + req.Path + "\n")
	return b.String()
}

// ParseFIM recovers the family, prefix and suffix from a prompt RenderFIM
// produced (context snippets are not recovered). ok is false when prompt
// is not a FIM prompt of a known family.
func ParseFIM(prompt string) (family, prefix, suffix string, ok bool) {
	switch {
	case strings.Contains(prompt, qwenPrefix):
		prefix, suffix, ok = cutPSM(prompt, qwenPrefix, qwenSuffix, qwenMiddle)
		return FIMQwen, prefix, suffix, ok
	case strings.Contains(prompt, scPrefix):
		prefix, suffix, ok = cutPSM(prompt, scPrefix, scSuffix, scMiddle)
		return FIMStarCoder, prefix, suffix, ok
	case strings.HasPrefix(prompt, dsBegin):
		prefix, suffix, ok = cutPSM(prompt, dsBegin, dsHole, dsEnd)
		return FIMDeepSeek, prefix, suffix, ok
	case strings.HasPrefix(prompt, clPrefix):
		prefix, suffix, ok = cutPSM(prompt, clPrefix, clSuffix, clMiddle)
		return FIMCodeLlama, prefix, suffix, ok
	case strings.HasPrefix(prompt, csSuffix):
		rest := prompt[len(csSuffix):]
		i := strings.Index(rest, csPrefix)
		if i < 0 {
			return "", "", "", false
		}
		return FIMCodestral, rest[i+len(csPrefix):], rest[:i], true
	}
	return "", "", "", false
}

// cutPSM splits PRE prefix SUF suffix MID (prefix-suffix-middle order),
// taking the first PRE marker and the last SUF and MID markers.
func cutPSM(prompt, pre, suf, mid string) (prefix, suffix string, ok bool) {
	p := strings.Index(prompt, pre)
	m := strings.LastIndex(prompt, mid)
	if p < 0 || m < p+len(pre) {
		return "", "", false
	}
	body := prompt[p+len(pre) : m]
	s := strings.LastIndex(body, suf)
	if s < 0 {
		return "", "", false
	}
	return body[:s], body[s+len(suf):], true
}

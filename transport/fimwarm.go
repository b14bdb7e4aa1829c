package transport

import (
	"context"
	"errors"
)

// ErrNoPromptCache is returned by WarmPrompt for a provider wire that has
// no way to warm a prompt; callers stop asking.
var ErrNoPromptCache = errors.New("this provider cannot warm a prompt")

var _ PromptWarmer = (*FIMModel)(nil)

// llamaWarmBody is a llama.cpp body with n_predict sent even when 0,
// which reads the prompt into the cache and generates nothing.
type llamaWarmBody struct {
	llamaBody
	NPredict int `json:"n_predict"`
}

// WarmPrompt implements PromptWarmer for llama.cpp (/infill and raw
// /completion: n_predict 0 with cache_prompt); the other FIM wires answer
// ErrNoPromptCache.
func (m *FIMModel) WarmPrompt(ctx context.Context, req Request) error {
	if m.dialect != dialectInfill && m.dialect != dialectLlamaRaw {
		return ErrNoPromptCache
	}
	b := llamaWarmBody{llamaBody: llamaBody{CachePrompt: true, Stream: true}}
	if m.dialect == dialectInfill {
		b.InputPrefix, b.InputSuffix = &req.Prefix, &req.Suffix
		for _, c := range req.Context {
			b.InputExtra = append(b.InputExtra, infillExtra{Filename: c.Path, Text: c.Text})
		}
	} else {
		raw, err := RenderFIM(m.template, req)
		if err != nil {
			return err
		}
		b.Prompt = raw
	}
	_, err := m.http.stream(ctx, b, sseFraming, m.http.parseLlama, newSink(req, func(string) {}))
	return err
}

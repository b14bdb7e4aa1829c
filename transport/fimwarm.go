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
// /completion): the body Generate would send for req (so the cached
// prompt is the one it will send), with n_predict 0. The other FIM wires
// answer ErrNoPromptCache.
func (m *FIMModel) WarmPrompt(ctx context.Context, req Request) error {
	if m.dialect != dialectInfill && m.dialect != dialectLlamaRaw {
		return ErrNoPromptCache
	}
	raw, maxTokens, err := m.prompt(req)
	if err != nil {
		return err
	}
	b := llamaWarmBody{llamaBody: m.llamaWire(req, raw, maxTokens)}
	_, err = m.http.stream(ctx, b, sseFraming, m.http.parseLlama, newSink(req, func(string) {}))
	return err
}

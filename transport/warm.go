package transport

import "context"

// PromptWarmer is implemented by Models whose provider can read a prompt
// into its prefix cache without generating (the Responses API's
// response.create with "generate": false), so that the next request
// sharing the prompt's prefix starts as fast as one made while typing.
//
// WarmPrompt blocks until the provider has read the prompt, or ctx is
// done; cancelling ctx stops it at the provider, like a generation. A
// provider without prompt caching does not implement the interface.
type PromptWarmer interface {
	WarmPrompt(ctx context.Context, req Request) error
}

var _ PromptWarmer = (*WSModel)(nil)

// WarmPrompt implements PromptWarmer: a response.create for req with
// "generate": false on its own lane.
func (m *WSModel) WarmPrompt(ctx context.Context, req Request) error {
	instructions, input := RenderChat(req)
	no := false
	create := wsCreate{Type: "response.create", Model: m.model, Instructions: instructions,
		Input: input, Store: false, Generate: &no}
	_, err := m.generateOnce(ctx, newSink(req, func(string) {}), create)
	return err
}

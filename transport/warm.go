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

// WarmPrompt implements PromptWarmer: the response.create Generate would
// send for req (so the cached prompt is the one it will send), with
// "generate": false and no output bound, on its own lane.
func (m *WSModel) WarmPrompt(ctx context.Context, req Request) error {
	no := false
	create := m.create(req)
	create.MaxOutputTokens, create.Generate = 0, &no
	_, _, err := m.generateOnce(ctx, newSink(req, func(string) {}), create)
	return err
}

package transport

import (
	"fmt"

	"github.com/wisp-lsp/wisp/config"
)

// wirer is implemented by the network providers: wire returns the request
// body Generate sends for req.
type wirer interface {
	wire(req Request) (any, error)
}

// Wire returns what the provider m names sends for req, exactly as its
// Generate sends it: the response.create frame for openai-ws (its
// per-attempt stream_id left empty), the POSTed JSON body for openai and
// fim (chat rendering, FIM template or infill fields as the endpoint
// takes them), and req itself for the local provider, which takes the
// Request as it is. It needs no key and opens no connection; it fails only
// where building the provider would (an unknown provider, a bad endpoint
// or FIM template).
func Wire(m config.Model, req Request) (any, error) {
	if m.Provider == "" || m.Provider == config.ProviderLocal {
		return req, nil
	}
	if err := checkNetwork(m); err != nil {
		return nil, err
	}
	model, err := build(m, "", "", nil)
	if err != nil {
		return nil, err
	}
	defer model.Close()
	w, ok := model.(wirer)
	if !ok {
		return nil, fmt.Errorf("model provider %q cannot show its requests", m.Provider)
	}
	return w.wire(req)
}

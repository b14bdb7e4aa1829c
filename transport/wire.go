package transport

import "fmt"

// wirer is implemented by the network providers: wire returns the request
// body Generate sends for req.
type wirer interface {
	wire(req Request) (any, error)
}

// Wire returns what model sends for req, exactly as its Generate sends it:
// the response.create frame for a WSModel (its per-attempt stream_id left
// empty), the POSTed JSON body for an SSEModel or a FIMModel (chat
// rendering, FIM template or infill fields as the endpoint takes them). It
// opens no connection. A model that is none of these cannot show its
// requests and gets an error.
func Wire(model Model, req Request) (any, error) {
	w, ok := model.(wirer)
	if !ok {
		return nil, fmt.Errorf("model %T cannot show its requests", model)
	}
	return w.wire(req)
}

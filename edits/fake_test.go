package edits

import (
	"context"
	"sync"

	"github.com/wisp-lsp/wisp/transport"
)

// fakeModel answers every request with a canned reply, chosen by the
// request's Path when replies has an entry for it, and records requests.
type fakeModel struct {
	reply   string
	replies map[string]string // by Request.Path; immutable

	mu   sync.Mutex
	reqs []transport.Request // guarded by mu
}

func (m *fakeModel) Generate(ctx context.Context, req transport.Request, onDelta func(string)) (transport.Result, error) {
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	m.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return transport.Result{}, err
	}
	reply := m.reply
	if r, ok := m.replies[req.Path]; ok {
		reply = r
	}
	onDelta(reply)
	return transport.Result{Text: reply, FinishReason: "stop"}, nil
}

func (m *fakeModel) Close() error { return nil }

var _ transport.Model = (*fakeModel)(nil)

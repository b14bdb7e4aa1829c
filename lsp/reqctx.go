package lsp

import (
	"context"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
)

// handlerCtx is the context a handler runs with. The connection's own
// request context is pooled and recycled when its handler returns, and
// anything derived from it with context.WithCancel watches it from a
// goroutine that can outlive the handler; so cancellation is built on the
// connection's lifetime context instead. The request context is consulted
// only for values (jsonrpc2.Async finds its release token there), and
// only while the handler runs.
type handlerCtx struct {
	context.Context // cancelled by $/cancelRequest or when the handler returns
	req             context.Context
	live            *atomic.Bool
}

func (c handlerCtx) Value(key any) any {
	if v := c.Context.Value(key); v != nil {
		return v
	}
	if c.live.Load() {
		return c.req.Value(key)
	}
	return nil
}

// inflight maps the ids of requests being handled to their cancellation.
type inflight struct {
	mu   sync.Mutex // guards byID
	byID map[jsonrpc2.ID]context.CancelFunc
}

func newInflight() *inflight { return &inflight{byID: map[jsonrpc2.ID]context.CancelFunc{}} }

// wrap returns a handler that gives next a handlerCtx, cancellable by id.
func (f *inflight) wrap(life context.Context, next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		cctx, cancel := context.WithCancel(life)
		live := new(atomic.Bool)
		live.Store(true)
		var id jsonrpc2.ID
		if req.IsCall() {
			id = req.ID()
			f.mu.Lock()
			f.byID[id] = cancel
			f.mu.Unlock()
		}
		defer func() {
			live.Store(false)
			if req.IsCall() {
				f.mu.Lock()
				delete(f.byID, id)
				f.mu.Unlock()
			}
			cancel()
		}()
		return next(handlerCtx{Context: cctx, req: ctx, live: live}, req)
	}
}

// cancel cancels the request with id, if it is still being handled.
func (f *inflight) cancel(id jsonrpc2.ID) {
	f.mu.Lock()
	cancel := f.byID[id]
	f.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

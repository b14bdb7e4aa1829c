package completion

import (
	"context"
	"errors"
	"time"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/transport"
)

// idleWarmups bounds the warm-ups one idle stretch of a document costs:
// with the default interval they keep a hosted model's prompt cache warm
// through a pause of about a quarter of an hour, then stop.
const idleWarmups = 3

// Warm-up: once a document has been idle for Config.WarmAfterIdle, the
// engine asks the model to read the document's last prompt into its
// prompt cache again (transport.PromptWarmer), and again after each
// further interval, at most idleWarmups times; so the first request after
// a pause reads only what changed, as the ones made while typing do. The
// next request for the document cancels a warm-up in flight before it is
// sent, and resets the count. Providers without prompt caching are never
// warmed.

// warmer is one document's idle warm-up state. Guarded by Engine.mu.
type warmer struct {
	req    transport.Request // the document's last prompt
	timer  *time.Timer       // fires after the idle interval; never nil
	cancel context.CancelFunc
	rounds int // warm-ups sent in this idle stretch
}

// promptWarmer returns the model as a PromptWarmer, if it is one and
// warm-ups are on.
func (e *Engine) promptWarmer() (transport.PromptWarmer, bool) {
	if e.opts.Config.WarmAfterIdle <= 0 {
		return nil, false
	}
	if e.noWarm.Load() {
		return nil, false
	}
	w, ok := e.opts.Model.(transport.PromptWarmer)
	return w, ok
}

// activeLocked notes that uri was asked for: a warm-up in flight is
// cancelled (the user's request goes first), the count starts again and
// the idle clock restarts, whether the model or the engine answers.
func (e *Engine) activeLocked(uri string) {
	w := e.warms[uri]
	if w == nil {
		return
	}
	w.stopLocked()
	w.rounds = 0
	w.timer.Reset(e.opts.Config.WarmAfterIdle)
}

// stopLocked cancels w's warm-up in flight, if any.
func (w *warmer) stopLocked() {
	if w.cancel != nil {
		w.cancel()
		w.cancel = nil
	}
}

// rememberLocked records req as uri's last prompt and starts the idle
// clock.
func (e *Engine) rememberLocked(uri string, req transport.Request) {
	if _, ok := e.promptWarmer(); !ok || e.closed {
		return
	}
	w := e.warms[uri]
	if w == nil {
		w = &warmer{}
		w.timer = time.AfterFunc(e.opts.Config.WarmAfterIdle, func() { e.warmIdle(uri, w) })
		e.warms[uri] = w
	}
	w.req = req
	e.activeLocked(uri)
}

// warmIdle sends one warm-up for w, uri's warmer, and arms the next.
func (e *Engine) warmIdle(uri string, w *warmer) {
	pw, ok := e.promptWarmer()
	e.mu.Lock()
	if !ok || e.closed || e.warms[uri] != w || w.rounds >= idleWarmups || w.cancel != nil {
		e.mu.Unlock()
		return
	}
	w.rounds++
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	req := w.req
	if w.rounds < idleWarmups {
		w.timer.Reset(e.opts.Config.WarmAfterIdle)
	}
	e.stats.warmups.Add(1)
	e.wg.Add(1)
	e.mu.Unlock()
	go func() {
		defer e.wg.Done()
		err := pw.WarmPrompt(ctx, req)
		e.mu.Lock()
		if w.cancel != nil && ctx.Err() == nil {
			w.cancel = nil
		}
		e.mu.Unlock()
		cancel()
		if errors.Is(err, transport.ErrNoPromptCache) {
			e.noWarm.Store(true) // this provider's wire has no warm-up
		}
		if err != nil && !transport.IsCancelled(err) {
			e.log.Debug("prompt warm-up failed", zap.String("uri", uri), zap.Error(err))
		}
	}()
}

// forgetLocked stops uri's warm-ups for good.
func (e *Engine) forgetLocked(uri string) {
	if w := e.warms[uri]; w != nil {
		w.stopLocked()
		w.timer.Stop()
		delete(e.warms, uri)
	}
}

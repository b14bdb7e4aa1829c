package completion

import (
	"time"
)

// Anticipation: some editors ask for ghost text only a while after the
// keystroke (VS Code waits about 50 ms before it asks an inline
// completion provider, and its request then travels through the page and
// the extension host). For a client that opts in, the language server
// tells the engine, when a typing-shaped change arrives, where the cursor
// now is; the engine starts the generation the request will want right
// away, so the model's time overlaps the editor's wait. The request, when
// it comes for that cursor, joins the running generation (it is the
// document's generation, served like any other); a later change that
// does not agree with it stops it at the model, and a generation no
// request claims within the grace period stops there too. Stats count
// what anticipation started, what requests took up and what it wasted.

// anticipation is a generation being prepared for a change; requests for
// the document wait for it (see Suggest) rather than start their own.
type anticipation struct {
	change uint64        // the document's change count when it was asked for
	ready  chan struct{} // closed once it is registered or given up
}

// Anticipate starts, on its own goroutine, the generation that the next
// request for uri is expected to want, for the document as it is now
// (after the change DidChange was last told about). build is called once,
// on that goroutine, to make the query: the cursor the change left and the
// document's text, tree and context as the request would have them; it
// returns the query, a function to release what the query holds (called
// once the request to the model is built), and ok false to start nothing.
//
// Nothing starts when the document's own generation already serves that
// cursor (typed ahead), when the cache answers it, while the model is held
// back, when a debounce is configured, or when the document changed again
// before the generation was built. Call Anticipate right after DidChange,
// in document order.
func (e *Engine) Anticipate(uri string, build func() (q Query, release func(), ok bool)) {
	e.mu.Lock()
	if e.closed || e.opts.Config.Debounce > 0 {
		e.mu.Unlock()
		return
	}
	a := &anticipation{change: e.changes[uri], ready: make(chan struct{})}
	if old := e.pending[uri]; old != nil {
		close(old.ready) // superseded: its goroutine finds itself gone
	}
	e.pending[uri] = a
	e.wg.Add(1)
	e.mu.Unlock()
	go func() {
		defer e.wg.Done()
		e.anticipate(uri, a, build)
	}()
}

// anticipate builds and registers a's generation, unless it is no longer
// wanted.
func (e *Engine) anticipate(uri string, a *anticipation, build func() (Query, func(), bool)) {
	settle := func() {
		if e.pending[uri] == a {
			delete(e.pending, uri)
			close(a.ready)
		}
	}
	q, release, ok := build()
	e.mu.Lock()
	if !ok || !e.wantedLocked(uri, a, q) {
		settle()
		e.mu.Unlock()
		if release != nil {
			release()
		}
		return
	}
	e.mu.Unlock()
	g, launch := e.prepare(q)
	release()
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.wantedLocked(uri, a, q) {
		settle()
		g.cancel()
		g.closeTree()
		return
	}
	if old := e.gens[uri]; old != nil {
		e.killLocked(old)
	}
	e.discardSpecLocked(uri)
	// Typing on is taken as agreeing with it only where the model has
	// said so: a key before its first token starts afresh at the new
	// cursor rather than betting on a prompt the request never saw.
	g.anticipated, g.strict = true, true
	e.gens[uri] = g
	e.stats.anticipated.Add(1)
	launch()
	// No request wants it yet: the grace period runs until one does.
	e.graceLocked(g)
	settle()
}

// wantedLocked reports whether a's generation for q should still start:
// a is the document's pending anticipation, the document has not changed
// since, and nothing already answers q's cursor.
func (e *Engine) wantedLocked(uri string, a *anticipation, q Query) bool {
	if e.closed || e.pending[uri] != a || e.changes[uri] != a.change {
		return false
	}
	if g := e.gens[uri]; g != nil && !g.dead && q.Cursor == g.anchor+len(g.typed) {
		return false // its own generation serves the cursor
	}
	if _, ok := e.cache.get(q.Text, q.Cursor); ok && e.opts.Config.TypedAhead {
		return false
	}
	return e.avail.held(time.Now()) == nil
}

// awaitAnticipationLocked waits, if the document's anticipated generation
// is being built, until it is registered or given up, so that a request
// joins it instead of starting its own. Called with e.mu held; it is held
// again on return. It returns false if done closed first.
func (e *Engine) awaitAnticipationLocked(uri string, done <-chan struct{}) bool {
	a := e.pending[uri]
	if a == nil {
		return true
	}
	e.mu.Unlock()
	defer e.mu.Lock()
	select {
	case <-a.ready:
		return true
	case <-done:
		return false
	}
}

// claimLocked records that a request is served by g: an anticipated
// generation is counted as used the first time.
func (e *Engine) claimLocked(g *generation) {
	if g.anticipated && !g.claimed {
		e.stats.anticipatedUsed.Add(1)
	}
	g.claimed = true
}

// unclaimedDiesLocked counts an anticipated generation that stops before
// any request took it up: cancelled at the model if it was still running,
// and its tokens wasted.
func (e *Engine) unclaimedDiesLocked(g *generation) {
	if !g.anticipated || g.claimed {
		return
	}
	if !g.done {
		e.stats.anticipatedCancelled.Add(1)
	}
	e.stats.anticipatedWasted.Add(int64(g.deltas))
}

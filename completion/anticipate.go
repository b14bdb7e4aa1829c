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
	cursor int           // where the change left the cursor
	ready  chan struct{} // closed once it is registered or given up
}

// Anticipate starts, on its own goroutine, the generation that the next
// request for uri is expected to want at cursor, for the document as it
// is now (after the change DidChange was last told about). build is
// called once, on that goroutine, to make the query: cursor and the
// document's text, tree and context as the request would have them; it
// returns the query, a function to release what the query holds (called
// once the request to the model is built; may be nil), and ok false to
// start nothing.
//
// Nothing starts, and build is not called, when the document's own
// generation already serves cursor (typed ahead), while the model is held
// back, or when a debounce is configured; nothing starts when the cache
// answers the query, or when the document changed again or another
// anticipation superseded this one before the generation was built (build
// is skipped if that happened before it began). Call Anticipate right
// after DidChange, in document order.
func (e *Engine) Anticipate(uri string, cursor int, build func() (q Query, release func(), ok bool)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if old := e.pending[uri]; old != nil {
		e.settleLocked(uri, old) // superseded: its goroutine finds itself gone
	}
	if e.opts.Config.Debounce > 0 {
		return
	}
	a := &anticipation{change: e.changes[uri], cursor: cursor, ready: make(chan struct{})}
	e.pending[uri] = a
	if !e.wantedLocked(uri, a, nil) { // answered already or held back: not even built
		e.settleLocked(uri, a)
		return
	}
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		e.anticipate(uri, a, build)
	}()
}

// anticipate builds and registers a's generation, unless it is no longer
// wanted: each step (build, the model request, the registration) begins
// only if it still is.
func (e *Engine) anticipate(uri string, a *anticipation, build func() (Query, func(), bool)) {
	defer e.settle(uri, a)
	if !e.wanted(uri, a, nil) {
		return
	}
	q, release, ok := build()
	if release == nil {
		release = func() {}
	}
	if !ok || !e.wanted(uri, a, &q) {
		release()
		return
	}
	g, launch := e.prepare(q)
	release()
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.wantedLocked(uri, a, &q) {
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
	e.settleLocked(uri, a)
}

// wanted is wantedLocked, taking e.mu.
func (e *Engine) wanted(uri string, a *anticipation, q *Query) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.wantedLocked(uri, a, q)
}

// wantedLocked reports whether a's generation should still be built: the
// engine is open, a is the document's pending anticipation (not
// superseded, not ended by DidClose), the document has not changed since,
// the model is not held back, and nothing answers a's cursor already:
// not the document's own generation, nor, once a's query q is built (nil
// before), the cache.
func (e *Engine) wantedLocked(uri string, a *anticipation, q *Query) bool {
	if e.closed || e.pending[uri] != a || e.changes[uri] != a.change || e.servesLocked(e.gens[uri], a.cursor) {
		return false
	}
	if q != nil {
		if _, ok := e.cachedLocked(q.Text, q.Cursor); ok {
			return false
		}
	}
	return e.avail.held(time.Now()) == nil
}

// settle ends a, if it is still the document's pending anticipation.
func (e *Engine) settle(uri string, a *anticipation) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.settleLocked(uri, a)
}

// settleLocked ends a, if it is still the document's pending
// anticipation: requests waiting for it go on.
func (e *Engine) settleLocked(uri string, a *anticipation) {
	if e.pending[uri] == a {
		delete(e.pending, uri)
		close(a.ready)
	}
}

// awaitAnticipationLocked waits, if the document's anticipated generation
// is being built, until it is registered or given up, so that a request
// joins it instead of starting its own. Called with e.mu held; it is held
// again on return. It returns false if done closed first; true, without
// waiting further, once until closes (the caller answers Pending then,
// see Query.Until).
func (e *Engine) awaitAnticipationLocked(uri string, done, until <-chan struct{}) bool {
	a := e.pending[uri]
	if a == nil {
		return true
	}
	e.mu.Unlock()
	defer e.mu.Lock()
	select {
	case <-a.ready:
	case <-until:
	case <-done:
		return false
	}
	return true
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

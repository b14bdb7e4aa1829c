// Package completion is wisp's inline completion engine: it turns a cursor
// in a document snapshot into a suggestion, as fast as the model can make
// one. It chooses the context (package gather), asks the model, streams
// the answer to whoever waits, shapes it to the document (package shape),
// keeps serving the same stream while the user types what it shows, stops
// the stream at the model the moment a keystroke makes it stale, and
// caches finished suggestions for backspace-and-retype.
//
// The engine works in byte offsets on text snapshots; it never sees LSP
// types.
package completion

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/completion/gather"
	"github.com/wisp-lsp/wisp/completion/history"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// Options configure an Engine. Model and Log are required.
type Options struct {
	Model  transport.Model
	Config config.Completion
	Log    *zap.Logger
	// MaxTokens bounds each generation; 0 picks by plan (see maxTokensFor).
	MaxTokens int
	// Status, if set, hears the model's availability when it changes:
	// StatusUnavailable with the reason when generations start failing,
	// StatusReady when the model answers again. It is never called per
	// keystroke, and calls are ordered; it may block briefly (it holds up
	// only the generation that changed the state).
	Status func(state, message string)
	// Workspace, if set, resolves identifiers near the cursor to
	// definitions across the workspace (see gather.Input.Workspace).
	Workspace gather.Resolver
}

// Query asks for a suggestion at one cursor.
type Query struct {
	// URI identifies the document across queries and changes.
	URI, Path, LanguageID string
	Text                  *text.Text
	// Tree is the caller's; the engine copies what it keeps. May be nil.
	Tree *syntax.Tree
	// History holds the user's recent edits across files, newest first.
	History []history.Edit
	// Workspace, if set, resolves identifiers near the cursor to
	// definitions across the workspace; the engine fills in
	// Options.Workspace when it is nil.
	Workspace gather.Resolver
	// Cursor is a byte offset into Text.
	Cursor int
	// Others are the other open buffers, for context. Their trees are the
	// caller's, valid for the call.
	Others []Buffer
	// Budget, when positive, bounds how long Suggest waits for the model;
	// past it Suggest answers Pending and the generation carries on into
	// the cache.
	Budget time.Duration
	// Until, when not nil, ends the wait as Budget does once it is
	// closed: Suggest answers Pending, and the generation is kept until
	// it is done rather than stopped for want of a waiter, so that the
	// caller can ask again at once for the text as it has become (the
	// language server follows typing so, see lsp/completionfollow.go).
	// A query whose Until closes before it reaches a generation (it is
	// closed when the query comes, or closes while the query waits for an
	// anticipated generation being built) is answered Pending at once and
	// touches no generation.
	Until <-chan struct{}
	// Partial, if set, receives the suggestion as it streams.
	Partial func(text string)
}

// Source says where a suggestion came from.
type Source string

// Sources of a suggestion.
const (
	FromModel      Source = "model"
	FromTypedAhead Source = "typed-ahead"
	FromCache      Source = "cache"
)

// Suggestion is the text to insert at the query's cursor.
type Suggestion struct {
	Text   string
	Source Source
	// Pending: the budget passed first; the generation continues.
	Pending bool
	// TTFT and Total are the generation's, measured from its start.
	TTFT, Total time.Duration
}

// Stats count what the engine did. Read with Engine.Stats.
type Stats struct {
	Queries        int64 `json:"queries"`
	ModelRequests  int64 `json:"modelRequests"`
	FromTypedAhead int64 `json:"fromTypedAhead"`
	FromCache      int64 `json:"fromCache"`
	Cancelled      int64 `json:"cancelled"`
	// Failures counts generations that failed (errors, stalls), not
	// cancellations.
	Failures int64 `json:"failures"`
	// Speculative counts generations started ahead of the user (they are
	// also ModelRequests); SpeculativeUsed those a change took up,
	// SpeculativeCancelled those stopped at the model before they ended.
	Speculative          int64 `json:"speculative"`
	SpeculativeUsed      int64 `json:"speculativeUsed"`
	SpeculativeCancelled int64 `json:"speculativeCancelled"`
	// Tokens counts the deltas every generation received;
	// SpeculativeWastedTokens those of speculative generations no change
	// took up.
	Tokens                  int64 `json:"tokens"`
	SpeculativeWastedTokens int64 `json:"speculativeWastedTokens"`
	// LookAheadUsed counts next lines served from a one-line suggestion's
	// look-ahead, without a model request; LookAheadWastedTokens the
	// deltas past the shown line of look-aheads never served.
	LookAheadUsed         int64 `json:"lookAheadUsed"`
	LookAheadWastedTokens int64 `json:"lookAheadWastedTokens"`
	// Warmups counts prompt-cache warm-ups sent after idle moments.
	Warmups int64 `json:"warmups"`
	// Anticipated counts generations started at a change, before the
	// editor's request (they are also ModelRequests; see Anticipate);
	// AnticipatedUsed those a request took up, AnticipatedCancelled those
	// stopped at the model before any request did, and
	// AnticipatedWastedTokens the deltas of those no request took up.
	// Branches counts generations started for the model's runner-up at
	// a token it doubted (they are also ModelRequests; see unsure.go),
	// BranchesUsed those typing took up, BranchWastedTokens the deltas
	// of those it did not.
	Branches                int64 `json:"branches"`
	BranchesUsed            int64 `json:"branchesUsed"`
	BranchWastedTokens      int64 `json:"branchWastedTokens"`
	Anticipated             int64 `json:"anticipated"`
	AnticipatedUsed         int64 `json:"anticipatedUsed"`
	AnticipatedCancelled    int64 `json:"anticipatedCancelled"`
	AnticipatedWastedTokens int64 `json:"anticipatedWastedTokens"`
}

// ErrClosed is returned by Suggest after Close.
var ErrClosed = errors.New("completion engine closed")

// Engine serves suggestions. It is safe for concurrent use; DidChange must
// be called in document order, before any Suggest for the new version.
type Engine struct {
	opts  Options
	log   *zap.Logger
	model transport.Model // opts.Model, every generation bounded by the configured deadlines
	avail *availability

	mu   sync.Mutex // guards the fields below
	gens map[string]*generation
	// specs holds each document's speculative generation, at most one,
	// started from the generation in gens.
	specs map[string]*generation
	// warms holds each document's idle warm-up state (warm.go).
	warms map[string]*warmer
	// noWarm is set once the model said it cannot warm prompts.
	noWarm atomic.Bool
	cache  *cache
	closed bool
	// lastKey remembers when each document was last asked, for the
	// adaptive debounce.
	lastKey map[string]time.Time
	pace    map[string]time.Duration // smoothed time between keystrokes
	// changes counts each document's changes (DidChange), so that an
	// anticipated generation built for one text is not started for a
	// later one.
	changes map[string]uint64
	// pending holds each document's anticipated generation while it is
	// being built (anticipate.go).
	pending map[string]*anticipation

	stats struct {
		queries, requests, typedAhead, cached, cancelled, failures                         atomic.Int64
		spec, specUsed, specCancelled, tokens, specWasted, lookAhead, aheadWasted, warmups atomic.Int64
		anticipated, anticipatedUsed, anticipatedCancelled, anticipatedWasted              atomic.Int64
		branches, branchesUsed, branchWasted                                               atomic.Int64
	}
	wg sync.WaitGroup // generations in flight
}

// NewEngine returns an engine that asks opts.Model.
func NewEngine(opts Options) *Engine {
	if opts.Log == nil {
		opts.Log = zap.NewNop()
	}
	model := transport.WithDeadlines(opts.Model, transport.Deadlines{
		FirstToken: opts.Config.FirstTokenTimeout, Idle: opts.Config.IdleTimeout})
	return &Engine{opts: opts, log: opts.Log, model: model, avail: &availability{log: opts.Log, notify: opts.Status},
		gens: map[string]*generation{}, specs: map[string]*generation{}, warms: map[string]*warmer{}, cache: newCache(256),
		lastKey: map[string]time.Time{}, pace: map[string]time.Duration{},
		changes: map[string]uint64{}, pending: map[string]*anticipation{}}
}

// Stats returns the counters so far.
func (e *Engine) Stats() Stats {
	return Stats{Queries: e.stats.queries.Load(), ModelRequests: e.stats.requests.Load(),
		FromTypedAhead: e.stats.typedAhead.Load(), FromCache: e.stats.cached.Load(), Cancelled: e.stats.cancelled.Load(),
		Failures: e.stats.failures.Load(), Speculative: e.stats.spec.Load(), SpeculativeUsed: e.stats.specUsed.Load(),
		SpeculativeCancelled: e.stats.specCancelled.Load(), Tokens: e.stats.tokens.Load(),
		SpeculativeWastedTokens: e.stats.specWasted.Load(), LookAheadUsed: e.stats.lookAhead.Load(),
		LookAheadWastedTokens: e.stats.aheadWasted.Load(), Warmups: e.stats.warmups.Load(),
		Anticipated: e.stats.anticipated.Load(), AnticipatedUsed: e.stats.anticipatedUsed.Load(),
		AnticipatedCancelled: e.stats.anticipatedCancelled.Load(), AnticipatedWastedTokens: e.stats.anticipatedWasted.Load(),
		Branches: e.stats.branches.Load(), BranchesUsed: e.stats.branchesUsed.Load(), BranchWastedTokens: e.stats.branchWasted.Load()}
}

// Close stops every generation and waits for them to end.
func (e *Engine) Close() {
	e.mu.Lock()
	e.closed = true
	for uri, g := range e.gens {
		e.killLocked(g)
		delete(e.gens, uri)
	}
	for uri := range e.specs {
		e.discardSpecLocked(uri)
	}
	for uri := range e.warms {
		e.forgetLocked(uri)
	}
	e.mu.Unlock()
	e.wg.Wait()
}

// Suggest returns a suggestion for q. A request superseded by typing (its
// ctx cancelled) answers an empty suggestion and no error: editors print
// errors, and a cancelled request is normal.
//
// A generation that failed is never served again: the next request at the
// same cursor asks the model anew. While a rate limit's Retry-After runs,
// Suggest fails at once without asking; the first request after it asks.
// Failures come back as errors (for headless callers); the language server
// answers them empty and tells the state through Options.Status.
func (e *Engine) Suggest(ctx context.Context, q Query) (Suggestion, error) {
	e.stats.queries.Add(1)
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return Suggestion{}, ErrClosed
	}
	wait := e.debounceLocked(q.URI)
	e.activeLocked(q.URI)
	if !e.awaitAnticipationLocked(q.URI, ctx.Done(), q.Until) {
		e.mu.Unlock()
		return Suggestion{}, nil
	}
	if e.closed {
		e.mu.Unlock()
		return Suggestion{}, ErrClosed
	}
	select {
	case <-q.Until:
		// The text moved on before the query came: its cursor is behind
		// the generation's, which must not be taken for another cursor's
		// and stopped. The caller asks again for the text as it is.
		e.mu.Unlock()
		return Suggestion{Pending: true, Source: FromModel}, nil
	default:
	}
	g := e.gens[q.URI]
	outrun := false
	if e.servesLocked(g, q.Cursor) {
		s, err := e.serve(ctx, g, q, g.typed != "")
		if !errors.Is(err, errOutrun) {
			return s, err
		}
		// Typed ahead of a generation that ended without it: ask anew.
		e.mu.Lock()
		g, outrun = nil, true
	}
	if rest, ok := e.cachedLocked(q.Text, q.Cursor); ok {
		e.mu.Unlock()
		e.stats.cached.Add(1)
		return Suggestion{Text: rest, Source: FromCache}, nil
	}
	if g != nil {
		e.killLocked(g)
		delete(e.gens, q.URI)
	}
	// The user's own request comes first: a speculation it did not take
	// up gives its lane back before the request is sent.
	e.discardSpecLocked(q.URI)
	e.mu.Unlock()

	if wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return Suggestion{}, nil
		case <-t.C:
		}
	}
	if ctx.Err() != nil {
		return Suggestion{}, nil
	}
	if err := e.avail.held(time.Now()); err != nil {
		return Suggestion{}, err
	}
	g, launch := e.prepare(q)
	e.mu.Lock()
	g.strict = outrun
	if e.closed {
		e.mu.Unlock()
		g.cancel()
		g.closeTree()
		return Suggestion{}, ErrClosed
	}
	if old := e.gens[q.URI]; old != nil {
		e.killLocked(old)
	}
	e.discardSpecLocked(q.URI)
	// Registered before it runs, so that a generation failing at once
	// leaves the slot (run sees itself there) instead of being
	// registered after its failure and served again.
	e.gens[q.URI] = g
	launch()
	return e.serve(ctx, g, q, false)
}

// servesLocked reports whether g, the document's generation (may be
// nil), serves a request at cursor: it is live, cursor is where the
// typing since its start left off, and if anything was typed, serving
// typed-ahead text is configured.
func (e *Engine) servesLocked(g *generation, cursor int) bool {
	return g != nil && !g.dead && cursor == g.anchor+len(g.typed) && (g.typed == "" || e.opts.Config.TypedAhead)
}

// cachedLocked returns the rest of a cached suggestion for cursor in doc,
// when serving typed-ahead text is configured.
func (e *Engine) cachedLocked(doc *text.Text, cursor int) (rest string, ok bool) {
	if !e.opts.Config.TypedAhead {
		return "", false
	}
	return e.cache.get(doc, cursor)
}

// Unavailable records that the model failed outside a generation (the
// connection's warm-up): Options.Status hears it as it would a
// generation's failure, once per change, and the next answer is told as
// the recovery. Once the engine is closed it records nothing.
func (e *Engine) Unavailable(err error) {
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if !closed { // a replaced engine's closed model says nothing of the new one's
		e.avail.failed(time.Now(), err)
	}
}

// debounceLocked returns how long a new generation for uri should wait.
// With the default of zero it never waits: stale generations are cancelled
// at the model on the next keystroke, so waiting only adds latency. A
// positive configured Debounce is the most it waits, scaled down to half
// the user's recent pace, so slow typists are never held up.
func (e *Engine) debounceLocked(uri string) time.Duration {
	now := time.Now()
	if last, ok := e.lastKey[uri]; ok {
		gap := now.Sub(last)
		if p, ok := e.pace[uri]; ok {
			e.pace[uri] = (3*p + gap) / 4
		} else {
			e.pace[uri] = gap
		}
	}
	e.lastKey[uri] = now
	max := e.opts.Config.Debounce
	if max <= 0 {
		return 0
	}
	if p, ok := e.pace[uri]; ok && p/2 < max {
		return p / 2
	}
	return max
}

// prepare builds a generation for q (context, prompt, plan: the work done
// outside the lock) and returns it with the function that starts it,
// which must be called with e.mu held once the generation is registered.
func (e *Engine) prepare(q Query) (*generation, func()) {
	if q.Tree != nil {
		q.Tree = q.Tree.Copy() // the generation's own, closed when it ends
	}
	if q.Workspace == nil {
		q.Workspace = e.opts.Workspace
	}
	b := BuildRequest(q, e.opts.Config, e.opts.MaxTokens)
	req := b.Request
	genCtx, cancel := context.WithCancel(context.Background())
	g := &generation{uri: q.URI, anchor: q.Cursor, doc: q.Text, tree: q.Tree, plan: b.Plan, cancel: cancel,
		start: time.Now(), req: req, updated: make(chan struct{})}
	return g, func() {
		e.rememberLocked(q.URI, req)
		e.stats.requests.Add(1)
		e.wg.Add(1)
		go e.run(genCtx, g)
	}
}

// run streams g's generation (g.req) from the model. A generation that fails
// leaves the document's slot at once, so that no later request is served
// its error.
func (e *Engine) run(ctx context.Context, g *generation) {
	defer e.wg.Done()
	req := g.req
	if req.DoubtBelow > 0 {
		req.OnDoubt = func(d transport.Doubt) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.doubtLocked(g, d)
			for c := g.child; c != nil; c = c.child {
				e.doubtLocked(c, d)
			}
		}
	}
	res, err := e.model.Generate(ctx, req, func(delta string) {
		e.mu.Lock()
		if g.firstAt.IsZero() {
			g.firstAt = time.Now()
		}
		g.deltas++
		e.stats.tokens.Add(1)
		if !g.plan.Multiline && strings.Contains(g.raw.String(), "\n") {
			g.ahead++
		}
		g.raw.WriteString(delta)
		g.broadcastLocked()
		for c := g.child; c != nil; c = c.child {
			c.raw.WriteString(delta)
			c.deltas++
			c.broadcastLocked()
		}
		e.mu.Unlock()
	})
	e.mu.Lock()
	g.done = true
	g.err = err
	// Stopped by its output bound, the reply's last line may be cut
	// anywhere: it is shaped as written, not completed (suggestionLocked).
	g.cutShort = err == nil && res.FinishReason == "length"
	failed := err != nil && !transport.IsCancelled(err)
	if failed && e.gens[g.uri] == g {
		delete(e.gens, g.uri)
	}
	if failed && e.specs[g.uri] == g {
		e.discardSpecLocked(g.uri)
	}
	answered := !g.firstAt.IsZero() || err == nil
	// Shape the final text while the tree is still open: raw never
	// changes after this, so the shaped text stays valid without it.
	full, _ := g.suggestionLocked()
	if err == nil && !g.dead && !g.fork && full != "" {
		e.cache.put(g.doc, g.anchor, g.trimLocked(full, 0))
	}
	g.closeTree()
	if g.grace != nil {
		g.grace.Stop()
	}
	g.broadcastLocked()
	speculative := g.speculative
	next := e.successorLocked(g, full)
	if g.child == nil {
		// Its look-ahead has not been served: wasted unless a change
		// takes it later (promoteLocked takes it back then).
		e.stats.aheadWasted.Add(int64(g.ahead))
	}
	for c := g.child; c != nil; c = c.child {
		// What was taken from g's stream ends with it.
		c.done, c.err, c.cutShort = true, err, g.cutShort
		if failed && e.gens[c.uri] == c {
			delete(e.gens, c.uri)
		}
		c.broadcastLocked()
		if cfull, _ := c.suggestionLocked(); err == nil && !c.dead && e.gens[c.uri] == c {
			next = e.successorLocked(c, cfull)
		}
	}
	e.mu.Unlock()
	switch {
	case failed && speculative:
		// Nobody asked for it: a failed speculation is not the model's
		// state, and the user's next request reports that anyway.
		e.log.Debug("speculative generation failed", zap.Error(err))
	case failed:
		e.stats.failures.Add(1)
		e.avail.failed(time.Now(), err)
	case answered:
		e.avail.answered()
	}
	if next != nil {
		e.speculate(next)
	}
}

// errOutrun is serve's answer when the user typed past the end of a
// generation that agreed with the typing only while it was incomplete.
var errOutrun = errors.New("typed past the end of the generation")

// serve waits on g for q and answers. Called with e.mu held; returns with
// it released.
func (e *Engine) serve(ctx context.Context, g *generation, q Query, typedAhead bool) (Suggestion, error) {
	g.wanted++
	e.claimLocked(g)
	if g.grace != nil {
		g.grace.Stop()
		g.grace = nil
	}
	defer e.unwant(g)
	var budget <-chan time.Time
	if q.Budget > 0 {
		t := time.NewTimer(q.Budget)
		defer t.Stop()
		budget = t.C
	}
	lastPartial := ""
	for {
		rest, final, ok := g.remainderLocked()
		if !ok && !g.dead && typedAhead && q.Cursor == g.anchor+len(g.typed) {
			// The model ended without the text typed since it was asked
			// (typing agreed with it while it had produced less), and
			// nothing was typed since this request: ask anew for it. (If
			// something was, a newer request asks for the text as it is.)
			e.killLocked(g)
			if e.gens[g.uri] == g {
				delete(e.gens, g.uri)
			}
			e.mu.Unlock()
			return Suggestion{}, errOutrun
		}
		if !ok || g.dead {
			e.mu.Unlock()
			return Suggestion{}, nil
		}
		if final {
			err := g.err
			s := e.suggestionLocked(g, rest, typedAhead)
			e.mu.Unlock()
			if err != nil && !transport.IsCancelled(err) {
				return Suggestion{}, err
			}
			return s, nil
		}
		updated := g.updated
		e.mu.Unlock()
		if q.Partial != nil && rest != lastPartial {
			// Outside the lock: sending may block on a slow client, and
			// DidChange on the read loop must never wait for that.
			lastPartial = rest
			q.Partial(rest)
		}
		select {
		case <-updated:
		case <-ctx.Done():
			return Suggestion{}, nil
		case <-budget:
			return e.keepPending(g)
		case <-q.Until:
			return e.keepPending(g)
		}
		e.mu.Lock()
	}
}

// keepPending answers Pending for a request whose wait ended before g's
// text was final (its Budget passed or its Until closed) and keeps g until
// it is done, into the cache, instead of stopping it for want of a
// waiter.
func (e *Engine) keepPending(g *generation) (Suggestion, error) {
	e.mu.Lock()
	g.keep = true
	e.mu.Unlock()
	return Suggestion{Pending: true, Source: FromModel}, nil
}

func (e *Engine) suggestionLocked(g *generation, rest string, typedAhead bool) Suggestion {
	s := Suggestion{Text: rest, Source: FromModel}
	if typedAhead {
		s.Source = FromTypedAhead
		e.stats.typedAhead.Add(1)
	}
	if !g.firstAt.IsZero() {
		s.TTFT = g.firstAt.Sub(g.start)
	}
	s.Total = time.Since(g.start)
	return s
}

// unwant drops one request's claim on g; when none is left and g is still
// generating, g lives on for the grace period (the editor's next request
// after a keystroke usually wants it), then stops at the model.
func (e *Engine) unwant(g *generation) {
	e.mu.Lock()
	defer e.mu.Unlock()
	g.wanted--
	e.graceLocked(g)
}

// graceLocked starts g's grace period if no request wants g while it is
// still generating: past it, g stops at the model.
func (e *Engine) graceLocked(g *generation) {
	if g.wanted > 0 || g.done || g.dead || g.keep {
		return
	}
	grace := e.opts.Config.Grace
	g.grace = time.AfterFunc(grace, func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		if g.wanted == 0 && !g.done && !g.dead && !g.keep {
			e.killLocked(g)
			if e.gens[g.uri] == g {
				delete(e.gens, g.uri)
			}
		}
	})
}

// killLocked stops g at the model.
func (e *Engine) killLocked(g *generation) {
	if g.dead {
		return
	}
	g.dead = true
	if !g.done {
		e.stats.cancelled.Add(1)
	}
	e.dropBranchLocked(g)
	e.unclaimedDiesLocked(g)
	g.cancel()
	g.broadcastLocked()
}

// DidChange tells the engine that the document at uri changed from before
// to after by edits. Typing that matches the live suggestion keeps its
// generation serving; any other change stops it at the model at once.
func (e *Engine) DidChange(uri string, before, after *text.Text, edits []text.Edit) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.changes[uri]++
	g := e.gens[uri]
	if g == nil || g.dead {
		e.discardSpecLocked(uri) // nothing left for it to follow
		return
	}
	if len(edits) > 1 {
		// Each edit is in the coordinates the one before it left, and the
		// text between is not at hand: what the change did, all told.
		edits = []text.Edit{text.Between(before, after)}
	}
	for _, ed := range edits {
		cursor := g.anchor + len(g.typed)
		switch {
		case ed.Start == ed.OldEnd && ed.Start == cursor && ed.NewEnd > ed.Start:
			// Typing at the cursor: fine while it agrees with the model.
			ins := after.String()[ed.Start:ed.NewEnd]
			if next := e.promoteLocked(g, g.typed+ins); next != nil {
				// The suggestion was taken: its successor serves on.
				g = next
				continue
			}
			if !g.acceptsLocked(ins) {
				if br := e.takeBranchLocked(g, g.typed+ins); br != nil {
					// The user typed the model's runner-up: its branch
					// serves on.
					g = br
					continue
				}
				e.dropLocked(g)
				return
			}
			if g.pastShownLocked(g.typed + ins) {
				// The model agrees, but not the text shown (shaping
				// trimmed it): shape the rest anew from here.
				if c := e.rebaseLocked(g, g.typed+ins, after); c != nil {
					g = c
					continue
				}
				e.dropLocked(g)
				return
			}
			g.typed += ins
			e.typedLocked(g)
			e.passBranchLocked(g)
		case ed.NewEnd == ed.Start && ed.OldEnd == cursor && ed.Start >= g.anchor:
			// Backspace over typed-ahead text: the suggestion still holds.
			g.typed = g.typed[:ed.Start-g.anchor]
		default:
			e.dropLocked(g)
			return
		}
	}
	g.broadcastLocked()
}

func (e *Engine) dropLocked(g *generation) {
	e.killLocked(g)
	delete(e.gens, g.uri)
	e.discardSpecLocked(g.uri)
}

// DidClose stops the document's generation.
func (e *Engine) DidClose(uri string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if g := e.gens[uri]; g != nil {
		e.dropLocked(g)
	}
	e.discardSpecLocked(uri)
	e.forgetLocked(uri)
	if a := e.pending[uri]; a != nil {
		e.settleLocked(uri, a)
	}
	delete(e.changes, uri)
	delete(e.lastKey, uri)
	delete(e.pace, uri)
}

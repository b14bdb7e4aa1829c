package completion

import (
	"context"
	"strings"
	"time"

	"github.com/wisp-lsp/wisp/completion/shape"
	"github.com/wisp-lsp/wisp/text"
)

// Speculation: once a generation is done (and, for a suggestion of
// several lines, half of it is typed), the engine asks the model for the
// document as it will be when the user has taken the suggestion —
// accepted it whole, or typed it through and pressed Enter — so the next
// ghost text is there the moment the change that takes it arrives. At most
// one speculative generation runs per document, started only from the
// document's own generation (one step ahead, never two); any change that
// does not take the suggestion stops it at the model, and the user's own
// request stops it before asking.

// successor is what a finished generation hands to speculate.
type successor struct {
	base *generation // the finished generation it follows
	full string      // base's suggestion
	raw  string      // base's whole reply, look-ahead included
}

// successorLocked returns what to speculate on after g finished with the
// suggestion full, or nil when it should not: speculation off, g failed,
// was replaced, is itself speculative, or suggested nothing — or not yet:
// a suggestion of several lines is speculated on once the user has typed
// half of it (see typedLocked), since most are left before their end.
func (e *Engine) successorLocked(g *generation, full string) *successor {
	if !e.opts.Config.Speculate || e.closed || g.err != nil || g.dead || g.speculative || !g.done ||
		full == "" || e.gens[g.uri] != g || e.specs[g.uri] != nil {
		return nil
	}
	if strings.Contains(full, "\n") && 2*len(g.typed) < len(full) {
		return nil
	}
	return &successor{base: g, full: full, raw: g.raw.String()}
}

// typedLocked is called after the user typed on along g: once half of a
// finished suggestion of several lines is typed, its successor starts.
func (e *Engine) typedLocked(g *generation) {
	if !e.opts.Config.Speculate || !g.done || e.specs[g.uri] != nil {
		return
	}
	full, _ := g.suggestionLocked()
	e.speculateLocked(g, full)
}

// speculateLocked starts g's successor, if it should have one now (see
// successorLocked), on its own goroutine: speculate takes e.mu.
func (e *Engine) speculateLocked(g *generation, full string) {
	if next := e.successorLocked(g, full); next != nil {
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			e.speculate(next)
		}()
	}
}

// speculate starts the generation that follows next.base once its
// suggestion is taken. The future document and its plan are built outside
// the lock; the generation is registered only if next.base is still the
// document's generation and nothing else speculates.
func (e *Engine) speculate(next *successor) {
	b := next.base
	src := b.doc.String()
	future := src[:b.anchor] + next.full + src[b.anchor:]
	cursor := b.anchor + len(next.full)
	doc := text.New(future)
	plan := shape.DecideAs(doc, b.plan.Language, cursor)
	lead := ""
	if !plan.Multiline && lookAheadTail(next.raw, next.full) != "" {
		return // b looked ahead: its next lines are the speculation (lookAheadLocked)
	}
	if !plan.Multiline {
		if !atLineEnd(future[cursor:]) {
			// Mid-line: the user moves on past what follows, not into
			// a continuation we could guess.
			return
		}
		// The suggestion finishes its line: the user's next key is
		// Enter, and the next suggestion is the next line.
		lead = lineBreak(plan)
		future = future[:cursor] + lead + future[cursor:]
		cursor += len(lead)
		doc = text.New(future)
		plan = shape.DecideAs(doc, b.plan.Language, cursor)
	}
	req := e.followRequest(b.req, next.full+lead, plan)

	ctx, cancel := context.WithCancel(context.Background())
	sp := &generation{uri: b.uri, anchor: cursor, doc: doc, plan: plan, cancel: cancel,
		start: time.Now(), req: req, speculative: true, lead: lead, updated: make(chan struct{})}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed || b.dead || e.gens[b.uri] != b || e.specs[b.uri] != nil {
		cancel()
		return
	}
	e.specs[b.uri] = sp
	e.stats.requests.Add(1)
	e.stats.spec.Add(1)
	e.wg.Add(1)
	go e.run(ctx, sp)
}

// promoteLocked makes the document's speculative generation its own when
// typed (what the user has now typed at g's anchor) takes g's final
// suggestion and the speculation's lead, and what follows agrees with the
// speculation. It returns the promoted generation, or nil when typed does
// not take the suggestion; g is then left as it was.
func (e *Engine) promoteLocked(g *generation, typed string) *generation {
	full, final := g.suggestionLocked()
	if !final || !strings.HasPrefix(typed, full) {
		return nil
	}
	sp := e.specs[g.uri]
	if sp == nil || sp.dead {
		// No speculation yet: g's own look-ahead, if it has one.
		if sp = e.lookAheadLocked(g, full, typed); sp == nil {
			return nil
		}
	}
	head := full + sp.lead
	if !strings.HasPrefix(typed, head) {
		return nil
	}
	rest := typed[len(head):]
	if rest != "" && !sp.acceptsLocked(rest) {
		return nil
	}
	delete(e.specs, g.uri)
	sp.typed, sp.speculative = rest, false
	e.gens[g.uri] = sp
	if sp.fromLookAhead {
		e.stats.lookAhead.Add(1)
		if g.done {
			e.stats.aheadWasted.Add(-int64(g.ahead)) // counted as wasted when g ended
		}
	} else {
		e.stats.specUsed.Add(1)
	}
	if sp.fromLookAhead {
		g.handOverLocked(sp)
		e.dropBranchLocked(g)
	} else {
		e.killLocked(g)
	}
	sp.broadcastLocked()
	e.branchLocked(sp)
	if sp.done {
		// It finished while it waited: its own successor starts now
		// (successorLocked refuses a failed or empty one).
		full, _ := sp.suggestionLocked()
		e.speculateLocked(sp, full)
	}
	return sp
}

// discardSpecLocked stops the document's speculative generation, if any,
// at the model and counts what it cost.
func (e *Engine) discardSpecLocked(uri string) {
	sp := e.specs[uri]
	if sp == nil {
		return
	}
	delete(e.specs, uri)
	if !sp.done {
		e.stats.specCancelled.Add(1)
	}
	e.stats.specWasted.Add(int64(sp.deltas))
	sp.dead = true
	sp.cancel()
	sp.broadcastLocked()
}

package completion

import (
	"context"
	"time"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport"
)

// Doubts: a model that reports token probabilities says where it was
// unsure of what it wrote, and that is where a model that is sometimes
// wrong is wrong. With completion.unsure "trim" the ghost text ends
// before the first such token past the cursor (keeping what the model's
// choice and its runner-up there agree on), so the user is not shown
// text the model itself doubted; once the user has typed up to that
// point the model's choice is shown on, to the next doubt. With "branch"
// the engine also asks the model, as soon as the doubt arrives, for the
// text that follows the runner-up: when the user types the runner-up
// instead of the model's choice, that generation serves the next ghost
// text at once instead of a new request a round trip later. At most one
// branch runs per generation, for the first doubt the typing has not
// passed; any change that leaves it stops it at the model.

// doubtBelow is the probability under which a token counts as doubted:
// less than even odds.
const doubtBelow = 0.5

// doubt is a doubted token in a generation's raw text.
type doubt struct {
	at  int    // where the token starts in raw
	cut int    // where the chosen token and the runner-up part: at plus their common prefix
	alt string // the runner-up token; "" when the model named none
}

// doubtLocked records d, reported by g's stream, on g: its offset is the
// stream's, which is g's raw shifted by g.streamAt. The document's own
// generation then branches at it, if it should (branchLocked).
func (e *Engine) doubtLocked(g *generation, d transport.Doubt) {
	at := d.At + g.streamAt
	if at < 0 {
		return // before a continuation's start
	}
	dd := doubt{at: at, cut: at}
	if len(d.Alternatives) > 0 {
		dd.alt = d.Alternatives[0]
		dd.cut += commonPrefix(d.Token, dd.alt)
	}
	g.doubts = append(g.doubts, dd)
	e.branchLocked(g)
}

// commonPrefix returns the length in bytes of the longest common prefix
// of a and b.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// trimLocked returns full, g's shaped suggestion, cut where the ghost
// text should stop for a user who has typed typed bytes of it: before
// the first doubt whose agreed part (up to its cut) lies past typed.
// Full is returned whole when there is no such doubt, or when shaping
// moved the text so that raw offsets do not hold in it.
func (g *generation) trimLocked(full string, typed int) string {
	raw := g.raw.String()
	for _, d := range g.doubts {
		if d.cut <= typed {
			continue
		}
		if d.cut < len(full) && d.cut <= len(raw) && full[:d.cut] == raw[:d.cut] {
			return full[:d.cut]
		}
		break
	}
	return full
}

// branchLocked starts g's branch, if it should have one now: branching is
// configured, g is the document's live generation with no branch, and a
// doubt with a runner-up lies ahead of the typing (typed has not passed
// the part both agree on). The branch asks the model for the text after
// g's text up to the doubt and the runner-up, at most a line's worth of
// tokens, and serves it from g's anchor; it is g's alone (killLocked
// stops it with g).
func (e *Engine) branchLocked(g *generation) {
	if e.opts.Config.Unsure != config.UnsureBranch || e.closed || g.dead || g.branch != nil || e.gens[g.uri] != g {
		return
	}
	var d *doubt
	for i := range g.doubts {
		if g.doubts[i].alt != "" && len(g.typed) <= g.doubts[i].cut {
			d = &g.doubts[i]
			break
		}
	}
	if d == nil || d.at > g.raw.Len() {
		return
	}
	seed := g.raw.String()[:d.at] + d.alt
	req := g.req
	req.Prefix += seed
	req.MaxTokens = min(req.MaxTokens, lineTokens)
	ctx, cancel := context.WithCancel(context.Background())
	br := &generation{uri: g.uri, anchor: g.anchor, doc: g.doc, plan: g.plan, cancel: cancel,
		start: time.Now(), req: req, speculative: true, fork: true, streamAt: len(seed),
		updated: make(chan struct{})}
	br.raw.WriteString(seed)
	g.branch = br
	e.stats.requests.Add(1)
	e.stats.branches.Add(1)
	e.wg.Add(1)
	go e.run(ctx, br)
}

// takeBranchLocked makes g's branch the document's generation when
// typed, what the user has now typed at g's anchor, leaves g's text but
// agrees with the branch. It returns the branch, or nil (g is then left
// as it was).
func (e *Engine) takeBranchLocked(g *generation, typed string) *generation {
	br := g.branch
	if br == nil || br.dead || !br.acceptsLocked(typed) {
		return nil
	}
	g.branch = nil
	br.typed, br.speculative, br.fork = typed, false, false
	e.gens[g.uri] = br
	e.killLocked(g)
	e.discardSpecLocked(g.uri)
	e.stats.branchesUsed.Add(1)
	br.broadcastLocked()
	e.branchLocked(br)
	return br
}

// passBranchLocked is called after the user typed on along g: a branch
// the typing has left (the user took the model's choice over its
// runner-up) stops at the model, and the next doubt ahead gets one.
func (e *Engine) passBranchLocked(g *generation) {
	if br := g.branch; br != nil && !br.acceptsLocked(g.typed) {
		e.dropBranchLocked(g)
	}
	e.branchLocked(g)
}

// dropBranchLocked stops g's branch, if any, at the model and counts what
// it cost.
func (e *Engine) dropBranchLocked(g *generation) {
	br := g.branch
	if br == nil {
		return
	}
	g.branch = nil
	e.stats.branchWasted.Add(int64(br.deltas))
	e.killLocked(br)
}

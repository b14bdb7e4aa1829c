package completion

import (
	"context"
	"strings"
	"time"

	"github.com/wisp-lsp/wisp/completion/shape"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// generation is one model stream for one cursor position. Requests and
// generations are separate things: many requests (one per keystroke, each
// perhaps cancelled by the editor) may be served by one generation while
// the user types what it shows.
//
// All fields after the immutable block are guarded by the Engine's mu.
type generation struct {
	// Immutable after start.
	uri    string
	anchor int        // cursor offset when the generation started
	doc    *text.Text // the document at the anchor
	tree   *syntax.Tree
	plan   shape.Plan
	cancel context.CancelFunc
	start  time.Time
	// req is what the model was asked; a speculative successor extends it.
	// Immutable after the generation is built (run reads it unlocked).
	req transport.Request
	// speculative marks a generation started ahead of the user, for the
	// document as it will be once its predecessor's suggestion is taken;
	// it is cleared when a change takes the suggestion and the generation
	// becomes the document's own (see Engine.promoteLocked).
	speculative bool
	// lead is what the user must type after the predecessor's suggestion
	// before this speculative generation applies: "" or a line break.
	lead string
	// fromLookAhead marks a generation built from its predecessor's
	// look-ahead (see lookAheadLocked): it shares the predecessor's
	// stream and cancel, and is never sent to the model itself.
	fromLookAhead bool
	// child, set once a look-ahead generation was taken from this one
	// while it still streamed, receives this stream's deltas and end.
	child *generation
	// anticipated marks a generation started at a change, before any
	// request asked (see Engine.Anticipate); claimed is set once a
	// request is served by it.
	anticipated, claimed bool
	// doubts are the tokens of raw the model was unsure of, in order
	// (unsure.go); streamAt is where the stream's offset 0 falls in raw:
	// negative for a continuation that skipped the stream's start, the
	// length of its seed for a branch.
	doubts   []doubt
	streamAt int
	// branch is the generation for the runner-up at g's first doubt
	// ahead of the typing, or nil; fork marks a branch not yet taken.
	branch *generation
	fork   bool

	// typed is what the user has typed at the anchor since the start,
	// always consistent with raw (see DidChange).
	typed string
	// raw is the model's text so far.
	raw strings.Builder
	// shaped caches Fit of raw; valid while shapedLen == raw.Len().
	shaped    string
	shapedOK  bool
	shapedLen int
	// shapedFinal: shaped is the final text's shaping (shape.Fit), not
	// a streaming one's (shape.FitPartial).
	shapedFinal bool
	done        bool
	err         error
	// cutShort: the model stopped at the request's output bound
	// (finish reason "length"), not where it meant to.
	cutShort bool
	firstAt  time.Time // when the first delta arrived; zero before
	deltas   int       // deltas received (a continuation's: its stream's), the engine's count of tokens
	ahead    int       // deltas received past a one-line plan's line: its look-ahead
	// updated is closed and replaced whenever raw, done or typed change.
	updated chan struct{}
	// wanted counts requests waiting on the generation; keep holds it
	// alive until done (a completion-item request that answered early).
	wanted int
	keep   bool
	grace  *time.Timer
	// dead is set once the generation was cancelled or replaced.
	dead bool
	// strict makes typing agree only with text the model has produced:
	// set on a generation started again because typing outran its
	// predecessor, so that a key typed before its first token starts
	// afresh at the new cursor rather than betting on it a second time,
	// and on an anticipated one, which the next key's anticipation
	// replaces (see Engine.Anticipate).
	strict bool
}

// closeTree releases the generation's copy of the syntax tree, once its
// text is final or it never ran.
func (g *generation) closeTree() {
	if g.tree != nil {
		g.tree.Close()
		g.tree = nil
	}
}

// broadcastLocked wakes every request waiting on g.
func (g *generation) broadcastLocked() {
	close(g.updated)
	g.updated = make(chan struct{})
}

// suggestionLocked returns the shaped suggestion from the anchor and
// whether it is final: the generation is done, or the model has written
// all of the reply the plan shows (shape.Settled: a single-line plan's
// line, a multi-line plan's lines), so that nothing it writes later can
// change the suggestion. A request answers as soon as it is final: a
// completion item for a blank line comes once its lines are written, not
// when the model reaches its output bound.
//
// While it is not final, the text is shaped as a reply still streaming
// (shape.FitPartial): what the model has written so far, nothing added
// that the rest of the reply would take away again.
func (g *generation) suggestionLocked() (full string, final bool) {
	settled := shape.Settled(g.plan, g.raw.String())
	final = g.done || settled
	// A reply cut short by its output bound is shaped as one still
	// streaming: what the model wrote, its last line not completed with
	// closers it would not have written there. Typing past its end asks
	// anew (errOutrun). A reply cut short after all the plan shows was
	// not cut short where it is shown.
	whole := final && (settled || !g.cutShort)
	// Once settled, more text changes nothing: it is not shaped again.
	stale := g.shapedLen != g.raw.Len() && !(settled && g.shapedFinal)
	if !g.shapedOK || stale || g.shapedFinal != whole {
		raw := g.raw.String()
		fit := shape.FitPartial
		if whole {
			fit = shape.Fit
		}
		g.shaped, _ = fit(g.doc, g.tree, g.anchor, g.plan, raw)
		g.shapedLen, g.shapedOK, g.shapedFinal = len(raw), true, whole
	}
	return g.shaped, final
}

// remainderLocked returns what is left to show after what the user typed,
// and whether it is final. ok is false when the suggestion no longer
// extends what was typed.
func (g *generation) remainderLocked() (rest string, final, ok bool) {
	full, final := g.suggestionLocked()
	if !strings.HasPrefix(full, g.typed) {
		// The shaped text may still be catching up with the typing.
		return "", final, !final
	}
	return g.trimLocked(full, len(g.typed))[len(g.typed):], final, true
}

// acceptsLocked reports whether inserting s at the generation's cursor
// keeps it valid: the model's text agrees with what was typed so far.
func (g *generation) acceptsLocked(s string) bool {
	typed := g.typed + s
	raw := g.raw.String()
	if strings.HasPrefix(raw, typed) {
		return true
	}
	// The model has not produced that much yet: agree on what it has.
	return !g.done && (raw != "" || !g.strict) && strings.HasPrefix(typed, raw)
}

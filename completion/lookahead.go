package completion

import (
	"slices"
	"strings"

	"github.com/wisp-lsp/wisp/completion/shape"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// Look-ahead: a one-line plan at the end of a line shows one line, but its
// generation need not stop at the line break. Without the "\n" stop it
// runs on for a line or two (bounded by the plan's max tokens, cheap at a
// thousand tokens a second); shape.Fit still shows only the first line,
// and when the user takes the line and breaks it, the lines after are
// served from the same stream (lookAheadLocked) without asking the model.

// liftLineStop lifts the line-break stop from req when the plan at
// cursor is one line that ends the document's line: the look-ahead.
func liftLineStop(req *transport.Request, plan shape.Plan, doc *text.Text, cursor int) {
	if plan.Multiline || !atLineEnd(doc.String()[min(max(cursor, 0), doc.Len()):]) {
		return
	}
	req.Stop = slices.DeleteFunc(slices.Clone(req.Stop), func(s string) bool { return s == "\n" })
}

// atLineEnd reports whether rest, the text after a cursor, starts with a
// line break or is empty.
func atLineEnd(rest string) bool {
	return rest == "" || lineBreakOf(rest) != ""
}

// pastShownLocked reports whether typed, which the model's text agrees
// with, leaves the suggestion shown: past a one-line suggestion's line
// into its look-ahead, into text shaping trimmed (indentation a blank
// line's suggestion leaves to the editor, a trailing space), or past the
// end of a block a suggestion of several lines stops at. A final
// suggestion is left as soon as typed leaves it; one still streaming only
// once typed breaks the line after it and the model's text holds that
// line break (before, the shaped text may still be catching up).
func (g *generation) pastShownLocked(typed string) bool {
	full, final := g.suggestionLocked()
	if strings.HasPrefix(full, typed) {
		return false
	}
	if final {
		return true
	}
	past, ok := strings.CutPrefix(typed, full)
	return ok && strings.Contains(past, "\n") && strings.HasPrefix(g.raw.String(), typed)
}

// rebaseLocked returns a generation that serves the rest of g's text
// from the cursor after typed, shaped anew for the document after (the
// model's text agrees with typed), and makes it the document's own in g's
// place; nil when g's text does not reach past typed. While g streams,
// the new generation is fed by g's stream (g.child) and shares its
// cancel.
func (e *Engine) rebaseLocked(g *generation, typed string, after *text.Text) *generation {
	raw := g.raw.String()
	cursor := g.anchor + len(typed)
	if !strings.HasPrefix(raw, typed) || (g.done && len(raw) == len(typed)) || cursor > after.Len() {
		return nil
	}
	c := e.continuationLocked(g, len(typed), typed, after, cursor)
	g.handOverLocked(c)
	e.dropBranchLocked(g) // anchored at g's cursor: c branches from its own
	e.gens[g.uri] = c
	e.branchLocked(c)
	return c
}

// handOverLocked retires g in favour of c, a continuation of its stream
// (rebased, or its look-ahead taken), without stopping the stream: while
// g still runs it feeds c, and c answers for g in the stats (an
// anticipated stream no request took up is wasted, or stopped, when c
// is). The caller registers c.
func (g *generation) handOverLocked(c *generation) {
	c.anticipated, c.claimed = g.anticipated, g.claimed
	if !g.done {
		g.child = c
	}
	g.dead = true
	g.broadcastLocked()
}

// breakAfter returns the line break raw, the model's text, has right
// after full, a suggestion of one line ("\r\n" or "\n": the model breaks
// lines its own way, whatever the document does), and what raw holds
// after it; brk is "" when raw does not go on from full with a line break.
func breakAfter(raw, full string) (brk, rest string) {
	rest, ok := strings.CutPrefix(raw, full)
	if brk = lineBreakOf(rest); !ok || brk == "" {
		return "", ""
	}
	return brk, rest[len(brk):]
}

// lookAheadTail returns what raw holds after full and a line break: the
// look-ahead of a one-line generation whose suggestion is full, or "" when
// raw does not go on from full past a line break. Line breaks are
// compared as "\n": speculate asks about suggestions of several lines
// too, shaped with the document's line breaks.
func lookAheadTail(raw, full string) string {
	_, rest := breakAfter(strings.ReplaceAll(raw, "\r\n", "\n"), strings.ReplaceAll(full, "\r\n", "\n"))
	if strings.TrimSpace(rest) == "" {
		return ""
	}
	return rest
}

// lookAheadLocked returns the generation for what follows g's one-line
// suggestion full, served from g's look-ahead, when typed (what the user
// typed at g's anchor) has taken full: once the line is broken, the next
// line; at once, where the plan at the end of full shows several lines (a
// line ending in a block's opener: the new block's body). nil otherwise.
// The generation is not registered; while g still streams, promoteLocked
// hangs it on g, which then feeds it.
func (e *Engine) lookAheadLocked(g *generation, full, typed string) *generation {
	if !e.opts.Config.LookAhead || g.plan.Multiline || g.err != nil {
		return nil
	}
	brk, _ := breakAfter(g.raw.String(), full)
	src := g.doc.String()
	if brk == "" || !atLineEnd(src[g.anchor:]) {
		return nil
	}
	lead := lineBreak(g.plan)
	var c *generation
	switch {
	case strings.HasPrefix(typed, full+lead):
		future := src[:g.anchor] + full + lead + src[g.anchor:]
		c = e.continuationLocked(g, len(full)+len(brk), full+lead, text.New(future), g.anchor+len(full)+len(lead))
		c.lead = lead
	case typed == full:
		future := src[:g.anchor] + full + src[g.anchor:]
		if c = e.continuationLocked(g, len(full), full, text.New(future), g.anchor+len(full)); !c.plan.Multiline {
			return nil // the end of a finished line: nothing to show until it is broken
		}
	default:
		return nil
	}
	c.speculative, c.fromLookAhead = true, true
	return c
}

// continuationLocked returns a generation that serves g's text after its
// first skip bytes at cursor in doc, where added (what those bytes became
// in doc) follows g's prompt: shaped for the plan at cursor, sharing g's
// stream, cancel, timings and count of deltas, done when g is. Rebasing and look-ahead
// build theirs through it; the caller registers it or hangs it on g.
func (e *Engine) continuationLocked(g *generation, skip int, added string, doc *text.Text, cursor int) *generation {
	plan := shape.DecideAs(doc, g.plan.Language, cursor)
	c := &generation{uri: g.uri, anchor: cursor, doc: doc, plan: plan, cancel: g.cancel,
		start: g.start, firstAt: g.firstAt, req: e.followRequest(g.req, added, plan),
		done: g.done, err: g.err, cutShort: g.cutShort, deltas: g.deltas, updated: make(chan struct{})}
	c.raw.WriteString(g.raw.String()[skip:])
	c.streamAt = g.streamAt - skip
	for _, d := range g.doubts {
		if d.at >= skip {
			c.doubts = append(c.doubts, doubt{at: d.at - skip, cut: d.cut - skip, alt: d.alt})
		}
	}
	return c
}

// followRequest is the request for a generation that follows one asked
// with base, once added is in the document after base's prefix: the
// same context and suffix, the stops and output bound of plan, the plan
// at the new cursor. Speculation, look-ahead and rebasing all build
// their requests through it.
func (e *Engine) followRequest(base transport.Request, added string, plan shape.Plan) transport.Request {
	req := base
	req.Prefix += added
	req.Stop = append([]string(nil), plan.Stop...)
	req.MaxTokens = maxTokensFor(plan, e.opts.MaxTokens)
	return req
}

// lineBreakOf returns the line break s starts with, "" if none.
func lineBreakOf(s string) string {
	switch {
	case strings.HasPrefix(s, "\r\n"):
		return "\r\n"
	case strings.HasPrefix(s, "\n"):
		return "\n"
	}
	return ""
}

// lineBreak is the line break the document plan was decided in uses.
func lineBreak(plan shape.Plan) string {
	if plan.CRLF {
		return "\r\n"
	}
	return "\n"
}

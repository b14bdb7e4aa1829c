package local

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/wisp-lsp/wisp/transport"
)

// Finish reasons beyond transport's "stop", "length" and "cancelled".
const (
	// FinishUnsupported: the request needs a real model (a quick edit with
	// an instruction); the text is the region unchanged.
	FinishUnsupported = "unsupported"
)

// Generate predicts a continuation of req.Prefix and streams it to onDelta
// one token (with the whitespace before it) at a time. The prediction is
// computed in full before the first delta, so Stop, MaxTokens and req.Suffix
// (text already after the cursor is never repeated) all apply to what is
// streamed. Cancelling ctx stops the stream; Generate then returns the text
// sent so far, FinishReason "cancelled" and an error wrapping ctx.Err().
//
// Quick edits (req.Instruction set) are beyond this engine: it returns the
// region (req.Prefix) unchanged with FinishReason "unsupported".
func (e *Engine) Generate(ctx context.Context, req transport.Request, onDelta func(string)) (transport.Result, error) {
	start := time.Now()
	if onDelta == nil {
		onDelta = func(string) {}
	}
	if err := ctx.Err(); err != nil {
		return transport.Result{FinishReason: "cancelled"}, fmt.Errorf("local model: %w", err)
	}
	text, reason := req.Prefix, FinishUnsupported
	if req.Instruction == "" {
		text, reason = e.predict(req)
	}
	res := transport.Result{FinishReason: reason}
	var sent strings.Builder
	for _, delta := range splitDeltas(text) {
		if err := ctx.Err(); err != nil {
			res.Text, res.FinishReason, res.Total = sent.String(), "cancelled", time.Since(start)
			return res, fmt.Errorf("local model: %w", err)
		}
		if res.TTFT == 0 {
			res.TTFT = max(time.Since(start), 1)
		}
		sent.WriteString(delta)
		res.OutputTokens++
		onDelta(delta)
	}
	res.Text, res.Total = sent.String(), time.Since(start)
	return res, nil
}

// splitDeltas cuts text into token-sized pieces: each token with the
// whitespace before it; trailing whitespace joins the last piece.
func splitDeltas(text string) []string {
	var out []string
	from, pos := 0, 0
	for {
		_, e, _, ok := nextToken(text, pos)
		if !ok {
			break
		}
		out = append(out, text[from:e])
		from, pos = e, e
	}
	if from < len(text) {
		if len(out) == 0 {
			return []string{text[from:]}
		}
		out[len(out)-1] += text[from:]
	}
	return out
}

// predict computes the completion for req and its finish reason.
func (e *Engine) predict(req transport.Request) (string, string) {
	line := req.Prefix[strings.LastIndexByte(req.Prefix, '\n')+1:]
	rest := req.Suffix
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	if req.Prefix == "" || (line != "" && isWordByte(line[len(line)-1]) && rest != "" && isWordByte(rest[0])) {
		return "", "stop" // nothing to go on, or the cursor is inside a word
	}
	g := &gen{maxTokens: e.opts.MaxTokens, stops: req.Stop, reason: "stop"}
	if req.MaxTokens > 0 {
		g.maxTokens = req.MaxTokens
	}
	g.indent = line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	if strings.TrimSpace(rest) == "" {
		trimmed := strings.TrimRight(line, " \t")
		switch {
		case strings.TrimSpace(line) == "":
			g.maxLines = e.opts.MaxLines
		case strings.ContainsAny(trimmed[len(trimmed)-1:], "{([:"):
			g.maxLines, g.opener = e.opts.MaxLines, true
		}
	}

	snap := e.snapshot()
	srcs, shadowed := gatherSources(snap, req)
	q := newQuery(req.Prefix)
	g.q = q
	// Copy after the best similar code; else finish the line from n-gram
	// counts; else, when the cursor ends a word no known word extends,
	// take the word as complete and copy after code similar but for it.
	if c, ok := q.best(srcs, snap.ws, shadowed, true); ok {
		g.copyFrom(c, q.renames(c))
	}
	if g.out.Len() == 0 {
		g.reason = "stop"
		g.ngram(srcs, snap.ws, shadowed)
	}
	if g.out.Len() == 0 && q.partial != "" {
		if c, ok := q.best(srcs, snap.ws, shadowed, false); ok {
			g.reason = "stop"
			g.copyFrom(c, q.renames(c))
		}
	}
	return trimToSuffix(g.out.String(), req.Suffix, g.maxLines > 0), g.reason
}

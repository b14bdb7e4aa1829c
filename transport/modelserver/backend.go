package modelserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/wisp-lsp/wisp/transport"
)

// Query is what a generation is asked for, recovered from whichever wire
// carried it.
type Query struct {
	// Prefix is the text before the cursor, or the region a quick edit
	// rewrites.
	Prefix string
	// Suffix is the text after the cursor; empty for edits.
	Suffix string
	// Instruction is a quick edit's instruction; empty for completions.
	Instruction string
	// System holds the request's system instructions, if any.
	System string
	// MaxTokens bounds the reply; 0 means unbounded.
	MaxTokens int
	// Stop holds the request's stop sequences, on the wires that carry
	// them (not the Responses WebSocket, whose clients stop on their side).
	// The server does not apply them; a backend ends its reply before the
	// first one, as a model does.
	Stop []string
}

// Backend produces the tokens of a reply.
//
// Generate calls yield with each token, in order, and stops as soon as
// yield returns false or ctx is done. A backend that calls yield again
// after it returned false is counted as generating after a cancel.
// Implementations are safe for concurrent use.
type Backend interface {
	Generate(ctx context.Context, q Query, yield func(token string) bool) error
}

// ErrNoReply is returned by a backend that has nothing to answer with: no
// scripted reply matched and there is no fallback model.
var ErrNoReply = errors.New("no scripted reply matched and no fallback model is configured")

// TextBackend answers every query with the same text, split into tokens.
type TextBackend string

// Generate implements Backend.
func (t TextBackend) Generate(ctx context.Context, _ Query, yield func(string) bool) error {
	for _, tok := range Tokenize(string(t)) {
		if ctx.Err() != nil || !yield(tok) {
			break
		}
	}
	return nil
}

// ModelBackend adapts a transport.Model into a Backend: each delta the model
// streams is split into tokens and handed on as it arrives, so the model is
// paced by the wire (its onDelta blocks while the server waits to send) and
// a cancel on the wire cancels the model's context.
type ModelBackend struct {
	// Model generates the replies; never nil.
	Model transport.Model
}

// Generate implements Backend.
func (m ModelBackend) Generate(ctx context.Context, q Query, yield func(string) bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req := transport.Request{
		Prefix:      q.Prefix,
		Suffix:      q.Suffix,
		Instruction: q.Instruction,
		System:      q.System,
		MaxTokens:   q.MaxTokens,
		Stop:        q.Stop,
	}
	stopped := false
	_, err := m.Model.Generate(ctx, req, func(delta string) {
		for _, tok := range Tokenize(delta) {
			// Forward even after a stop, so a model that ignores its
			// cancelled context shows up in tokensAfterCancel.
			if !yield(tok) && !stopped {
				stopped = true
				cancel()
			}
		}
	})
	if err != nil && !stopped && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("fallback model: %w", err)
	}
	return nil
}

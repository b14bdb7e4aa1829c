// Package transport talks to code models: the Model interface and its
// optional capabilities, the persistent Responses API WebSocket client,
// and the SSE and FIM HTTP providers. The in-process local engine
// (transport/local) and the loopback model server that tests and
// benchmarks run against (transport/modelserver) are its subpackages.
package transport

import (
	"context"
	"time"
)

// Model streams a generation for a Request.
//
// Generate blocks until the generation ends. It calls onDelta with each
// piece of text, in order, as the model produces it; onDelta runs on the
// provider's receive path, so it must be quick and must not call back into
// the Model. Cancelling ctx stops the generation at the model (a
// response.cancel on the WebSocket, a closed stream over HTTP), not only on
// our side, and Generate then returns an error for which IsCancelled holds.
//
// Implementations are safe for concurrent use: several generations may be
// in flight at once.
type Model interface {
	Generate(ctx context.Context, req Request, onDelta func(text string)) (Result, error)
	// Close releases connections. It does not wait for generations in
	// flight; they fail with an Unavailable error.
	Close() error
}

// Warmer is implemented by Models that can open their connection ahead of
// the first request (at initialize, before the first keystroke).
type Warmer interface {
	Warm(ctx context.Context) error
}

// Request is what a generation is asked for. Completions fill Prefix and
// Suffix (fill-in-the-middle); quick edits fill Instruction and put the
// region in Prefix.
type Request struct {
	// Prefix is the text before the cursor (or the region to rewrite).
	Prefix string `json:"prefix"`
	// Suffix is the text after the cursor; empty for edits.
	Suffix string `json:"suffix"`
	// Context holds extra snippets (imports, signatures, other files), most
	// important first.
	Context []Snippet `json:"context,omitempty"`
	// Instruction is the user's instruction for a quick edit; empty for
	// completions.
	Instruction string `json:"instruction,omitempty"`
	// System overrides the provider's default system instructions.
	System string `json:"system,omitempty"`
	// Language and Path describe the file, for prompts.
	Language string `json:"language"`
	Path     string `json:"path"`
	// Stop ends the generation where any of these strings appears.
	Stop []string `json:"stop,omitempty"`
	// MaxTokens bounds the output; 0 means the provider's default.
	MaxTokens int `json:"maxTokens,omitempty"`
	// Temperature for sampling; models default to 0.
	Temperature float64 `json:"temperature,omitempty"`
	// DoubtBelow, when positive, asks the model where it was unsure: a
	// provider that can read token probabilities (the Responses
	// WebSocket's and chat and text completions' logprobs, llama.cpp's
	// n_probs) calls OnDoubt for each token it gave less than this
	// probability, before the delta that holds the token. Other providers
	// (Codestral's FIM route, Ollama, local) ignore both, and so does an
	// endpoint that refused logprobs once.
	DoubtBelow float64 `json:"-"`
	// OnDoubt hears the doubts DoubtBelow asks for. Like onDelta it runs
	// on the provider's receive path: it must be quick and must not call
	// back into the Model. Nil with DoubtBelow set asks for nothing.
	OnDoubt func(Doubt) `json:"-"`
}

// Doubt is a place in a generation where the model was unsure of the
// token it chose.
type Doubt struct {
	// At is the byte offset in the generation's text (its concatenated
	// deltas) where the token starts.
	At int
	// Token is the text the model chose there, and Prob the probability
	// it gave it.
	Token string
	Prob  float64
	// Alternatives are the other tokens the model weighed there, likeliest
	// first; may be empty.
	Alternatives []string
}

// Snippet is one piece of extra context with where it came from.
type Snippet struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

// Result describes a finished generation.
type Result struct {
	// Text is the whole generated text (the concatenated deltas).
	Text string
	// FinishReason is "stop", "length", "cancelled" or a provider's reason.
	FinishReason string
	// TTFT is the time from sending the request to the first delta.
	TTFT time.Duration
	// Total is the time from sending the request to the end.
	Total time.Duration
	// OutputTokens as the model reported them (0 if unknown).
	OutputTokens int
}

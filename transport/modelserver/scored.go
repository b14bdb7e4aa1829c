package modelserver

import "context"

// Scored is one token of a reply with the model's confidence in it.
type Scored struct {
	Token string
	// Logprob is the natural log of the token's probability; 0 = certain.
	Logprob float64
	// Top holds the likeliest tokens at this place, most likely first;
	// may be empty.
	Top []Alternative
}

// Alternative is a token the model weighed at one place, with its log
// probability.
type Alternative struct {
	Token   string
	Logprob float64
}

// ScoredBackend is a Backend that can say how sure it was of each token.
//
// GenerateScored keeps Generate's contract (yield each token in order, stop
// as soon as yield returns false or ctx is done) and yields the same
// tokens Generate would, each with its score.
type ScoredBackend interface {
	Backend
	GenerateScored(ctx context.Context, q Query, yield func(Scored) bool) error
}

// generateScored runs b for q, scored when scored is set: through
// GenerateScored if b has it, else with every token certain (logprob 0,
// itself its only alternative). Unscored, tokens carry no Top.
func generateScored(ctx context.Context, b Backend, q Query, scored bool, yield func(Scored) bool) error {
	if sb, ok := b.(ScoredBackend); ok && scored {
		return sb.GenerateScored(ctx, q, yield)
	}
	return b.Generate(ctx, q, func(tok string) bool {
		t := Scored{Token: tok}
		if scored {
			t.Top = []Alternative{{Token: tok}}
		}
		return yield(t)
	})
}

package nextedit

import (
	"context"
	"fmt"

	"github.com/wisp-lsp/wisp/edits"
	"github.com/wisp-lsp/wisp/transport"
)

// Suggestion is a predicted next edit.
type Suggestion struct {
	// Region is the part of the query's text the model rewrote.
	Region edits.Region
	// Edits are the minimal edits of the query's text that make the
	// model's rewrite, sorted and disjoint; empty when nothing follows.
	Edits []edits.Edit
	// Model describes the generation.
	Model transport.Result
}

// Ask sends a request BuildRequest made and turns the reply into minimal
// edits. A reply that is not code (prose, a refusal, nothing) is "nothing
// follows", not an error. Cancelling ctx stops the generation at the
// model; the error then satisfies transport.IsCancelled.
func Ask(ctx context.Context, model transport.Model, req transport.Request, region edits.Region) (Suggestion, error) {
	res, err := model.Generate(ctx, req, func(string) {})
	if err != nil {
		return Suggestion{Region: region}, fmt.Errorf("next edit of %s: %w", req.Path, err)
	}
	return Suggestion{Region: region, Edits: Answer(req.Prefix, region, res.Text), Model: res}, nil
}

// Answer turns a model's rewrite of the region, whose text is old, into
// minimal edits of the whole text; none when the reply holds no code or
// changes nothing.
func Answer(old string, region edits.Region, reply string) []edits.Edit {
	es, err := edits.Reply(old, region, reply)
	if err != nil {
		return nil
	}
	return es
}

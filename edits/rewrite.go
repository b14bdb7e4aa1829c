package edits

import (
	"context"
	"fmt"
	"time"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// Quick is one quick edit: rewrite Region of Doc as Instruction says.
type Quick struct {
	// Doc is the document; never nil.
	Doc *text.Text
	// Tree is Doc's syntax tree, or nil (the request then carries no
	// context).
	Tree *syntax.Tree
	// Region is the part of Doc to rewrite, from Scope or the whole text.
	Region Region
	// Instruction says what to change; Path and Language (an LSP language
	// id, or "" for the tree's language) describe the document.
	Instruction, Path, Language string
	// OnDelta, when not nil, is called with each piece of the model's
	// reply as it streams, on the goroutine that called Rewrite.
	OnDelta func(delta string)
}

// stallDeadlines bound a quick edit's reply. A rewrite is asked for
// and waited on, unlike ghost text, and a large region's first token may
// come late from a busy hosted model; the bounds end a stalled stream (a
// model that accepted the request and went silent), which would otherwise
// leave the editor's progress spinning and "wisp edit" hanging.
var stallDeadlines = transport.Deadlines{FirstToken: 30 * time.Second, Idle: 15 * time.Second}

// Rewrite runs a quick edit after its region is chosen: it builds the
// request (BuildRequest), asks model, takes the code out of the reply and
// reduces it to minimal edits of q.Doc (Reply). The edits are byte offsets
// into q.Doc, sorted and disjoint; none when the rewrite changes nothing.
//
// Both the language server and "wisp edit" call it; choosing the region is
// left to them because the server must know it before the model is asked
// (a new edit of the same region stops the old one).
//
// A model failure is returned wrapped as "model: …" (and satisfies
// transport.IsCancelled when ctx ended it), a reply that stalls past
// stallDeadlines as well; a reply with no code wraps ErrNotCode.
func Rewrite(ctx context.Context, model transport.Model, q Quick) ([]Edit, error) {
	req := BuildRequest(q.Doc, q.Tree, q.Region, q.Instruction, q.Path, q.Language)
	onDelta := q.OnDelta
	if onDelta == nil {
		onDelta = func(string) {}
	}
	res, err := transport.WithDeadlines(model, stallDeadlines).Generate(ctx, req, onDelta)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	return Reply(req.Prefix, q.Region, res.Text)
}

// Reply turns a model's rewrite of region, whose text is old, into minimal
// edits of the whole text: the code is taken out of the reply
// (ExtractCode), fitted to the region's line endings (Conform), diffed
// (Diff) and shifted to the region's place (Shift). A reply holding no
// code returns an error wrapping ErrNotCode.
func Reply(old string, region Region, reply string) ([]Edit, error) {
	code, err := ExtractCode(reply)
	if err != nil {
		return nil, err
	}
	return Shift(Diff(old, Conform(old, code)), region.Start), nil
}

package completion

import (
	"path/filepath"
	"strings"

	"github.com/wisp-lsp/wisp/completion/gather"
	"github.com/wisp-lsp/wisp/completion/shape"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/lang"
	"github.com/wisp-lsp/wisp/transport"
)

// Built is one model request for a completion, with what it was built
// from. The engine sends Request as is; `wisp context` prints it.
type Built struct {
	// Context is the chosen context, its pieces in prompt order, with the
	// tokens used and the budget.
	Context gather.Context `json:"context"`
	// Plan is the form the completion should take.
	Plan shape.Plan `json:"plan"`
	// Request is what the model is asked: the context rendered as
	// snippets, prefix and suffix, the language, stop sequences and the
	// output bound.
	Request transport.Request `json:"request"`
}

// BuildRequest builds the model request for a completion at q.Cursor, as
// cfg sets it: the context within cfg.Budget tokens (0:
// gather.DefaultBudget), the plan, its stop sequences and the output
// bound (maxTokens, or by plan when 0); with cfg.LookAhead, a one-line
// plan at a line's end keeps streaming past the line break (see
// liftLineStop); with cfg.Unsure "trim" or "branch", the model is asked
// where it doubted its tokens (see unsure.go).
// It is the only place a completion request is built: the engine, `wisp
// complete` and `wisp context` all go through it. q.Tree, when set, must
// be safe to read on the calling goroutine; q.Partial and q.Budget are
// not used.
func BuildRequest(q Query, cfg config.Completion, maxTokens int) Built {
	plan := shape.Decide(q.Text, q.Tree, q.Cursor)
	c := gather.Gather(gather.Input{
		Buffer: gather.Buffer{Path: q.Path, LanguageID: q.LanguageID, Text: q.Text, Tree: q.Tree},
		Cursor: q.Cursor, Others: q.Others, History: q.History, Budget: cfg.Budget, Workspace: q.Workspace,
	})
	req := c.Request(q.Path, languageOf(q))
	req.Stop = append(req.Stop, plan.Stop...)
	req.MaxTokens = maxTokensFor(plan, maxTokens)
	if cfg.LookAhead {
		liftLineStop(&req, plan, q.Text, q.Cursor)
	}
	if cfg.Unsure == config.UnsureTrim || cfg.Unsure == config.UnsureBranch {
		req.DoubtBelow = doubtBelow
	}
	return Built{Context: c, Plan: plan, Request: req}
}

// languageOf names q's language: the grammar's name when the text is
// parsed, else the editor's language id, else the language its
// extension names in the language table, else the extension.
func languageOf(q Query) string {
	switch {
	case q.Tree != nil:
		return q.Tree.Language().Name()
	case q.LanguageID != "":
		return q.LanguageID
	}
	if facts := lang.Detect("", q.Path); facts != nil {
		return facts.Name
	}
	return strings.TrimPrefix(filepath.Ext(q.Path), ".")
}

// maxTokensFor bounds a generation by its plan unless configured: a line
// needs few tokens, a block more. Small bounds keep a superseded stream
// cheap.
func maxTokensFor(plan shape.Plan, configured int) int {
	switch {
	case configured > 0:
		return configured
	case plan.Multiline:
		return 256
	}
	return lineTokens
}

// lineTokens bounds a one-line generation, and a branch (unsure.go): a
// runner-up is taken for the rest of its line far more often than for a
// whole block, and a branch nobody takes costs its tokens.
const lineTokens = 64

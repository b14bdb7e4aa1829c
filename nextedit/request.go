package nextedit

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/wisp-lsp/wisp/edits"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/workspace"
)

// Limits of a next-edit prompt.
const (
	// surroundLines is how many lines above and below the region the
	// model sees besides it.
	surroundLines = 20
	// maxNames bounds the identifiers of the region looked up.
	maxNames = 40
	// maxDefinitions bounds the definitions shown.
	maxDefinitions = 12
)

// Resolver finds definitions of names as seen from a file; the workspace
// index implements it. It must be safe for concurrent use.
type Resolver interface {
	Resolve(fromPath string, names []string, max int) []workspace.Symbol
}

// Query is one next-edit question: a document as it is after the user's
// latest edit.
type Query struct {
	// Path and LanguageID describe the document.
	Path, LanguageID string
	// Text is the document; never nil.
	Text *text.Text
	// Tree is Text's syntax tree, or nil.
	Tree *syntax.Tree
	// At is where the latest edit ended (or the cursor), in Text's bytes:
	// the region is around it.
	At int
	// History is the document's recent edits, oldest first.
	History []Hunk
	// Radius is how many lines either side of At the region spans before
	// it is snapped to syntax (RadiusFor).
	Radius int
	// Definitions resolves the names the region uses; nil shows none.
	Definitions Resolver
	// Jump lets the region move from the latest edit to the place a
	// recent edit points to (Target): the remaining uses of a renamed
	// name, the calls of a changed definition.
	Jump bool
}

// Aggressiveness names, from the least to the most eager.
const (
	AggressivenessLow    = "low"
	AggressivenessMedium = "medium"
	AggressivenessHigh   = "high"
)

// JumpFor reports whether an aggressiveness setting lets the region move
// away from the latest edit (Query.Jump): all but low.
func JumpFor(aggressiveness string) bool { return aggressiveness != AggressivenessLow }

// RadiusFor returns the region radius an aggressiveness setting asks for:
// a wider region lets the model reach further, and suggest more. An
// unknown name is medium.
func RadiusFor(aggressiveness string) int {
	switch aggressiveness {
	case AggressivenessLow:
		return 3
	case AggressivenessHigh:
		return 12
	}
	return 6
}

// BuildRequest returns the model request for q and the region it asks to
// rewrite. The region travels as the Prefix; the history and the lines
// around the region as the Instruction (transport.NextEdit); the
// definitions the region uses as Context.
func BuildRequest(q Query) (transport.Request, edits.Region) {
	radius := q.Radius
	if radius <= 0 {
		radius = RadiusFor("")
	}
	region := Region(q.Text, q.Tree, q.At, radius)
	if q.Jump {
		if to := Target(q.Text, q.Tree, q.History, q.At, region); to != q.At {
			region = Region(q.Text, q.Tree, to, radius)
		}
	}
	src := q.Text.String()
	ne := transport.NextEdit{Path: q.Path}
	for _, h := range q.History {
		ne.History = append(ne.History, h.Diff(q.Path))
	}
	first, last := q.Text.LineOf(region.Start), q.Text.LineOf(max(region.End-1, region.Start))
	ne.Above = src[q.Text.LineStart(max(first-surroundLines, 0)):region.Start]
	if region.End < len(src) {
		ne.Below = src[region.End:linesEnd(q.Text, last+surroundLines)]
	}
	req := transport.Request{
		Prefix:      src[region.Start:region.End],
		Instruction: ne.Instruction(),
		System:      transport.NextEditInstructions,
		Path:        q.Path,
		Language:    q.LanguageID,
		MaxTokens:   (region.End-region.Start)/2 + 256,
	}
	if req.Language == "" && q.Tree != nil {
		req.Language = q.Tree.Language().Name()
	}
	if q.Definitions != nil {
		if defs := definitions(q.Definitions, q.Path, src[region.Start:region.End]); defs != "" {
			req.Context = append(req.Context, transport.Snippet{Path: "definitions used in the region", Text: defs})
		}
	}
	return req, region
}

var identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// definitions renders the signatures of the definitions the code uses.
func definitions(r Resolver, path, code string) string {
	seen := map[string]bool{}
	var names []string
	for _, n := range identifier.FindAllString(code, -1) {
		if len(n) > 1 && !seen[n] && len(names) < maxNames {
			seen[n] = true
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return ""
	}
	var b strings.Builder
	for _, s := range r.Resolve(path, names, maxDefinitions) {
		fmt.Fprintf(&b, "// %s:%d\n%s\n", s.Path, s.Line+1, s.Signature)
	}
	return b.String()
}

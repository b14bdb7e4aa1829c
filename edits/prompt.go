package edits

import (
	"slices"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// maxSignatures bounds how many neighbouring signatures go into a prompt.
const maxSignatures = 8

// BuildRequest builds the model request that rewrites region of doc as
// instruction says. The region's text is the Prefix; the Context holds,
// most important first, the file's imports, the headers of the scopes
// around the region (the class a method belongs to, the function a block
// sits in), and the signatures of the definitions nearest the region. tree
// may be nil, and then the request carries no context. language is the
// LSP language id; when empty, the tree's language name is used.
//
// MaxTokens leaves room for a rewrite about twice the region's length.
func BuildRequest(doc *text.Text, tree *syntax.Tree, region Region, instruction, path, language string) transport.Request {
	src := doc.String()
	req := transport.Request{
		Prefix:      src[region.Start:region.End],
		Instruction: instruction,
		Path:        path,
		Language:    language,
		MaxTokens:   (region.End-region.Start)/2 + 256,
	}
	if tree == nil {
		return req
	}
	if req.Language == "" {
		req.Language = tree.Language().Name()
	}
	add := func(parts []string) {
		if len(parts) > 0 {
			req.Context = append(req.Context, transport.Snippet{Path: path, Text: strings.Join(parts, "\n")})
		}
	}
	var imports []string
	for _, s := range tree.Imports() {
		if s.End <= region.Start || s.Start >= region.End {
			imports = append(imports, src[s.Start:s.End])
		}
	}
	add(imports)
	add(enclosingHeaders(tree, src, region))
	add(neighbourSignatures(tree, region))
	return req
}

// enclosingHeaders returns the headers of the functions, methods and
// classes that contain region, outermost first.
func enclosingHeaders(tree *syntax.Tree, src string, region Region) []string {
	var headers []string
	for _, s := range tree.EnclosingScopes(region.Start) {
		if s.Kind == syntax.KindBlock || s.Span.Start >= region.Start || s.Span.End < region.End {
			continue
		}
		if h := strings.TrimSpace(src[s.Header.Start:s.Header.End]); h != "" {
			headers = append(headers, h)
		}
	}
	slices.Reverse(headers)
	return headers
}

// neighbourSignatures returns the signatures of the definitions outside
// region that lie nearest to it, in source order.
func neighbourSignatures(tree *syntax.Tree, region Region) []string {
	type near struct {
		distance, order int
		sig             string
	}
	var defs []near
	for i, d := range tree.Definitions() {
		var dist int
		switch {
		case d.Span.End <= region.Start:
			dist = region.Start - d.Span.End
		case d.Span.Start >= region.End:
			dist = d.Span.Start - region.End
		default:
			continue // the region itself, or a class around it
		}
		if d.Signature != "" {
			defs = append(defs, near{dist, i, d.Signature})
		}
	}
	slices.SortStableFunc(defs, func(a, b near) int { return a.distance - b.distance })
	defs = defs[:min(len(defs), maxSignatures)]
	slices.SortFunc(defs, func(a, b near) int { return a.order - b.order })
	sigs := make([]string, len(defs))
	for i, d := range defs {
		sigs[i] = d.sig
	}
	return sigs
}

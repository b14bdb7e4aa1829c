package gather

import (
	"strings"

	"github.com/wisp-lsp/wisp/transport"
)

// Request returns a completion request carrying c: its prefix and suffix,
// and its other pieces as context snippets in prompt order. Consecutive
// pieces of one kind from one file share a snippet.
func (c Context) Request(path, language string) transport.Request {
	req := transport.Request{Prefix: c.Prefix, Suffix: c.Suffix, Path: path, Language: language}
	prevKind, prevPath := "", ""
	for _, p := range c.Pieces {
		switch {
		case p.Kind == "prefix" || p.Kind == "suffix":
			continue
		case p.Kind == prevKind && p.Path == prevPath:
			req.Context[len(req.Context)-1].Text += "\n" + strings.TrimRight(p.Text, "\r\n")
		default:
			req.Context = append(req.Context, transport.Snippet{Path: p.Path, Text: strings.TrimRight(p.Text, "\r\n")})
		}
		prevKind, prevPath = p.Kind, p.Path
	}
	return req
}

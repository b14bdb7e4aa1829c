package gather

import (
	"strings"

	"github.com/wisp-lsp/wisp/transport"
)

// Request returns a completion request carrying c: its prefix and suffix,
// and its extra pieces as context snippets, most important first.
// Consecutive signatures from one file share a snippet.
func (c Context) Request(path, language string) transport.Request {
	req := transport.Request{Prefix: c.Prefix, Suffix: c.Suffix, Path: path, Language: language}
	prev := ""
	for _, p := range c.Pieces {
		kind := p.Kind
		switch {
		case kind == "prefix" || kind == "suffix":
			continue
		case kind == "signature" && prev == "signature" && req.Context[len(req.Context)-1].Path == p.Path:
			req.Context[len(req.Context)-1].Text += "\n" + p.Text
		default:
			req.Context = append(req.Context, transport.Snippet{Path: p.Path, Text: strings.TrimRight(p.Text, "\r\n")})
		}
		prev = kind
	}
	return req
}

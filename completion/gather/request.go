package gather

import (
	"strings"

	"github.com/wisp-lsp/wisp/transport"
)

// Request returns a completion request carrying c: its prefix and suffix,
// and its other pieces as context snippets in prompt order. Consecutive
// pieces from one file share a snippet (see joins). Paths are shown
// relative to c.Root when they lie inside it.
func (c Context) Request(path, language string) transport.Request {
	req := transport.Request{Prefix: c.Prefix, Suffix: c.Suffix, Path: displayPath(c.Root, path), Language: language}
	prevKind, prevPath := "", ""
	for _, p := range c.Pieces {
		switch {
		case p.Kind == "prefix" || p.Kind == "suffix":
			continue
		case joins(prevKind, prevPath, p):
			req.Context[len(req.Context)-1].Text += "\n" + strings.TrimRight(p.Text, "\r\n")
		default:
			req.Context = append(req.Context, transport.Snippet{Path: displayPath(c.Root, p.Path), Text: strings.TrimRight(p.Text, "\r\n")})
		}
		prevKind, prevPath = p.Kind, p.Path
	}
	return req
}

// joins reports whether piece p goes into the snippet of the piece before
// it, of kind prevKind from prevPath: it is from the same file, and both
// or neither are recent edits (a diff does not join code).
func joins(prevKind, prevPath string, p Piece) bool {
	return p.Path == prevPath && (p.Kind == "recent") == (prevKind == "recent")
}

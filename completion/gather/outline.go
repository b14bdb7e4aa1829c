package gather

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
)

// maxTypeBytes bounds the declaration shown for the type a method belongs
// to; a longer one is cut to its first whole lines.
const maxTypeBytes = 800

// constructors name the methods that set up a class's fields, in the
// supported languages.
var constructors = map[string]bool{"__init__": true, "constructor": true, "new": true}

// typeOf returns, when the cursor is in a method, the declaration of the
// type it belongs to (a Go struct, a Rust struct or enum: its fields), or,
// when that type is the class around the cursor, its constructor (where a
// Python or TypeScript class sets its fields). The continuation of a
// method uses its type's fields and siblings more than anything else.
func (g *gatherer) typeOf() []Piece {
	if g.plain {
		return nil
	}
	var method *syntax.Definition
	for i := range g.index.Defs {
		d := &g.index.Defs[i]
		if d.Parent != "" && d.Span.Start <= g.cursor && g.cursor <= d.Span.End {
			method = d
		}
	}
	if method == nil {
		return nil
	}
	for _, d := range g.index.Defs {
		around := d.Span.Start <= g.cursor && g.cursor <= d.Span.End
		switch {
		case d.Name == method.Parent && d.Kind == syntax.KindClass && !around:
		case d.Parent == method.Parent && constructors[d.Name] && !around:
		default:
			continue
		}
		if d.Span.Start >= g.prefixStart && d.Span.End <= g.suffixEnd {
			continue
		}
		start, end := max(0, d.Span.Start), min(d.Span.End, g.doc.Len())
		if start >= end {
			continue
		}
		text := wholeLines(g.doc.String()[start:end], maxTypeBytes)
		if text == "" {
			text = d.Signature
		}
		why := fmt.Sprintf("declares %s, whose method %s holds the cursor", qualified(d), method.Name)
		return []Piece{newPiece("type", why, g.in.Path, text, syntax.Span{Start: start, End: start + len(text)})}
	}
	return nil
}

// outline returns the signatures of this file's definitions that the
// window does not show: the siblings of the method around the cursor
// first, then by distance from the cursor. They name what the code being
// written can call.
func (g *gatherer) outline() []Piece {
	if g.plain {
		return nil
	}
	parent := ""
	for _, d := range g.index.Defs {
		if d.Parent != "" && d.Span.Start <= g.cursor && g.cursor <= d.Span.End {
			parent = d.Parent
		}
	}
	type ranked struct {
		d       syntax.Definition
		sibling bool
		dist    int
	}
	var rs []ranked
	for _, d := range g.index.Defs {
		if d.Signature == "" || d.Span.Start < g.suffixEnd && d.Span.End > g.prefixStart {
			continue
		}
		dist := d.Span.Start - g.cursor
		if d.Span.End <= g.prefixStart {
			dist = g.cursor - d.Span.End
		}
		rs = append(rs, ranked{d: d, sibling: parent != "" && d.Parent == parent, dist: dist})
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		if a.sibling != b.sibling {
			if a.sibling {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.dist, b.dist)
	})
	out := make([]Piece, 0, len(rs))
	for _, r := range rs {
		why := "defined in this file, " + lineName(g.doc, r.d.Span.Start)
		if r.sibling {
			why = fmt.Sprintf("a sibling method of %s, %s", r.d.Parent, lineName(g.doc, r.d.Span.Start))
		}
		out = append(out, newPiece("signature", why, g.in.Path, strings.TrimSpace(r.d.Signature), r.d.Span))
	}
	return out
}

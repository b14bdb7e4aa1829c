package gather

import (
	"cmp"
	"fmt"
	"slices"

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
	method := g.methodAround()
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

// methodAround returns the innermost of this file's methods (definitions
// with a Parent) around the cursor, or nil when it is in none.
func (g *gatherer) methodAround() *syntax.Definition {
	var method *syntax.Definition
	for i := range g.index.Defs {
		d := &g.index.Defs[i]
		if d.Parent != "" && d.Span.Start <= g.cursor && g.cursor <= d.Span.End {
			method = d
		}
	}
	return method
}

// outline returns, within tokens, the signatures of this file's
// definitions that the window does not show and skip does not name: the
// siblings of the method around the cursor first, then the others, each
// group nearest to the cursor first. They name what the code being
// written can call. Definitions are in source order, so it walks outwards
// from the cursor without sorting.
func (g *gatherer) outline(tokens int, skip func(syntax.Span) bool) []Piece {
	if g.plain {
		return nil
	}
	defs := g.index.Defs
	parent := ""
	if m := g.methodAround(); m != nil {
		parent = m.Parent
	}
	split, _ := slices.BinarySearchFunc(defs, g.cursor, func(d syntax.Definition, off int) int { return cmp.Compare(d.Span.Start, off) })
	var out []Piece
	for _, siblings := range []bool{true, false} {
		if siblings && parent == "" {
			continue
		}
		for i, j := split-1, split; (i >= 0 || j < len(defs)) && tokens > 0; {
			var d syntax.Definition
			if j >= len(defs) || i >= 0 && g.cursor-defs[i].Span.End <= defs[j].Span.Start-g.cursor {
				d, i = defs[i], i-1
			} else {
				d, j = defs[j], j+1
			}
			if (parent != "" && d.Parent == parent) != siblings || d.Signature == "" ||
				d.Span.Start < g.suffixEnd && d.Span.End > g.prefixStart || skip(d.Span) {
				continue
			}
			if Estimate(d.Signature) > tokens {
				continue
			}
			why := "defined in this file, " + lineName(g.doc, d.Span.Start)
			if siblings {
				why = "a sibling method of " + d.Parent + ", " + lineName(g.doc, d.Span.Start)
			}
			p := newPiece("signature", why, g.in.Path, d.Signature, d.Span)
			tokens -= p.Tokens
			out = append(out, p)
		}
	}
	return out
}

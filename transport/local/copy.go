package local

import "strings"

// gen accumulates one completion. It is used by one goroutine.
type gen struct {
	q         *query
	maxTokens int
	maxLines  int    // 0: stop at the end of the line
	opener    bool   // the cursor ends a block opener: the text starts on a new line
	indent    string // leading whitespace of the cursor's line
	stops     []string

	out    strings.Builder
	tokens int
	lines  int
	lastNL bool   // the last emitted token was a line break
	reason string // "stop" or "length"
}

// emit appends one token (with its gap) and reports whether to go on.
func (g *gen) emit(gap, tok string, kind tokKind) bool {
	if kind == kindNewline {
		switch {
		case g.maxLines == 0, g.lines >= g.maxLines, g.lastNL:
			return false // end of line, enough lines, or a blank line ends the block
		case g.out.Len() == 0 && !g.opener:
			return false
		}
		g.lines++
		tok = "\n" // line endings follow the query's convention, not the source's
	}
	if g.opener && g.out.Len() == 0 && kind != kindNewline {
		g.maxLines = 0 // the text goes on on the cursor's line: finish that line only
	}
	if g.tokens >= g.maxTokens {
		g.reason = "length"
		return false
	}
	if g.out.Len() == 0 {
		gap = joinIndent(g.q.ws, gap)
	}
	g.out.WriteString(gap)
	g.out.WriteString(tok)
	g.tokens++
	g.lastNL = kind == kindNewline
	return !g.cutAtStop()
}

// cutAtStop truncates the output at the first stop string, if any.
func (g *gen) cutAtStop() bool {
	s := g.out.String()
	cut := -1
	for _, x := range g.stops {
		if i := strings.Index(s, x); x != "" && i >= 0 && (cut < 0 || i < cut) {
			cut = i
		}
	}
	if cut < 0 {
		return false
	}
	g.out.Reset()
	g.out.WriteString(s[:cut])
	g.reason = "stop"
	return true
}

// joinIndent drops from a copied gap the whitespace the user already typed.
func joinIndent(typed, gap string) string {
	if strings.HasPrefix(gap, typed) {
		return gap[len(typed):]
	}
	if strings.HasPrefix(typed, gap) {
		return ""
	}
	return gap[commonPrefix(gap, typed):]
}

// copyFrom copies what follows candidate c, renaming as it goes. It stops
// before the cursor when copying from the cursor's own doc, so it never
// copies the user's own text after the cursor.
func (g *gen) copyFrom(c cand, renames map[string]string) {
	d := c.src.d
	if p := g.q.partial; p != "" {
		if t := d.tok(c.j); strings.HasPrefix(t, p) && len(t) > len(p) {
			if !g.emit("", t[len(p):], kindWord) {
				return
			}
		}
	}
	// base is the indentation, in the source, of the block the copy is in:
	// the opener's line, or the line the copy starts on.
	base := indentOf(d, c.j)
	if !g.opener && c.j+1 < d.n() {
		base = indentOf(d, c.j+1)
	}
	beforeCursor := c.src.cursor >= 0 && int(d.ends[c.j]) <= c.src.cursor
	closing := false // the copy is on the line that closes the block
	for k := c.j + 1; k < d.n(); k++ {
		if beforeCursor && int(d.starts[k]) >= c.src.cursor {
			return
		}
		if d.kinds[k] == kindNewline && g.maxLines > 0 && g.out.Len() > 0 {
			if closing {
				return
			}
			if k+1 < d.n() && d.kinds[k+1] != kindNewline {
				ind := len(d.gap(k + 1))
				switch {
				case ind < len(base):
					return // the block ended
				case g.opener && ind == len(base):
					if !isCloser(d.tok(k + 1)) {
						return
					}
					closing = true
				}
			}
		}
		tok, gap := d.tok(k), d.gap(k)
		if r, ok := renames[tok]; ok && d.kinds[k] == kindWord {
			tok = r
		}
		if k > 0 && d.kinds[k-1] == kindNewline && strings.HasPrefix(gap, base) {
			gap = g.indent + gap[len(base):] // re-indent to the cursor's block
		}
		if !g.emit(gap, tok, d.kinds[k]) {
			return
		}
	}
}

// indentOf returns the leading whitespace of the line holding token k.
func indentOf(d *doc, k int) string {
	for k > 0 && d.kinds[k-1] != kindNewline {
		k--
	}
	return d.gap(k)
}

func isCloser(tok string) bool {
	return tok == "}" || tok == ")" || tok == "]" || tok == "end"
}

// trimToSuffix removes what the text after the cursor already holds: the
// end of the completion's first line that overlaps the rest of the cursor's
// line, later lines from the first one the suffix already has, and a
// completion the suffix starts with. It also drops trailing whitespace.
func trimToSuffix(out, suffix string, multi bool) string {
	rest := suffix
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	rest = strings.TrimLeft(rest, " \t")
	first := out
	if i := strings.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	if rest != "" {
		trimmed := strings.TrimRight(first, " \t")
		for k := min(len(rest), len(trimmed)); k > 0; k-- {
			if strings.HasSuffix(trimmed, rest[:k]) {
				out = trimmed[:len(trimmed)-k] + out[len(first):]
				break
			}
		}
	}
	if multi {
		if next := firstLine(suffix); strings.TrimSpace(next) != "" {
			lines := strings.Split(out, "\n")
			for i := 1; i < len(lines); i++ {
				if strings.TrimRight(lines[i], " \t\r") == next {
					out = strings.Join(lines[:i], "\n")
					break
				}
			}
		}
	}
	out = strings.TrimRight(out, " \t\r\n")
	if out != "" && strings.HasPrefix(strings.TrimLeft(suffix, " \t"), strings.TrimLeft(out, " \t")) {
		return ""
	}
	return out
}

// firstLine returns the first non-blank line of s after the cursor's line
// (the cursor's line itself when it has text), with its indentation.
func firstLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if strings.TrimSpace(l) != "" {
			return strings.TrimRight(l, " \t\r")
		}
	}
	return ""
}

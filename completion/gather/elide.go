package gather

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// elideBeyond is how far, in lines, the window shows comments whole.
// Farther from the cursor's line, a run of lines that hold only comments
// or a docstring is left out of the window, unless it documents a scope
// around the cursor: what it costs goes to more code, the calls and names
// the continuation reuses. Near the cursor, comments say what the code
// there is for, and the model reads them. Measured with bench/context at
// 1,024 tokens, on the fixed cursor set and on -seed 7: recall 0.824 ->
// 0.829 and 0.824 -> 0.830, other-file definition presence 0.504 ->
// 0.508 and 0.502 -> 0.504, no language lower. At 4 lines the same, at
// 12 lines less, at 20 lines half the gain (a window of 1,024 tokens is
// 40 to 100 lines).
const elideBeyond = 8

// A run is a stretch of whole lines that hold only comments: adjacent
// line comments, or one block comment (or Python docstring) that starts
// its first line and ends its last.
type run struct{ first, last int }

// elided reports whether line l is left out of the window: it lies in a
// comment run that ends more than elideBeyond lines above the cursor's
// line or starts more than elideBeyond lines below it, is not right above
// or below the header of a scope around the cursor (the doc of the
// function being written), and, for a block comment or a docstring, the
// tree confirms it (so that no code that only looks like a comment is
// dropped, and nothing is shown opened and not closed). Line comments
// are read from the text alone; every answer is kept for the call.
func (g *gatherer) elided(l int) bool {
	if v, ok := g.elidedLines[l]; ok {
		return v
	}
	if g.elidedLines == nil {
		g.elidedLines = map[int]bool{}
	}
	r, block, ok := g.runAt(l)
	if !ok {
		g.elidedLines[l] = false
		return false
	}
	v := g.far(r) && !g.documents(r) && (!block || g.confirmed(r))
	for k := r.first; k <= r.last; k++ {
		g.elidedLines[k] = v
	}
	return v
}

// far reports whether r lies wholly more than elideBeyond lines from
// the cursor's line.
func (g *gatherer) far(r run) bool {
	cl := g.doc.LineOf(g.cursor)
	return r.first-cl > elideBeyond || cl-r.last > elideBeyond
}

// documents reports whether r is right above or right below the header
// of a scope around the last code before the cursor.
func (g *gatherer) documents(r run) bool {
	if !g.writtenDone {
		g.writtenDone = true
		g.written = g.scopes
		// On a blank line past the end of a Python block, the block's
		// function is still the one being written.
		code := strings.TrimRight(g.doc.String()[:g.cursor], " \t\r\n")
		if g.lang.Name == "python" && g.in.Tree != nil && code != "" && strings.Contains(g.doc.String()[len(code):g.cursor], "\n") {
			g.written = scopesAt(g.in.Tree, len(code)-1)
		}
	}
	for _, sc := range g.written {
		if h := g.doc.LineOf(sc.Span.Start); h == r.last+1 || h == r.first-1 {
			return true
		}
	}
	return false
}

// runAt returns the comment run line l lies in, and whether it is a block
// comment or docstring (which the tree must confirm); ok is false when l
// holds code or nothing.
func (g *gatherer) runAt(l int) (r run, block, ok bool) {
	if g.lang == nil || g.plain || len(g.doc.Line(l)) > maxLineBytes {
		return run{}, false, false
	}
	if g.lang.Name == "python" {
		if r, ok := g.docstringAt(l); ok {
			return r, true, true
		}
	} else if r, ok := g.starredAt(l); ok {
		return r, true, true
	}
	if !g.lineComment(l) {
		return run{}, false, false
	}
	r = run{l, l}
	for r.first > 0 && g.lineComment(r.first-1) {
		r.first--
	}
	for r.last+1 < g.doc.LineCount() && g.lineComment(r.last+1) {
		r.last++
	}
	return r, false, true
}

// lineComment reports whether line l is a line comment and nothing else.
func (g *gatherer) lineComment(l int) bool {
	return g.lang.IsLineComment(g.doc.Line(l))
}

// starredAt returns the block comment around line l written as most are:
// a first line that starts with "/*", lines between that start with "*",
// and a last line that ends with "*/". Block comments written otherwise
// are shown.
func (g *gatherer) starredAt(l int) (run, bool) {
	trimmed := func(k int) string { return strings.TrimSpace(g.doc.Line(k)) }
	opens := func(k int) bool { return strings.HasPrefix(trimmed(k), "/*") }
	starred := func(k int) bool { return strings.HasPrefix(trimmed(k), "*") }
	if !opens(l) && !starred(l) {
		return run{}, false
	}
	r := run{l, l}
	for !opens(r.first) {
		if r.first == 0 || l-r.first >= maxRun || !opens(r.first-1) && !starred(r.first-1) {
			return run{}, false
		}
		r.first--
	}
	for !strings.HasSuffix(trimmed(r.last), "*/") {
		if r.last+1 >= g.doc.LineCount() || r.last-l >= maxRun || !starred(r.last+1) {
			return run{}, false
		}
		r.last++
	}
	return r, true
}

// docstringAt returns the Python string around line l that starts its
// first line with three quotes and ends its last with them.
func (g *gatherer) docstringAt(l int) (run, bool) {
	s := g.doc.String()
	lo := g.doc.LineStart(max(0, l-maxRun))
	// The nearest line at or above l that opens a string with quotes.
	first := -1
	for end := g.doc.LineEnd(l); end > lo; {
		p := max(strings.LastIndex(s[lo:end], `"""`), strings.LastIndex(s[lo:end], `'''`))
		if p < 0 {
			break
		}
		k := g.doc.LineOf(lo + p)
		if g.opensDocstring(k) {
			first = k
			break
		}
		end = lo + p
	}
	if first < 0 {
		return run{}, false
	}
	line := g.doc.Line(first)
	quotes := docstringQuotes(line)
	from := g.doc.LineStart(first) + strings.Index(line, quotes) + 3
	end := strings.Index(s[from:], quotes)
	if end < 0 {
		return run{}, false
	}
	last := g.doc.LineOf(from + end)
	if last < l || last-first > maxRun || !strings.HasSuffix(strings.TrimSpace(g.doc.Line(last)), quotes) {
		return run{}, false
	}
	return run{first, last}, true
}

// docstringQuotes returns the three quotes line starts with (after its
// indentation and an "r", if any), or "".
func docstringQuotes(line string) string {
	t := strings.TrimPrefix(strings.TrimSpace(line), "r")
	for _, q := range []string{`"""`, `'''`} {
		if strings.HasPrefix(t, q) {
			return q
		}
	}
	return ""
}

// opensDocstring reports whether line k starts with three quotes
// (docstringQuotes) that open a string, not close one. It asks the tree,
// once a line.
func (g *gatherer) opensDocstring(k int) bool {
	if docstringQuotes(g.doc.Line(k)) == "" {
		return false
	}
	if v, ok := g.opens[k]; ok {
		return v
	}
	if g.opens == nil {
		g.opens = map[int]bool{}
	}
	v := g.in.Tree != nil && g.code(g.doc.LineStart(k))
	g.opens[k] = v
	return v
}

// maxRun is the longest block comment or docstring looked for, in
// lines; a longer one is shown.
const maxRun = 60

// confirmed reports whether the tree agrees that r is one block comment
// or string: code before its first line and after its last, comment or
// string text just inside its opening mark. Without a tree it is not.
func (g *gatherer) confirmed(r run) bool {
	if g.in.Tree == nil {
		return false
	}
	line := g.doc.Line(r.first)
	inner := g.doc.LineStart(r.first) + len(line) - len(strings.TrimLeft(line, " \t")) + 1
	inString, inComment := g.in.Tree.InStringOrComment(inner)
	if !inComment && !(inString && g.lang.Name == "python") {
		return false
	}
	if !g.code(g.doc.LineStart(r.first)) {
		return false
	}
	return r.last+1 >= g.doc.LineCount() || g.code(g.doc.LineStart(r.last+1))
}

// code reports whether off is in no comment nor string.
func (g *gatherer) code(off int) bool {
	inString, inComment := g.in.Tree.InStringOrComment(off)
	return !inString && !inComment
}

// shown returns the document's text from from to to as the window shows
// it: without the whole lines in it that are elided, each with its line
// break. With none elided it is the text itself, not a copy.
func (g *gatherer) shown(from, to int) string {
	if from >= to {
		return ""
	}
	s := g.doc.String()
	var b strings.Builder
	kept := from // the text from kept on is not written yet
	for _, r := range g.elidedRuns(from, to) {
		b.WriteString(s[kept:g.doc.LineStart(r.first)])
		kept = min(to, g.lineEnd(r.last))
	}
	if kept == from {
		return s[from:to]
	}
	b.WriteString(s[kept:to])
	return b.String()
}

// lineEnd returns where the line after l starts, or the document's end.
func (g *gatherer) lineEnd(l int) int {
	if l+1 < g.doc.LineCount() {
		return g.doc.LineStart(l + 1)
	}
	return g.doc.Len()
}

// elidedRuns returns the stretches of adjacent elided lines that lie
// wholly (line breaks aside) between offsets from and to, in order.
func (g *gatherer) elidedRuns(from, to int) []run {
	var runs []run
	inside := func(l int) bool { return g.doc.LineStart(l) >= from && g.doc.LineEnd(l) <= to && g.elided(l) }
	for l, last := g.doc.LineOf(from), g.doc.LineOf(to); l <= last; l++ {
		if !inside(l) {
			continue
		}
		r := run{l, l}
		for r.last+1 <= last && inside(r.last+1) {
			r.last++
		}
		runs = append(runs, r)
		l = r.last
	}
	return runs
}

// leftOut names, for a Why text, the lines from from to to that the
// window leaves out: "; comment lines 12-18 and 40 left out", or "".
func (g *gatherer) leftOut(from, to int) string {
	var spans []string
	for _, r := range g.elidedRuns(from, to) {
		if r.first == r.last {
			spans = append(spans, strconv.Itoa(r.first+1))
		} else {
			spans = append(spans, fmt.Sprintf("%d-%d", r.first+1, r.last+1))
		}
	}
	switch len(spans) {
	case 0:
		return ""
	case 1:
		return "; comment lines " + spans[0] + " left out"
	}
	return "; comment lines " + strings.Join(spans[:len(spans)-1], ", ") + " and " + spans[len(spans)-1] + " left out"
}

// restore shows again, nearest to the cursor first (the run above
// first among equals), the runs the window left out that fit in left
// tokens. Gather calls it when the window holds the whole file: the runs
// were left out for code there is no more of.
func (g *gatherer) restore(left int) {
	runs := g.elidedRuns(0, g.doc.Len())
	cl := g.doc.LineOf(g.cursor)
	distance := func(r run) int { return max(r.first-cl, cl-r.last) }
	slices.SortStableFunc(runs, func(a, b run) int { return distance(a) - distance(b) })
	for _, r := range runs {
		if c := Estimate(g.doc.String()[g.doc.LineStart(r.first):g.lineEnd(r.last)]); c <= left {
			left -= c
			for k := r.first; k <= r.last; k++ {
				g.elidedLines[k] = false
			}
		}
	}
}

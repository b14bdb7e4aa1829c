// Package shape decides what form an inline completion should take before
// the model is asked (one line or a block, where it must stop) and fits
// the model's raw reply to the document afterwards: no text that already
// follows the cursor, balanced brackets, the file's indentation and line
// breaks, nothing past the end of the enclosing block.
//
// It works in byte offsets on a *text.Text and, where it has one, a syntax
// tree; a nil tree is always allowed and falls back to reading the text.
package shape

import (
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// Plan is the form a completion at one cursor should take. It is computed
// once per request by Decide and handed to Fit with every reply.
type Plan struct {
	// Multiline is true when the completion may span several lines (a new
	// block or an empty line); false means finish the current line only.
	Multiline bool `json:"multiline"`
	// Indent is the indentation the completion's code sits at: the
	// cursor's indent level, in the file's own characters.
	Indent string `json:"indent"`
	// Unit is one level of the file's indentation: "\t" or N spaces.
	Unit string `json:"unit"`
	// Stop lists strings at which the model should stop generating.
	Stop []string `json:"stop,omitempty"`
	// MaxLines bounds the completion's lines; 1 when !Multiline.
	MaxLines int `json:"maxLines"`
	// BlockEnd is the offset of the enclosing block's closing bracket (or,
	// for indentation-blocked languages, of the block's end), -1 if none.
	BlockEnd int `json:"blockEnd"`
	// CRLF is true when the document breaks lines with "\r\n".
	CRLF bool `json:"crlf,omitempty"`
	// Language is the syntax language name, "" when unknown.
	Language string `json:"language,omitempty"`
	// Reason says in words why this form was chosen: "mid-line",
	// "end of line", "new block", "empty body", "blank line", "in string"
	// or "in comment".
	Reason string `json:"reason"`
}

// Line limits for multi-line plans: a new block may be written whole; a
// blank line between statements gets a few statements, not the rest of
// the function.
const (
	maxBlockLines = 24
	maxBlankLines = 8
	// scanLimit bounds how far before and after the cursor the bracket
	// and indentation scans read, so a huge file costs no more than a
	// normal one.
	scanLimit = 64 << 10
)

// Decide plans the completion at byte offset cursor in doc. tree may be
// nil; when given, it must be doc's tree.
func Decide(doc *text.Text, tree *syntax.Tree, cursor int) Plan {
	language := ""
	if tree != nil {
		language = tree.Language().Name()
	}
	return decide(doc, tree, language, cursor)
}

// DecideAs is Decide for a doc without a tree whose language is known,
// by its grammar's name (a Plan's Language): the text a generation in a
// parsed document will leave once its suggestion is taken. The
// language's own rules apply, as they do with a tree: a Go switch's case
// labels at the switch's level, a Python block ending where it dedents.
func DecideAs(doc *text.Text, language string, cursor int) Plan {
	return decide(doc, nil, language, cursor)
}

func decide(doc *text.Text, tree *syntax.Tree, language string, cursor int) Plan {
	cursor = max(0, min(cursor, doc.Len()))
	p := Plan{BlockEnd: -1, CRLF: isCRLF(doc), Language: language}
	st := newSite(doc, tree, cursor, p.Language)
	d, line, before, rest := st.d, st.line, st.before, st.rest
	p.Unit = detectUnit(doc, line, d.Indent)
	lineIndent := leadingSpace(before + rest)
	p.Indent = lineIndent
	p.MaxLines = 1
	p.Stop = []string{"\n"}

	switch {
	case st.lx.mode == inString:
		p.Reason = "in string"
		return p
	case st.lx.mode != inCode:
		p.Reason = "in comment"
		return p
	case !closersOnly(rest):
		p.Reason = "mid-line"
		return p
	}

	trimmed := strings.TrimRight(before, " \t")
	switch {
	case insideBrackets(rest):
		p.Reason = "inside brackets"
		return p
	case endsWithOpener(trimmed, d) && opensHere(trimmed, rest):
		p.Reason = "new block"
		p.Multiline, p.MaxLines = true, maxBlockLines
		p.Indent = bodyIndent(lineIndent, trimmed, p.Unit, d)
		p.Stop = blockStop(lineIndent, trimmed, d)
	case strings.TrimSpace(before+rest) == "":
		p.Multiline = true
		prev, next := neighbours(doc, line)
		p.Indent = blankIndent(before, prev, p.Unit, d)
		if endsWithOpener(strings.TrimSpace(prev), d) && closesBody(next, prev, d) {
			p.Reason, p.MaxLines = "empty body", maxBlockLines
			p.Stop = blockStop(leadingSpace(prev), strings.TrimSpace(prev), d)
		} else {
			p.Reason, p.MaxLines = "blank line", maxBlankLines
			p.Stop = nil
		}
	default:
		p.Reason = "end of line"
		return p
	}
	p.BlockEnd = st.blockEnd(tree)
	return p
}

// isCRLF reports whether doc's first line break is "\r\n".
func isCRLF(doc *text.Text) bool {
	if doc.LineCount() < 2 {
		return false
	}
	end := doc.LineEnd(0)
	return strings.HasPrefix(doc.String()[end:], "\r\n")
}

// leadingSpace returns s's leading run of spaces and tabs.
func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

// closersOnly reports whether s holds nothing but closing brackets,
// quotes, separators and spaces: text the completion goes before, not
// text it must work around.
func closersOnly(s string) bool {
	return strings.Trim(s, ")]}\"'`;, \t") == ""
}

// insideBrackets reports whether the cursor sits just inside round or
// square brackets closed on the same line, as in "f(‸)" or "[1, ‸]": an
// argument list to fill in, not a block to write.
func insideBrackets(rest string) bool {
	r := strings.TrimLeft(rest, " \t")
	return r != "" && (r[0] == ')' || r[0] == ']')
}

// opensHere reports whether a block opened at the end of before starts
// here: nothing follows on the line, or only the block's own "}".
func opensHere(before, rest string) bool {
	r := strings.TrimSpace(rest)
	return r == "" || strings.HasSuffix(before, "{") && r[0] == '}'
}

// endsWithOpener reports whether a line (trimmed on the right) ends with
// something that opens a block: a bracket, an arrow, or Python's colon.
func endsWithOpener(s string, d *dialect) bool {
	switch {
	case s == "":
		return false
	case strings.HasSuffix(s, "=>"):
		return true
	case strings.HasSuffix(s, ":"):
		// A colon opens a block in Python, and a case body elsewhere.
		return d.IndentBlocks || strings.HasPrefix(strings.TrimSpace(s), "case ") ||
			strings.TrimSpace(s) == "default:"
	}
	_, opens := d.Closer(s[len(s)-1])
	return opens
}

// blockStop returns the stop string that ends a block opened on a line
// indented by indent: its closing bracket at the opener's indentation.
func blockStop(indent, opener string, d *dialect) []string {
	if d.IndentBlocks || opener == "" {
		return nil
	}
	closer, ok := d.Closer(opener[len(opener)-1])
	if !ok {
		return nil
	}
	return []string{"\n" + indent + string(closer)}
}

// neighbours returns the nearest non-blank lines before and after line
// ("" at either end of the document).
func neighbours(doc *text.Text, line int) (prev, next string) {
	for l := line - 1; l >= 0 && line-l <= 200; l-- {
		if t := doc.Line(l); strings.TrimSpace(t) != "" {
			prev = t
			break
		}
	}
	for l := line + 1; l < doc.LineCount() && l-line <= 200; l++ {
		if t := doc.Line(l); strings.TrimSpace(t) != "" {
			next = t
			break
		}
	}
	return prev, next
}

// blankIndent is the indent level for code typed on a blank line: what the
// editor already put before the cursor, else the previous line's level
// (one deeper after a block opener).
func blankIndent(before, prev, unit string, d *dialect) string {
	if before != "" {
		return before
	}
	if endsWithOpener(strings.TrimSpace(prev), d) {
		return bodyIndent(leadingSpace(prev), strings.TrimSpace(prev), unit, d)
	}
	return leadingSpace(prev)
}

// bodyIndent is the indentation of the first level of code in the block
// that opener (a line indented by indent) opens: one unit deeper, except
// the case labels of a Go switch or select, which gofmt keeps at the
// switch's level.
func bodyIndent(indent, opener, unit string, d *dialect) string {
	if d.FlatCases && opensCases(strings.TrimSpace(opener)) {
		return indent
	}
	return indent + unit
}

// opensCases reports whether a trimmed line opens a switch or select body.
func opensCases(line string) bool {
	if !strings.HasSuffix(line, "{") {
		return false
	}
	for _, kw := range []string{"switch", "select"} {
		if rest, ok := strings.CutPrefix(line, kw); ok && (rest == "{" || rest[0] == ' ') {
			return true
		}
	}
	return false
}

// closesBody reports whether next, the first non-blank line after an
// opener line prev, ends the block prev opens: a closing bracket, or in
// an indentation-blocked language a line no deeper than prev.
func closesBody(next, prev string, d *dialect) bool {
	if d.IndentBlocks {
		return next == "" || len(leadingSpace(next)) <= len(leadingSpace(prev))
	}
	t := strings.TrimSpace(next)
	return t != "" && strings.ContainsRune(")]}", rune(t[0]))
}

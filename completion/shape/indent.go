package shape

import "strings"

// reindent rewrites the indentation of a multi-line reply into the file's
// style (plan.Unit) and shifts it so its first line of code sits at
// plan.Indent, keeping the reply's relative structure. before is the
// cursor line's text before the cursor: when it is all whitespace, the
// reply's first line starts after that indentation. prev is the nearest
// line of code above the cursor's.
//
// On a blank line, a reply that indents its own first line is kept as the
// model wrote it when that indentation is plausible (see indentFits): the
// model knows the line's level better than the plan's guess, since the
// typed indentation may be partial and a closing line sits a level out.
// Read after what is typed first; if that is too deep, as a repeat of it.
func reindent(s, before, prev string, plan Plan) string {
	prevIndent := leadingSpace(prev)
	lines := strings.Split(s, "\n")
	blank := strings.TrimSpace(before) == ""
	// Absolute indentation of each line as the reply means it.
	abs := make([]string, len(lines))
	for i, l := range lines {
		abs[i] = leadingSpace(l)
		if i == 0 {
			if !blank {
				abs[0] = ""
			} else {
				abs[0] = before + abs[0]
			}
		}
	}
	first := -1
	for i, l := range lines {
		if strings.TrimSpace(l) != "" && (i > 0 || blank) {
			first = i
			break
		}
	}
	if first < 0 {
		return s
	}
	unit := replyUnit(abs, plan)
	want := levels(plan.Indent, plan.Unit)
	shift := want - levels(abs[first], unit)
	if blank && first > 0 && shift > 0 {
		// The reply breaks the line first: its lines are whole lines,
		// indented as the model means them. One that starts shallower
		// than the plan's guess leaves the block (a Python "def" back
		// at the top level after a method); it keeps its level.
		shift = 0
	}
	sameStyle := unit == plan.Unit
	if lead := leadingSpace(lines[0]); first == 0 && blank && lead != "" && strings.Contains(unit, "\t") == strings.Contains(plan.Unit, "\t") {
		switch {
		case indentFits(before+lead, prevIndent, plan.Unit) &&
			!(levels(before+lead, plan.Unit) > levels(prevIndent, plan.Unit) && finished(prev, plan.Language) && !continues(lines[0])):
			return s
		case strings.HasPrefix(lead, before) && indentFits(lead, prevIndent, plan.Unit):
			lines[0] = lines[0][len(before):]
			return strings.Join(lines, "\n")
		}
	}
	if sameStyle && shift == 0 {
		if first == 0 && abs[0] != before {
			lines[0] = strings.TrimLeft(lines[0], " \t")
		}
		return strings.Join(lines, "\n")
	}
	for i := range lines {
		if strings.TrimSpace(lines[i]) == "" || (i == 0 && !blank) {
			continue
		}
		n := max(0, levels(abs[i], unit)+shift)
		ind := strings.Repeat(plan.Unit, n) + strings.Repeat(" ", extra(abs[i], unit))
		if i == 0 {
			// Only the part beyond what the document already has.
			ind = strings.TrimPrefix(ind, before)
		}
		lines[i] = ind + strings.TrimLeft(lines[i], " \t")
	}
	return strings.Join(lines, "\n")
}

// finished reports whether prev, a line of code of a known language,
// ends a statement, so that the next line cannot sit a level deeper: it
// has no comment (which could hide an opener) and ends in a word, a
// closing bracket, a quote or ";". A reply indenting its first line a
// level deeper than such a line repeats the indentation the editor
// already typed. In a language wisp does not know (a Lua function's
// header ends in ")"), no line is taken as finished.
func finished(prev, language string) bool {
	t := strings.TrimRight(prev, " \t\r")
	if language == "" || t == "" || strings.Contains(t, "//") || strings.Contains(t, "#") || strings.Contains(t, "/*") {
		return false
	}
	c := t[len(t)-1]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		strings.IndexByte(")]};\"'`", c) >= 0
}

// continues reports whether line, trimmed, goes on with the expression
// above it (".map(…)", "&& ok", "? a : b"), which sits a level deeper
// after a line that looks finished. A comment ("// …", "/* …") does not.
func continues(line string) bool {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") {
		return false
	}
	return t != "" && strings.IndexByte(".?:&|+-*/%=<>", t[0]) >= 0
}

// indentFits reports whether a line indented by indent may follow a line
// indented by prev: whole units, at most one level deeper.
func indentFits(indent, prev, unit string) bool {
	return extra(indent, unit) == 0 && levels(indent, unit) <= levels(prev, unit)+1
}

// replyUnit guesses the reply's indentation unit: a tab if it indents with
// tabs, else the greatest common divisor of its space indents (a one-space
// divisor means alignment, not a unit: then the file's unit is assumed).
func replyUnit(abs []string, plan Plan) string {
	g := 0
	for _, a := range abs {
		if strings.Contains(a, "\t") {
			return "\t"
		}
		g = gcd(g, len(a))
	}
	switch {
	case g > 1:
		return strings.Repeat(" ", g)
	case plan.Unit != "\t":
		return plan.Unit
	}
	return "    "
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// levels counts how many units indent holds (tabs count one level each).
func levels(indent, unit string) int {
	tabs := strings.Count(indent, "\t")
	spaces := len(indent) - tabs
	if unit == "\t" || unit == "" {
		return tabs + spaces/4
	}
	return tabs + spaces/len(unit)
}

// extra returns the alignment spaces indent holds beyond whole units.
func extra(indent, unit string) int {
	spaces := len(indent) - strings.Count(indent, "\t")
	if unit == "\t" || unit == "" {
		return spaces % 4
	}
	return spaces % len(unit)
}

// cutDedent ends a reply for an indentation-blocked language at its first
// line of code indented less than the block (indent): that line belongs
// after the block. A reply that breaks the line first and starts
// shallower than indent has left the block itself (reindent keeps that
// level): its first line of code is the block it writes.
func cutDedent(s, indent string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if lead := leadingSpace(l); i > 0 && len(lead) < len(indent) {
			indent = lead
		}
		break
	}
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) != "" && len(leadingSpace(l)) < len(indent) {
			return strings.Join(lines[:i], "\n")
		}
	}
	return s
}

package shape

import "strings"

// balance fits s's brackets and quotes to the document. It walks s from
// the lexer state at the cursor:
//
//   - a bracket closing one opened before the cursor, which the suffix
//     already closes, ends s (the suffix provides it); if the closer is
//     alone on its line the line goes too;
//   - such a bracket that the suffix does not close is kept, and a
//     multi-line completion ends with its line (the block is done);
//   - a closer that matches nothing open ends s;
//   - a quote ending the string the cursor is in ends s when the suffix
//     ends that string too;
//   - at the end, brackets and strings s opened and left open are closed
//     (one line), or s is cut back to its last line at which everything it
//     opened was closed (several lines; when there is none and the
//     first line ends opening a block, s is that line). An opener ending a one-line
//     completion is left open: it starts the next line's block.
//
// A partial s (a reply still streaming) is never closed: the rest of the
// reply brings its closers. Several lines of it are cut back to the last
// line at which nothing it opened is open, as a final s is, or else to
// its first line as written: the ghost text grows line by line, and a
// block shows once it is whole.
func (st site) balance(s string, multiline, partial bool) string {
	closers, closesString := st.providedClosers()
	lx := st.lx
	inLiteral := lx.mode == inString || lx.mode == inBlockComment
	top := len(st.stack) // st.stack[:top] are still open
	closed := 0          // prefix brackets s has closed
	var own []byte       // brackets s opened, still open
	lastSafe := 0        // end of the last line with nothing of s's open
	stopAtEOL := false
	for i := 0; i < len(s); {
		if s[i] == '\n' && (lx.mode == inCode || lx.mode == inLineComment) {
			if stopAtEOL {
				return s[:i]
			}
			if len(own) == 0 {
				lastSafe = i
			}
		}
		wasLiteral := inLiteral && lx.mode != inCode
		k, next := lx.step(s, i)
		switch k {
		case tokStringEnd, tokCommentEnd:
			if wasLiteral {
				inLiteral = false
				if closesString {
					return s[:i]
				}
			}
		case tokOpen:
			own = append(own, s[i])
		case tokClose:
			switch {
			case len(own) > 0:
				if closerOf(st.d, own[len(own)-1]) != s[i] {
					return s[:i]
				}
				own = own[:len(own)-1]
			case top == 0 || closerOf(st.d, st.stack[top-1]) != s[i]:
				return s[:i]
			case closed < len(closers):
				return cutBeforeCloser(s, i)
			default:
				top--
				closed++
				stopAtEOL = stopAtEOL || multiline
			}
		}
		if wasLiteral && lx.mode == inCode {
			inLiteral = false
		}
		i = next
	}
	openString := lx.mode == inString && !inLiteral
	switch {
	case len(own) == 0 && !openString || partial && !multiline:
		return s
	case partial && lastSafe > 0:
		return s[:lastSafe]
	case partial:
		first := firstCodeLine(s)
		return first
	}
	if multiline {
		first := firstCodeLine(s)
		if lastSafe == 0 && st.d.endsOpen(first) {
			// The block s opens does not close within the lines it may
			// run to (a long loop on a blank line), or the reply ended
			// with its opening line: that line, as a one-line completion
			// shows it and as it showed while streaming, rather than
			// nothing. The body follows, from the same reply or the next,
			// once the line is taken.
			return st.balance(first, false, false)
		}
		return s[:lastSafe]
	}
	if !openString && st.d.endsOpen(s) {
		return s
	}
	if openString {
		s += lx.quote
	}
	for j := len(own) - 1; j >= 0; j-- {
		s += string(closerOf(st.d, own[j]))
	}
	return s
}

// endsOpen reports whether s, trailing spaces aside, ends with an opening
// bracket.
func (d *dialect) endsOpen(s string) bool {
	_, opens := d.Closer(lastByte(strings.TrimRight(s, " \t")))
	return opens
}

// firstCodeLine returns s up to the end of its first line that is not
// blank (the blank lines before it included).
func firstCodeLine(s string) string {
	start := strings.IndexFunc(s, func(r rune) bool { return r != '\n' && r != '\r' && r != ' ' && r != '\t' })
	if start < 0 {
		return s
	}
	end := strings.IndexByte(s[start:], '\n')
	if end < 0 {
		return s
	}
	return s[:start+end]
}

// cutBeforeCloser cuts s before the closer at i; when the closer is the
// first thing on its line, the line break before it goes too.
func cutBeforeCloser(s string, i int) string {
	ls := strings.LastIndexByte(s[:i], '\n')
	if ls >= 0 && strings.TrimSpace(s[ls+1:i]) == "" {
		return s[:ls]
	}
	return s[:i]
}

// lastByte returns the last byte of s, or 0 when s is empty.
func lastByte(s string) byte {
	if s == "" {
		return 0
	}
	return s[len(s)-1]
}

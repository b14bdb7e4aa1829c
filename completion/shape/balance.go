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
//     opened was closed (several lines). An opener ending a one-line
//     completion is left open: it starts the next line's block.
func (st site) balance(s string, multiline bool) string {
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
	if len(own) == 0 && !openString {
		return s
	}
	if multiline {
		return s[:lastSafe]
	}
	trimmed := strings.TrimRight(s, " \t")
	if _, opens := st.d.Closer(lastByte(trimmed)); !openString && opens {
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

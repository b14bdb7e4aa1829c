package gather

// DefaultBudget is the context size, in estimated tokens, when the caller
// names none. 1,500 tokens (about 5 KB of code: the enclosing function,
// its neighbours, the imports and a handful of signatures) is where
// completion quality stops improving noticeably for line and block
// completions, while prefill time, which adds directly to the time to the
// first token, keeps growing with every token sent.
const DefaultBudget = 1500

// Token costs, in thousandths of a token, of what a scan of source text
// meets. They were fitted to the token counts of o200k_base (the
// tokenizer family of current OpenAI models; cl100k_base counts within 1%
// of it) on 1,600 chunks of 300 to 4,000 bytes of Go, Python, Rust and
// JavaScript from the module cache, the Python standard library, Debian's
// Rust crates and Node's packages (numbers fixed at one token per group of
// three digits, as o200k splits them), then scaled so that no language is
// underestimated by more than 3%: the estimate over real is 0.98 for Go
// and Python, 1.01 for Rust, 1.05 for JavaScript, and one chunk's estimate
// is within 13% of its real count (standard deviation). A flat 3.5 bytes a
// token was within 22%, and off by 10 to 14% for Python and JavaScript.
// bench/context -calibrate reports the estimate against real counts on its
// own trees (-quick: 1.02 for Go, 1.06 for Python, 0.99 for Rust, where
// any flat ratio is 16-20% off for one language or another), and the real
// size of the rendered prompts: 97-102% of the budget.
const (
	costWord      = 820  // an identifier or word (non-ASCII letters included)
	costWordMore  = 670  // each 4 more bytes of it
	costNonASCII  = 300  // each non-ASCII character in it
	costDigits    = 1050 // each group of up to 3 digits of a number
	costPunct     = 590  // an ASCII symbol
	costNewline   = 1210 // a line break
	costIndent    = 20   // a byte of indentation
	milliPerToken = 1000
)

// Estimate returns the estimated token count of s under a BPE tokenizer
// of the o200k/cl100k family, rounded up. It reads s once and allocates
// nothing.
func Estimate(s string) int {
	return (cost(s, -1) + milliPerToken - 1) / milliPerToken
}

// cost returns s's estimated size in thousandths of a token. With limit
// >= 0 it stops early once the cost passes limit, and then returns some
// value above limit.
func cost(s string, limit int) int {
	c := 0
	atLine := true // only indentation since the last line break
	for i := 0; i < len(s); {
		if limit >= 0 && c > limit {
			return c
		}
		b := s[i]
		switch {
		case b == '\n':
			c += costNewline
			atLine = true
			i++
			continue
		case b == ' ' || b == '\t' || b == '\r':
			j := i + 1
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r') {
				j++
			}
			if atLine {
				c += (j - i) * costIndent
			}
			i = j
			continue
		}
		atLine = false
		switch {
		case isIdentStart(b) || b >= 0x80:
			j := i
			for j < len(s) && (isIdentPart(s[j]) || s[j] >= 0x80) {
				if s[j] >= 0xC0 {
					c += costNonASCII
				}
				j++
			}
			c += costWord + (j-i-1)/4*costWordMore
			i = j
		case b >= '0' && b <= '9':
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			c += (j - i + 2) / 3 * costDigits
			i = j
		default:
			c += costPunct
			i++
		}
	}
	return c
}

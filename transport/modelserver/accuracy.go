package modelserver

import (
	"context"
	"hash/fnv"
	"strings"
)

// InaccurateBackend makes a backend sometimes wrong, as real models are:
// each line of a reply is, with probability 1-Accuracy, replaced by a
// plausible but wrong line (one word of it swapped for a neighbour's, or
// its tail cut), while the rest of the reply goes on from the true text.
//
// The choice is seeded and depends only on Seed, the text before the line
// and the true line, never on timing: asked the same thing twice, it is
// wrong the same way, and a line already typed through is judged afresh
// only from the point the new prompt ends.
type InaccurateBackend struct {
	// Backend produces the true replies; never nil.
	Backend Backend
	// Accuracy is the share of lines left true, in [0, 1].
	Accuracy float64
	// Seed varies which lines are wrong.
	Seed uint64
}

// Generate implements Backend. It holds back each line until it is
// complete (or the reply ends), then yields it, changed or not; pacing is
// the server's, after the backend, so holding back costs no wall time
// beyond the true backend's own.
func (b InaccurateBackend) Generate(ctx context.Context, q Query, yield func(string) bool) error {
	var (
		line    strings.Builder
		lineIdx int
		stopped bool
	)
	flush := func() bool {
		text := line.String()
		line.Reset()
		if text == "" {
			return true
		}
		if b.wrong(q.Prefix, lineIdx, text) {
			text = mislead(text, b.Seed)
		}
		lineIdx++
		for _, tok := range Tokenize(text) {
			if !yield(tok) {
				return false
			}
		}
		return true
	}
	err := b.Backend.Generate(ctx, q, func(tok string) bool {
		if stopped {
			return false
		}
		for tok != "" {
			i := strings.IndexByte(tok, '\n')
			if i < 0 {
				line.WriteString(tok)
				return true
			}
			line.WriteString(tok[:i+1])
			tok = tok[i+1:]
			if !flush() {
				stopped = true
				return false
			}
		}
		return true
	})
	if !stopped && ctx.Err() == nil {
		flush()
	}
	return err
}

// wrong decides, from the seed, the query's last bytes before the line and
// the line itself, whether the line at index idx of the reply diverges.
func (b InaccurateBackend) wrong(prefix string, idx int, line string) bool {
	if b.Accuracy >= 1 {
		return false
	}
	if b.Accuracy <= 0 {
		return true
	}
	h := fnv.New64a()
	var seed [8]byte
	for i := range seed {
		seed[i] = byte(b.Seed >> (8 * i))
	}
	h.Write(seed[:])
	h.Write([]byte(prefix[max(0, len(prefix)-64):]))
	h.Write([]byte{byte(idx)})
	h.Write([]byte(line))
	const scale = 1 << 53
	return float64(h.Sum64()>>11)/scale >= b.Accuracy
}

// mislead returns a plausible wrong version of line: a word of it (past
// its first, when it has more than one) turned into a near neighbour.
// Indentation and the line end are kept, so the rest of the reply still
// lines up. A line without words (a closing brace) is left as it is; any
// other comes back changed.
func mislead(line string, seed uint64) string {
	body, end := strings.CutSuffix(line, "\n")
	indent := body[:len(body)-len(strings.TrimLeft(body, " \t"))]
	words := wordSpans(body[len(indent):])
	nl := ""
	if end {
		nl = "\n"
	}
	if len(words) == 0 {
		return line
	}
	pick := words[0]
	if len(words) > 1 {
		pick = words[1+int(seed%uint64(len(words)-1))]
	}
	start, stop := len(indent)+pick[0], len(indent)+pick[1]
	word := body[start:stop]
	return body[:start] + neighbour(word) + body[stop:] + nl
}

// neighbour is a word a model might plausibly write instead of w.
func neighbour(w string) string {
	swaps := map[string]string{
		"true": "false", "false": "true", "nil": "err", "err": "nil",
		"return": "continue", "if": "for", "for": "if", "int": "int64",
		"string": "[]byte", "None": "self", "self": "cls", "const": "let",
		"let": "const", "i": "j", "0": "1", "1": "0",
	}
	if s, ok := swaps[w]; ok {
		return s
	}
	if len(w) > 3 && strings.HasSuffix(w, "s") {
		return w[:len(w)-1]
	}
	if len(w) > 3 {
		return w + "s"
	}
	return w + "2"
}

// wordSpans returns the [start, end) byte spans of the words in s.
func wordSpans(s string) [][2]int {
	var spans [][2]int
	start := -1
	for i, r := range s {
		if isWord(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			spans = append(spans, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		spans = append(spans, [2]int{start, len(s)})
	}
	return spans
}

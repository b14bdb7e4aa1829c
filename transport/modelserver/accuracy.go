package modelserver

import (
	"context"
	"hash/fnv"
	"math"
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
//
// Scored (GenerateScored), it also says where it was unsure, as calibrated
// as Calibration and FalseDoubts make it; see GenerateScored. The true
// backend's own scores, if it has any, are not used.
type InaccurateBackend struct {
	// Backend produces the true replies; never nil.
	Backend Backend
	// Accuracy is the share of lines left true, in [0, 1].
	Accuracy float64
	// Seed varies which lines are wrong, and which show doubts.
	Seed uint64
	// Calibration is the share of wrong lines whose wrongness shows in
	// the scores, in [0, 1].
	Calibration float64
	// FalseDoubts is the share of true lines of two words or more that
	// carry a doubt all the same, in [0, 1].
	FalseDoubts float64
}

// The probabilities InaccurateBackend scores tokens with, as natural logs.
var (
	lnSure       = math.Log(0.97) // a token without doubt
	lnWrongDoubt = math.Log(0.40) // the doubted token of a wrong line
	lnTrueAlt    = math.Log(0.35) // the true token it was weighed against
	lnFalseDoubt = math.Log(0.45) // the doubted token of a true line
	lnFalseAlt   = math.Log(0.30) // the wrong word it was weighed against
)

// Salts that make the seeded draws about one line independent of each
// other; wrong's draw has none, as it had before there were others.
const (
	saltShows      = "calibration"  // does a wrong line's doubt show
	saltFalseDoubt = "false-doubt"  // does a true line carry a doubt
	saltDoubtWord  = "doubted word" // which word of it
)

var _ ScoredBackend = InaccurateBackend{}

// Generate implements Backend. It holds back each line until it is
// complete (or the reply ends), then yields it, changed or not; pacing is
// the server's, after the backend, so holding back costs no wall time
// beyond the true backend's own.
func (b InaccurateBackend) Generate(ctx context.Context, q Query, yield func(string) bool) error {
	return b.generate(ctx, q, false, func(t Scored) bool { return yield(t.Token) })
}

// GenerateScored implements ScoredBackend: the same tokens as Generate,
// scored. A wrong line whose doubt shows (a Calibration share of them)
// gives the token holding the first byte where it differs from the true
// line probability 0.40, with the true line's token at the same offset as
// the runner-up at 0.35; when the wrong line is the true one cut short,
// its last token takes the doubt. A true line that draws a false doubt (a
// FalseDoubts share) gives the first token of one of its words past the
// first probability 0.45, with the word turned by neighbour (after the
// token's leading space, if any) at 0.30. Every other token gets 0.97 and
// lists only itself.
func (b InaccurateBackend) GenerateScored(ctx context.Context, q Query, yield func(Scored) bool) error {
	return b.generate(ctx, q, true, yield)
}

// generate yields the reply line by line, scoring the tokens when scored
// is set (unscored, they carry only their text).
func (b InaccurateBackend) generate(ctx context.Context, q Query, scored bool, yield func(Scored) bool) error {
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
		toks := b.judge(q.Prefix, lineIdx, text, scored)
		lineIdx++
		for _, t := range toks {
			if !yield(t) {
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

// judge returns the tokens of the line at index idx of the reply as it is
// sent: Tokenize of the true line, or of a misled one. Scored, each token
// carries its score; otherwise only its text.
func (b InaccurateBackend) judge(prefix string, idx int, line string, scored bool) []Scored {
	sent := line
	wrong := b.wrong(prefix, idx, line)
	if wrong {
		sent = mislead(line, b.Seed)
	}
	parts := Tokenize(sent)
	toks := make([]Scored, len(parts))
	for i, p := range parts {
		toks[i].Token = p
	}
	if !scored {
		return toks
	}
	tops := make([]Alternative, len(toks))
	for i := range toks {
		tops[i] = Alternative{Token: toks[i].Token, Logprob: lnSure}
		toks[i].Logprob, toks[i].Top = lnSure, tops[i:i+1:i+1]
	}
	switch {
	case sent != line:
		if b.draw(b.Calibration, saltShows, prefix, idx, line) {
			doubtWrong(toks, sent, line)
		}
	case !wrong:
		if b.draw(b.FalseDoubts, saltFalseDoubt, prefix, idx, line) {
			b.doubtTrue(toks, line, prefix, idx)
		}
	}
	return toks
}

// doubtWrong puts the doubt of wrong line sent, whose true version is
// line, on its token holding the first byte where the two differ (its
// last token, if sent is line cut short). toks are sent's tokens.
func doubtWrong(toks []Scored, sent, line string) {
	if len(toks) == 0 {
		return
	}
	d := 0
	for d < len(sent) && d < len(line) && sent[d] == line[d] {
		d++
	}
	i, start := 0, 0
	for ; i < len(toks)-1 && start+len(toks[i].Token) <= d; i++ {
		start += len(toks[i].Token)
	}
	// Bytes before d agree, and start <= d, so line[start:] is where
	// the true line stood at this token.
	alt := ""
	if rest := line[start:]; rest != "" {
		alt = rest[:tokenLen(rest)]
	}
	doubt(&toks[i], lnWrongDoubt, alt, lnTrueAlt)
}

// doubtTrue puts a false doubt on true line's tokens toks: on the token
// holding the first byte of one of its words past the first, picked by
// the seed. A line of fewer than two words gets none.
func (b InaccurateBackend) doubtTrue(toks []Scored, line, prefix string, idx int) {
	body := strings.TrimSuffix(line, "\n")
	indent := len(body) - len(strings.TrimLeft(body, " \t"))
	words := wordSpans(body[indent:])
	if len(words) < 2 {
		return
	}
	pick := words[1+int(b.hash(saltDoubtWord, prefix, idx, line)%uint64(len(words)-1))]
	wordStart, wordEnd := indent+pick[0], indent+pick[1]
	start := 0
	for i := range toks {
		end := start + len(toks[i].Token)
		if wordStart < end {
			alt := line[start:wordStart] + neighbour(line[wordStart:wordEnd])
			doubt(&toks[i], lnFalseDoubt, alt, lnFalseAlt)
			return
		}
		start = end
	}
}

// doubt scores t as chosen with probability e^lp over alt at e^altLp; an
// alt that is empty or t itself is left out.
func doubt(t *Scored, lp float64, alt string, altLp float64) {
	t.Logprob = lp
	t.Top = []Alternative{{Token: t.Token, Logprob: lp}}
	if alt != "" && alt != t.Token {
		t.Top = append(t.Top, Alternative{Token: alt, Logprob: altLp})
	}
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
	return !b.draw(b.Accuracy, "", prefix, idx, line)
}

// draw is a seeded draw with probability p about the line at index idx,
// independent of the draws under other salts.
func (b InaccurateBackend) draw(p float64, salt, prefix string, idx int, line string) bool {
	switch {
	case p >= 1:
		return true
	case p <= 0:
		return false
	}
	const scale = 1 << 53
	return float64(b.hash(salt, prefix, idx, line)>>11)/scale < p
}

// hash mixes the seed, the query's last 64 bytes before the reply, the
// line's index and text, and the salt.
func (b InaccurateBackend) hash(salt, prefix string, idx int, line string) uint64 {
	h := fnv.New64a()
	var seed [8]byte
	for i := range seed {
		seed[i] = byte(b.Seed >> (8 * i))
	}
	h.Write(seed[:])
	h.Write([]byte(prefix[max(0, len(prefix)-64):]))
	h.Write([]byte{byte(idx)})
	h.Write([]byte(line))
	h.Write([]byte(salt))
	return h.Sum64()
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

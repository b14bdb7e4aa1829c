package transport

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync/atomic"
)

// tokenLogprob is one token's score, as the Responses API streams them
// in a delta ("include":["message.output_text.logprobs"]), chat
// completions in a choice's logprobs.content, and llama.cpp in a chunk's
// completion_probabilities (asked with n_probs).
type tokenLogprob struct {
	Token       string       `json:"token"`
	Logprob     float64      `json:"logprob"`
	TopLogprobs []altLogprob `json:"top_logprobs"`
}

// altLogprob is one of the likeliest tokens at a place.
type altLogprob struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
}

// choiceLogprobs is a streamed choice's logprobs in either OpenAI shape:
// chat completions' {"content":[…]}, or text completions' parallel
// arrays {"tokens":[…],"token_logprobs":[…],"top_logprobs":[{tok:lp}…]}
// (asked with "logprobs":N).
type choiceLogprobs struct {
	Content       []tokenLogprob       `json:"content"`
	Tokens        []string             `json:"tokens"`
	TokenLogprobs []*float64           `json:"token_logprobs"`
	TopLogprobs   []map[string]float64 `json:"top_logprobs"`
}

// scores returns l's tokens' scores in the one shape, the text-completions
// alternatives likeliest first. A token without a logprob (null) counts
// as certain.
func (l *choiceLogprobs) scores() []tokenLogprob {
	if l == nil {
		return nil
	}
	out := l.Content
	for i, tok := range l.Tokens {
		p := tokenLogprob{Token: tok}
		if i < len(l.TokenLogprobs) && l.TokenLogprobs[i] != nil {
			p.Logprob = *l.TokenLogprobs[i]
		}
		if i < len(l.TopLogprobs) {
			for t, lp := range l.TopLogprobs[i] {
				p.TopLogprobs = append(p.TopLogprobs, altLogprob{Token: t, Logprob: lp})
			}
			slices.SortFunc(p.TopLogprobs, func(a, b altLogprob) int {
				return cmp.Or(cmp.Compare(b.Logprob, a.Logprob), strings.Compare(a.Token, b.Token))
			})
		}
		out = append(out, p)
	}
	return out
}

// doubtAlternatives is how many alternatives a request that asks for
// doubts asks the model for at each token (the Responses API allows up
// to 20); the chosen token is usually among them.
const doubtAlternatives = 3

// doubts tells the request's OnDoubt of the tokens of delta the model gave
// less than DoubtBelow probability. Call it before deliver(delta): At is
// counted from the model's text as received, which the text emitted
// follows (a stop string only ends it early). Entries whose tokens do not
// spell delta are placed at its start.
func (s *sink) doubts(delta string, probs []tokenLogprob) {
	if s.onDoubt == nil || s.doubtBelow <= 0 {
		return
	}
	spelled := 0
	for _, p := range probs {
		spelled += len(p.Token)
	}
	at := s.received
	for _, p := range probs {
		if prob := math.Exp(p.Logprob); prob < s.doubtBelow && p.Token != "" {
			d := Doubt{At: at, Token: p.Token, Prob: prob}
			for _, t := range p.TopLogprobs {
				if t.Token != p.Token && t.Token != "" {
					d.Alternatives = append(d.Alternatives, t.Token)
				}
			}
			s.onDoubt(d)
		}
		if spelled == len(delta) {
			at += len(p.Token)
		}
	}
}

// logprobsGate remembers that an endpoint refused to report token
// probabilities (reasoning models refuse logprobs, as they refuse a
// temperature): the request that met the refusal is sent again without
// them, and no later request asks. Safe for concurrent use.
type logprobsGate struct {
	refused atomic.Bool
}

// ask clears req's DoubtBelow once the endpoint has refused.
func (g *logprobsGate) ask(req *Request) {
	if g.refused.Load() {
		req.DoubtBelow = 0
	}
}

// refusedBy reports whether err, what req got, is the endpoint refusing
// the logprobs req asked for before any text came (res is what req
// produced), and remembers it if so.
func (g *logprobsGate) refusedBy(req Request, res Result, err error) bool {
	if req.DoubtBelow <= 0 || res.Text != "" || KindOf(err) != KindBadRequest {
		return false
	}
	msg := strings.ToLower(err.Error())
	if !strings.Contains(msg, "logprob") && !strings.Contains(msg, "include") {
		return false
	}
	g.refused.Store(true)
	return true
}

// generateAsking runs generate for req through g: without logprobs once
// refused, and once more without them when they are refused now.
func (g *logprobsGate) generateAsking(req Request, generate func(Request) (Result, error)) (Result, error) {
	g.ask(&req)
	res, err := generate(req)
	if g.refusedBy(req, res, err) {
		req.DoubtBelow = 0
		return generate(req)
	}
	return res, err
}

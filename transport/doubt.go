package transport

import (
	"math"
	"strings"
	"sync/atomic"
)

// tokenLogprob is one token's entry in a delta's logprobs, as the
// Responses API streams them ("include":["message.output_text.logprobs"]).
type tokenLogprob struct {
	Token       string  `json:"token"`
	Logprob     float64 `json:"logprob"`
	TopLogprobs []struct {
		Token   string  `json:"token"`
		Logprob float64 `json:"logprob"`
	} `json:"top_logprobs"`
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

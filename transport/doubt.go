package transport

import "math"

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

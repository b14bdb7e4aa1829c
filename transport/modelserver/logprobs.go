package modelserver

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
)

// Token scores as each wire reports them. A request that asks for them
// (the Responses include, chat's logprobs, the legacy completions'
// logprobs, llama.cpp's n_probs) gets, for every token it is sent, the
// token's log probability and at most K alternatives, likeliest first,
// from the generation's Scored tokens; a request that does not ask gets
// frames without any score field, as before scores existed. The wires
// differ only in how they spell a token's score:
//
//	Responses delta     "logprobs":[{"token","logprob","top_logprobs":[{"token","logprob"},…]},…]
//	chat completions    "logprobs":{"content":[{"token","logprob","bytes","top_logprobs":[{"token","logprob","bytes"},…]},…]}
//	legacy completions  "logprobs":{"tokens":[…],"token_logprobs":[…],"top_logprobs":[{TOKEN:LOGPROB,…},…],"text_offset":[…]}
//	llama.cpp           "completion_probabilities":[{"id","token","logprob","bytes","top_logprobs":[{"id","token","logprob","bytes"},…]},…]
//
// Codestral's FIM and Ollama cannot score tokens, and ignore any such
// field.

// maxTopLogprobs bounds the alternatives a request may ask for per token,
// as the OpenAI APIs bound top_logprobs. The legacy completions' logprobs,
// which OpenAI bounds at 5, is accepted up to it too.
const maxTopLogprobs = 20

// scoring is what a request asks of token scores.
type scoring struct {
	on  bool // report each token's score
	top int  // with at most this many alternatives; never negative
}

// topOutOfRange returns the invalid_request_error refusing param = k
// outside 0..maxTopLogprobs, worded as the OpenAI APIs word it, or nil
// when k is in range.
func topOutOfRange(param string, k int) *apiError {
	if k >= 0 && k <= maxTopLogprobs {
		return nil
	}
	code := "integer_above_max_value"
	if k < 0 {
		code = "integer_below_min_value"
	}
	return &apiError{Type: "invalid_request_error", Code: code, Message: fmt.Sprintf(
		"invalid '%s': expected a value from 0 to %d, but got %d", param, maxTopLogprobs, k)}
}

// legacyScoring reads the legacy completions' logprobs field: absent or
// null asks nothing; an integer N in 0..maxTopLogprobs asks for every
// token's score with at most N alternatives (0 still scores the chosen
// token). Anything else is refused.
func legacyScoring(raw json.RawMessage) (scoring, *apiError) {
	if len(raw) == 0 || string(raw) == "null" {
		return scoring{}, nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil {
		return scoring{}, &apiError{Type: "invalid_request_error", Code: "invalid_type",
			Message: fmt.Sprintf("invalid 'logprobs': expected an integer, but got %s", raw)}
	}
	if e := topOutOfRange("logprobs", n); e != nil {
		return scoring{}, e
	}
	return scoring{on: true, top: n}, nil
}

// logprobFields are the optional fields of a wire's logprobs entries.
type logprobFields uint8

const (
	withBytes logprobFields = 1 << iota // the token's UTF-8 bytes (chat completions, llama.cpp)
	withIDs                             // the token's id (llama.cpp)
)

// topLogprob is one alternative a token was weighed against.
type topLogprob struct {
	// ID is the token's id (tokenID), with withIDs only.
	ID      *int    `json:"id,omitempty"`
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
	// Bytes is the token's UTF-8, one number a byte, with withBytes
	// only; [] for an empty token.
	Bytes []int `json:"bytes,omitzero"`
}

// tokenLogprob is one token's logprobs entry: the token itself, spelled
// as an alternative is, and the alternatives it was weighed against.
type tokenLogprob struct {
	topLogprob
	// TopLogprobs is never nil, so it is sent as [] when empty.
	TopLogprobs []topLogprob `json:"top_logprobs"`
}

// logprobsOf is the logprobs entry of tok, with at most k alternatives
// and the optional fields f.
func logprobsOf(tok Scored, k int, f logprobFields) tokenLogprob {
	top := make([]topLogprob, 0, min(k, len(tok.Top)))
	for _, a := range tok.Top[:min(k, len(tok.Top))] {
		top = append(top, alternative(a.Token, a.Logprob, f))
	}
	return tokenLogprob{topLogprob: alternative(tok.Token, tok.Logprob, f), TopLogprobs: top}
}

// logprobsOfAll is the logprobs entries of toks, in order; never nil.
func logprobsOfAll(toks []Scored, k int, f logprobFields) []tokenLogprob {
	out := make([]tokenLogprob, 0, len(toks))
	for _, t := range toks {
		out = append(out, logprobsOf(t, k, f))
	}
	return out
}

// alternative spells token at log probability lp with the optional
// fields f.
func alternative(token string, lp float64, f logprobFields) topLogprob {
	a := topLogprob{Token: token, Logprob: lp}
	if f&withBytes != 0 {
		a.Bytes = make([]int, len(token))
		for i := range len(token) {
			a.Bytes[i] = int(token[i])
		}
	}
	if f&withIDs != 0 {
		id := tokenID(token)
		a.ID = &id
	}
	return a
}

// tokenID is the id llama.cpp's wire gives token: stable and small (below
// 1<<17), the same for the same string, but from no real vocabulary (it
// is FNV-1a of the string), so two strings may share one.
func tokenID(token string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(token)) // a hash.Hash never fails to write
	return int(h.Sum32() % (1 << 17))
}

// chatLogprobs is a chat choice's logprobs.
type chatLogprobs struct {
	Content []tokenLogprob `json:"content"`
}

// chat is the chat logprobs of toks, or nil when sc asks for none.
func (sc scoring) chat(toks []Scored) *chatLogprobs {
	if !sc.on {
		return nil
	}
	return &chatLogprobs{Content: logprobsOfAll(toks, sc.top, withBytes)}
}

// textLogprobs is a legacy completions choice's logprobs: parallel lists
// with one entry per token.
type textLogprobs struct {
	Tokens        []string  `json:"tokens"`
	TokenLogprobs []float64 `json:"token_logprobs"`
	// TopLogprobs maps each token's alternatives to their logprobs.
	TopLogprobs []map[string]float64 `json:"top_logprobs"`
	// TextOffset is each token's byte offset in the reply.
	TextOffset []int `json:"text_offset"`
}

// legacy is the legacy completions logprobs of toks, the first of which
// starts at byte at of the reply, or nil when sc asks for none. Of
// alternatives spelled alike, the likeliest is kept.
func (sc scoring) legacy(toks []Scored, at int) *textLogprobs {
	if !sc.on {
		return nil
	}
	l := &textLogprobs{Tokens: []string{}, TokenLogprobs: []float64{}, TopLogprobs: []map[string]float64{}, TextOffset: []int{}}
	for _, t := range toks {
		e := logprobsOf(t, sc.top, 0)
		top := make(map[string]float64, len(e.TopLogprobs))
		for _, a := range e.TopLogprobs {
			if _, seen := top[a.Token]; !seen {
				top[a.Token] = a.Logprob
			}
		}
		l.Tokens = append(l.Tokens, e.Token)
		l.TokenLogprobs = append(l.TokenLogprobs, e.Logprob)
		l.TopLogprobs = append(l.TopLogprobs, top)
		l.TextOffset = append(l.TextOffset, at)
		at += len(t.Token)
	}
	return l
}

// llama is llama.cpp's completion_probabilities of toks, or nil when sc
// asks for none.
func (sc scoring) llama(toks []Scored) []tokenLogprob {
	if !sc.on {
		return nil
	}
	return logprobsOfAll(toks, sc.top, withBytes|withIDs)
}

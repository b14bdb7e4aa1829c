package modelserver

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// The OpenAI-compatible wires: /v1/chat/completions and /v1/completions
// (which DeepSeek's /beta/completions shares).

// chatRequest is a /v1/chat/completions body.
type chatRequest struct {
	Model               string    `json:"model"`
	Messages            []message `json:"messages"`
	Stream              bool      `json:"stream"`
	MaxTokens           int       `json:"max_tokens"`
	MaxCompletionTokens int       `json:"max_completion_tokens"`
	Stop                stops     `json:"stop"`
	// Logprobs asks for every token's score, with at most TopLogprobs
	// (0–20) alternatives.
	Logprobs    bool `json:"logprobs"`
	TopLogprobs int  `json:"top_logprobs"`
}

// scoring is what r asks of token scores, or the error refusing a
// top_logprobs out of range (whether or not logprobs is set).
func (r chatRequest) scoring() (scoring, *apiError) {
	if e := topOutOfRange("top_logprobs", r.TopLogprobs); e != nil {
		return scoring{}, e
	}
	return scoring{on: r.Logprobs, top: r.TopLogprobs}, nil
}

// completionRequest is a /v1/completions body (and the FIM bodies that
// share it).
type completionRequest struct {
	Model     string          `json:"model"`
	Prompt    json.RawMessage `json:"prompt"`
	Suffix    string          `json:"suffix"`
	Stream    bool            `json:"stream"`
	MaxTokens int             `json:"max_tokens"`
	Stop      stops           `json:"stop"`
	// Logprobs is the legacy completions' logprobs (legacyScoring); it
	// is kept raw, as Codestral's wire ignores it whatever it holds.
	Logprobs json.RawMessage `json:"logprobs"`
}

// stops is the OpenAI wires' stop field: one string or a list of them;
// null, like an absent field, is no stop sequences.
type stops []string

// UnmarshalJSON implements json.Unmarshaler.
func (s *stops) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*s = nil
		return nil
	}
	var one string
	if json.Unmarshal(b, &one) == nil {
		*s = stops{one}
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("stop is neither a string nor a list of strings: %w", err)
	}
	*s = list
	return nil
}

// chatChoice is one choice of a chat reply: Delta when streamed, Message
// when whole.
type chatChoice struct {
	Index   int       `json:"index"`
	Delta   *chatText `json:"delta,omitempty"`
	Message *chatText `json:"message,omitempty"`
	// Logprobs scores the tokens of Delta or Message, when asked.
	Logprobs     *chatLogprobs `json:"logprobs,omitempty"`
	FinishReason *string       `json:"finish_reason"`
}

type chatText struct {
	Role    string `json:"role,omitempty"`
	Content string `json:"content"`
}

// textChoice is one choice of a completions reply.
type textChoice struct {
	Index int    `json:"index"`
	Text  string `json:"text"`
	// Logprobs scores the tokens of Text, when asked.
	Logprobs     *textLogprobs `json:"logprobs,omitempty"`
	FinishReason *string       `json:"finish_reason"`
}

// openAIReply is a chunk or a whole reply of the OpenAI wires.
type openAIReply struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Model   string `json:"model,omitempty"`
	Choices any    `json:"choices"`
	Usage   *struct {
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage,omitempty"`
}

// chatShape frames replies as chat completions, scored as sc asks: each
// streamed chunk's choice scores its delta's token in logprobs.content, a
// whole reply's scores all of them, and the finishing chunk carries none.
// Codestral's FIM route shares it, never scored.
func (s *Server) chatShape(model string, sc scoring) httpShape {
	id := s.newID("chatcmpl")
	reply := func(object string, c chatChoice, n int) openAIReply {
		r := openAIReply{ID: id, Object: object, Model: model, Choices: []chatChoice{c}}
		if n > 0 {
			r.Usage = &struct {
				CompletionTokens int `json:"completion_tokens"`
			}{n}
		}
		return r
	}
	return httpShape{
		scored: sc.on,
		frame: func(tok Scored, _ int) any {
			return reply("chat.completion.chunk", chatChoice{Delta: &chatText{Content: tok.Token},
				Logprobs: sc.chat([]Scored{tok})}, 0)
		},
		done: func(o outcome) []any {
			reason := finishReason(o)
			return []any{reply("chat.completion.chunk", chatChoice{Delta: &chatText{}, FinishReason: &reason}, o.tokens)}
		},
		doneMarker: "[DONE]",
		whole: func(o outcome, toks []Scored) any {
			reason := finishReason(o)
			return reply("chat.completion", chatChoice{
				Message:  &chatText{Role: "assistant", Content: o.text},
				Logprobs: sc.chat(toks), FinishReason: &reason}, o.tokens)
		},
	}
}

// textShape frames replies as text completions, scored as sc asks: each
// streamed chunk's choice scores its token in the legacy logprobs, its
// text_offset counted from the start of the reply; a whole reply's scores
// all of them, and the finishing chunk carries none.
func (s *Server) textShape(model string, sc scoring) httpShape {
	id := s.newID("cmpl")
	reply := func(c textChoice) openAIReply {
		return openAIReply{ID: id, Object: "text_completion", Model: model, Choices: []textChoice{c}}
	}
	return httpShape{
		scored: sc.on,
		frame: func(tok Scored, at int) any {
			return reply(textChoice{Text: tok.Token, Logprobs: sc.legacy([]Scored{tok}, at)})
		},
		done: func(o outcome) []any {
			reason := finishReason(o)
			return []any{reply(textChoice{FinishReason: &reason})}
		},
		doneMarker: "[DONE]",
		whole: func(o outcome, toks []Scored) any {
			reason := finishReason(o)
			return reply(textChoice{Text: o.text, Logprobs: sc.legacy(toks, 0), FinishReason: &reason})
		},
	}
}

// handleChat serves POST /v1/chat/completions.
func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	if !decodeBody(w, r, &req) {
		return
	}
	user, system, err := lastUser(req.Messages)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "invalid_messages", err.Error())
		return
	}
	sc, bad := req.scoring()
	if bad != nil {
		writeError(w, http.StatusBadRequest, bad.Type, bad.Code, bad.Message)
		return
	}
	limit := req.MaxCompletionTokens
	if limit == 0 {
		limit = req.MaxTokens
	}
	q := chatQuery(user, system, limit)
	q.Stop = req.Stop
	s.serveGeneration(w, r, s.chatShape(req.Model, sc), q, req.Stream)
}

// promptSuffix returns a handler for the prompt-and-suffix wires:
// POST /v1/completions and DeepSeek's POST /beta/completions framed as text
// completions, Codestral's POST /v1/fim/completions as chat completions.
// With scores set, the body's logprobs asks for token scores
// (legacyScoring); without, as on Codestral's wire, it is ignored.
func (s *Server) promptSuffix(shape func(model string, sc scoring) httpShape, scores bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req completionRequest
		if !decodeBody(w, r, &req) {
			return
		}
		prompt, err := promptText(req.Prompt)
		if err != nil {
			writeError(w, http.StatusBadRequest, "invalid_request_error", "invalid_prompt", err.Error())
			return
		}
		var sc scoring
		if scores {
			var bad *apiError
			if sc, bad = legacyScoring(req.Logprobs); bad != nil {
				writeError(w, http.StatusBadRequest, bad.Type, bad.Code, bad.Message)
				return
			}
		}
		q := fimQuery(prompt, req.Suffix, req.MaxTokens)
		q.Stop = req.Stop
		s.serveGeneration(w, r, shape(req.Model, sc), q, req.Stream)
	}
}

// promptText reads a completions prompt: a string, or an array holding one.
func promptText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil || len(list) != 1 {
		return "", errPrompt
	}
	return list[0], nil
}

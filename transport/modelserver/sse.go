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
	Index        int       `json:"index"`
	Delta        *chatText `json:"delta,omitempty"`
	Message      *chatText `json:"message,omitempty"`
	FinishReason *string   `json:"finish_reason"`
}

type chatText struct {
	Role    string `json:"role,omitempty"`
	Content string `json:"content"`
}

// textChoice is one choice of a completions reply.
type textChoice struct {
	Index        int     `json:"index"`
	Text         string  `json:"text"`
	FinishReason *string `json:"finish_reason"`
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

// chatShape frames replies as chat completions; Codestral's FIM route
// shares it.
func (s *Server) chatShape(model string) httpShape {
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
		frame: func(tok string) any {
			return reply("chat.completion.chunk", chatChoice{Delta: &chatText{Content: tok}}, 0)
		},
		done: func(o outcome) []any {
			reason := finishReason(o)
			return []any{reply("chat.completion.chunk", chatChoice{Delta: &chatText{}, FinishReason: &reason}, o.tokens)}
		},
		doneMarker: "[DONE]",
		whole: func(o outcome) any {
			reason := finishReason(o)
			return reply("chat.completion", chatChoice{
				Message: &chatText{Role: "assistant", Content: o.text}, FinishReason: &reason}, o.tokens)
		},
	}
}

// textShape frames replies as text completions.
func (s *Server) textShape(model string) httpShape {
	id := s.newID("cmpl")
	reply := func(c textChoice) openAIReply {
		return openAIReply{ID: id, Object: "text_completion", Model: model, Choices: []textChoice{c}}
	}
	return httpShape{
		frame: func(tok string) any { return reply(textChoice{Text: tok}) },
		done: func(o outcome) []any {
			reason := finishReason(o)
			return []any{reply(textChoice{FinishReason: &reason})}
		},
		doneMarker: "[DONE]",
		whole: func(o outcome) any {
			reason := finishReason(o)
			return reply(textChoice{Text: o.text, FinishReason: &reason})
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
	limit := req.MaxCompletionTokens
	if limit == 0 {
		limit = req.MaxTokens
	}
	q := chatQuery(user, system, limit)
	q.Stop = req.Stop
	s.serveGeneration(w, r, s.chatShape(req.Model), q, req.Stream)
}

// promptSuffix returns a handler for the prompt-and-suffix wires:
// POST /v1/completions and DeepSeek's POST /beta/completions framed as text
// completions, Codestral's POST /v1/fim/completions as chat completions.
func (s *Server) promptSuffix(shape func(model string) httpShape) http.HandlerFunc {
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
		q := fimQuery(prompt, req.Suffix, req.MaxTokens)
		q.Stop = req.Stop
		s.serveGeneration(w, r, shape(req.Model), q, req.Stream)
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

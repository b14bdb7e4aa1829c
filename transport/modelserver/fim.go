package modelserver

import (
	"errors"
	"net/http"
	"strings"
	"time"
)

// The FIM wires that differ from the OpenAI ones: Codestral's
// /v1/fim/completions, llama.cpp's /infill and Ollama's /api/generate.
// DeepSeek's /beta/completions is the text-completions wire (sse.go).

var errPrompt = errors.New("prompt must be a string or an array of one string")

// infillRequest is a llama.cpp /infill body.
type infillRequest struct {
	InputPrefix string `json:"input_prefix"`
	InputSuffix string `json:"input_suffix"`
	InputExtra  []struct {
		Filename string `json:"filename"`
		Text     string `json:"text"`
	} `json:"input_extra"`
	// Prompt is text right before the cursor, after InputPrefix.
	Prompt string `json:"prompt"`
	// NPredict bounds the reply; absent or negative means unbounded, 0
	// only reads the prompt into the cache (a warm-up).
	NPredict *int `json:"n_predict"`
	Stream   bool `json:"stream"`
	// NProbs, when positive, asks for every token's score with at most
	// this many alternatives. (post_sampling_probs is not supported.)
	NProbs int `json:"n_probs"`
}

// infillFrame is a llama.cpp reply frame.
type infillFrame struct {
	Content         string `json:"content"`
	Stop            bool   `json:"stop"`
	StoppedLimit    bool   `json:"stopped_limit,omitempty"`
	TokensPredicted int    `json:"tokens_predicted,omitempty"`
	// CompletionProbabilities scores the frame's tokens, when asked.
	CompletionProbabilities []tokenLogprob `json:"completion_probabilities,omitzero"`
}

// llamaShape frames replies as llama.cpp does, scored as sc asks: each
// streamed frame scores its token in completion_probabilities, the final
// stop frame of a stream carries none, and a whole reply's final object
// scores all of them.
func llamaShape(sc scoring) httpShape {
	last := func(o outcome, text string) infillFrame {
		return infillFrame{Content: text, Stop: true, StoppedLimit: o.end == endLength, TokensPredicted: o.tokens}
	}
	return httpShape{
		scored: sc.on,
		frame: func(tok Scored, _ int) any {
			return infillFrame{Content: tok.Token, CompletionProbabilities: sc.llama([]Scored{tok})}
		},
		done: func(o outcome) []any { return []any{last(o, "")} },
		whole: func(o outcome, toks []Scored) any {
			f := last(o, o.text)
			f.CompletionProbabilities = sc.llama(toks)
			return f
		},
	}
}

// handleInfill serves POST /infill (llamaShape).
func (s *Server) handleInfill(w http.ResponseWriter, r *http.Request) {
	var req infillRequest
	if !decodeBody(w, r, &req) {
		return
	}
	shape := llamaShape(scoring{on: req.NProbs > 0, top: max(0, req.NProbs)})
	limit := 0
	if req.NPredict != nil {
		limit = max(0, *req.NPredict)
	}
	q := fimQuery(req.InputPrefix+req.Prompt, req.InputSuffix, limit)
	if req.NPredict != nil && *req.NPredict == 0 {
		s.serveWarmup(w, r, shape, q, req.Stream)
		return
	}
	s.serveGeneration(w, r, shape, q, req.Stream)
}

// ollamaRequest is an Ollama /api/generate body.
type ollamaRequest struct {
	Model   string `json:"model"`
	Prompt  string `json:"prompt"`
	Suffix  string `json:"suffix"`
	System  string `json:"system"`
	Stream  *bool  `json:"stream"`
	Options struct {
		NumPredict int `json:"num_predict"`
	} `json:"options"`
}

// ollamaFrame is an Ollama reply line.
type ollamaFrame struct {
	Model      string `json:"model"`
	CreatedAt  string `json:"created_at"`
	Response   string `json:"response"`
	Done       bool   `json:"done"`
	DoneReason string `json:"done_reason,omitempty"`
	EvalCount  int    `json:"eval_count,omitempty"`
}

// handleOllama serves POST /api/generate; it streams NDJSON unless the
// body says "stream": false. Ollama cannot score tokens: its replies never
// carry scores.
func (s *Server) handleOllama(w http.ResponseWriter, r *http.Request) {
	var req ollamaRequest
	if !decodeBody(w, r, &req) {
		return
	}
	frame := func(text string) ollamaFrame {
		return ollamaFrame{Model: req.Model, CreatedAt: s.clock.Now().UTC().Format(time.RFC3339Nano), Response: text}
	}
	last := func(o outcome, text string) ollamaFrame {
		f := frame(text)
		f.Done, f.DoneReason, f.EvalCount = true, finishReason(o), o.tokens
		return f
	}
	shape := httpShape{
		ndjson: true,
		frame:  func(tok Scored, _ int) any { return frame(tok.Token) },
		done:   func(o outcome) []any { return []any{last(o, "")} },
		whole:  func(o outcome, _ []Scored) any { return last(o, o.text) },
	}
	q := fimQuery(req.Prompt, req.Suffix, req.Options.NumPredict)
	q.System = strings.TrimSpace(req.System)
	s.serveGeneration(w, r, shape, q, req.Stream == nil || *req.Stream)
}

package transport

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.uber.org/zap"
)

// Wire shapes of the openai provider (and of the OpenAI-style FIM routes).
//
// POST {base}/chat/completions
//
//	{"model":M,"messages":[{"role":"system","content":I},{"role":"user","content":TEXT}],
//	 "stream":true,"max_tokens":N,"stop":[…],"temperature":T}
//
// POST {base}/completions
//
//	{"model":M,"prompt":PREFIX,"suffix":SUFFIX,"stream":true,"max_tokens":N,"stop":[…],"temperature":T}
//
// The answer is text/event-stream: "data: {chunk}" lines and a final
// "data: [DONE]". A chunk is {"choices":[{"delta":{"content":TEXT},
// "finish_reason":R}]} for chat and {"choices":[{"text":TEXT,
// "finish_reason":R}]} for completions; "usage":{"completion_tokens":N}
// may come with the last one; {"error":{…}} ends the stream with an error.
// max_tokens and stop are omitted when unset; stop carries at most 4
// strings (the rest still apply on our side).

// SSEConfig configures an SSEModel.
type SSEConfig struct {
	// Endpoint is the API base (http(s)://HOST/v1), or a full route ending
	// in /chat/completions or /completions, which selects it.
	Endpoint string
	// Completions selects /completions (prompt + suffix) when Endpoint is a
	// base; chat is the default.
	Completions bool
	// Model is the model name.
	Model string
	// APIKey is sent as a bearer token to Endpoint's host only.
	APIKey, APIKeyEnv string
	// MaxTokens is the default max_tokens; 0 sends none.
	MaxTokens int
	// NewConnPerRequest disables keep-alive (for comparison benchmarks).
	NewConnPerRequest bool
	// AllowInsecure permits http:// to a host that is not loopback.
	AllowInsecure bool
	// Log may be nil.
	Log *zap.Logger
}

// SSEModel is the openai provider: OpenAI-style streamed completions over
// a kept-alive, pre-warmed HTTP connection.
type SSEModel struct {
	http      *httpClient // immutable
	chat      bool        // immutable: /chat/completions rather than /completions
	model     string      // immutable
	maxTokens int         // immutable
	logprobs  logprobsGate
}

var (
	_ Model  = (*SSEModel)(nil)
	_ Warmer = (*SSEModel)(nil)
)

// NewSSE returns an openai Model.
func NewSSE(cfg SSEConfig) (*SSEModel, error) {
	u, err := checkEndpoint(cfg.Endpoint, "http", cfg.AllowInsecure)
	if err != nil {
		return nil, err
	}
	chat := !cfg.Completions
	switch p := trimSlash(u.Path); {
	case strings.HasSuffix(p, "/chat/completions"):
		chat = true
	case strings.HasSuffix(p, "/completions"):
		chat = false
	case chat:
		u.Path = p + "/chat/completions"
	default:
		u.Path = p + "/completions"
	}
	ep := endpoint{host: u.Host, keyEnv: cfg.APIKeyEnv, key: cfg.APIKey}
	return &SSEModel{http: newHTTPClient(u, ep, cfg.NewConnPerRequest, cfg.Log), chat: chat,
		model: cfg.Model, maxTokens: cfg.MaxTokens}, nil
}

// Warm opens a connection ahead of the first request.
func (m *SSEModel) Warm(ctx context.Context) error { return m.http.warm(ctx) }

// Close drops idle connections. It does not wait for generations in
// flight, or a Warm under way: they fail with KindUnavailable at once.
func (m *SSEModel) Close() error {
	m.http.close()
	return nil
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatBody struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	Stream      bool          `json:"stream"`
	MaxTokens   int           `json:"max_tokens,omitempty"`
	Stop        []string      `json:"stop,omitempty"`
	Temperature float64       `json:"temperature"`
	// Logprobs and TopLogprobs ask for each token's probability and its
	// likeliest alternatives (Request.DoubtBelow); omitted otherwise.
	Logprobs    bool `json:"logprobs,omitempty"`
	TopLogprobs int  `json:"top_logprobs,omitempty"`
}

type completionBody struct {
	Model       string   `json:"model"`
	Prompt      string   `json:"prompt"`
	Suffix      string   `json:"suffix,omitempty"`
	Stream      bool     `json:"stream"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
	Stop        []string `json:"stop,omitempty"`
	Temperature float64  `json:"temperature"`
	// Logprobs asks text completions for each token's probability and
	// this many alternatives (Request.DoubtBelow); omitted otherwise.
	Logprobs int `json:"logprobs,omitempty"`
}

// completionWire returns the text-completions body for req with the
// prompt, suffix and token limit given.
func completionWire(model string, req Request, prompt, suffix string, maxTokens int) completionBody {
	b := completionBody{Model: model, Prompt: prompt, Suffix: suffix, Stream: true,
		MaxTokens: maxTokens, Stop: wireStops(req.Stop), Temperature: req.Temperature}
	if req.DoubtBelow > 0 {
		b.Logprobs = doubtAlternatives
	}
	return b
}

// Generate streams one completion.
func (m *SSEModel) Generate(ctx context.Context, req Request, onDelta func(string)) (Result, error) {
	return m.logprobs.generateAsking(req, func(req Request) (Result, error) {
		body, _ := m.wire(req)
		return m.http.stream(ctx, body, sseFraming, m.http.parseOpenAI, newSink(req, onDelta))
	})
}

// wire returns the body Generate POSTs for req.
func (m *SSEModel) wire(req Request) (any, error) {
	maxTokens := req.MaxTokens
	if maxTokens == 0 {
		maxTokens = m.maxTokens
	}
	var body any
	if m.chat {
		instructions, input := RenderChat(req)
		chat := chatBody{Model: m.model, Stream: true, MaxTokens: maxTokens, Stop: wireStops(req.Stop),
			Temperature: req.Temperature, Messages: []chatMessage{
				{Role: "system", Content: instructions}, {Role: "user", Content: input}}}
		if req.DoubtBelow > 0 {
			chat.Logprobs, chat.TopLogprobs = true, doubtAlternatives
		}
		body = chat
	} else {
		body = completionWire(m.model, req, req.Prefix, req.Suffix, maxTokens)
	}
	return body, nil
}

// wireStops trims stop strings to the 4 OpenAI-style APIs accept; all of
// them are applied on our side anyway.
func wireStops(stops []string) []string {
	var out []string
	for _, s := range stops {
		if s != "" && len(out) < 4 {
			out = append(out, s)
		}
	}
	return out
}

// openAIChunk is one streamed chunk of chat or text completions.
type openAIChunk struct {
	Choices []struct {
		Delta struct {
			Content string `json:"content"`
		} `json:"delta"`
		Text         string  `json:"text"`
		FinishReason *string `json:"finish_reason"`
		// Logprobs, in a chunk asked with logprobs, scores the tokens
		// of its delta or text.
		Logprobs *choiceLogprobs `json:"logprobs"`
	} `json:"choices"`
	Usage *struct {
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

func (h *httpClient) parseOpenAI(data []byte) (event, error) {
	var c openAIChunk
	if err := json.Unmarshal(data, &c); err != nil {
		return event{}, h.ep.unavailable("malformed stream event", fmt.Errorf("%w: %.80q", err, data))
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return event{}, h.streamError(c.Error)
	}
	var ev event
	for _, ch := range c.Choices {
		ev.text += ch.Delta.Content + ch.Text
		ev.probs = append(ev.probs, ch.Logprobs.scores()...)
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			ev.finish = *ch.FinishReason
		}
	}
	if c.Usage != nil {
		ev.tokens = c.Usage.CompletionTokens
	}
	return ev, nil
}

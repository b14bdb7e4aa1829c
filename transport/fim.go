package transport

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"
)

// Wire shapes of the fim provider, one dialect per route; the dialect is
// chosen from the endpoint's path.
//
// Codestral, POST …/v1/fim/completions (SSE, chunks as chat completions):
//
//	{"model":M,"prompt":PREFIX,"suffix":SUFFIX,"stream":true,"max_tokens":N,"stop":[…],"temperature":T}
//
// DeepSeek …/beta/completions, or any OpenAI-style …/completions (SSE,
// chunks {"choices":[{"text":…,"finish_reason":…}]}): the same body; with a
// FIM template the prompt is RenderFIM's and no suffix is sent. Asking
// where the model was unsure adds "logprobs":K, and chunks then carry
// "logprobs":{"tokens":[…],"token_logprobs":[…],"top_logprobs":[{…}]}.
//
// llama.cpp, POST …/infill (SSE, chunks {"content":TEXT,"stop":BOOL}; the
// last, with "stop":true, may say "stop_type":"limit" or "stopped_limit":true
// when n_predict ran out):
//
//	{"input_prefix":PREFIX,"input_suffix":SUFFIX,"input_extra":[{"filename":P,"text":T}],
//	 "prompt":"","cache_prompt":true,"n_predict":N,"t_max_predict_ms":MS,"stream":true,"stop":[…]}
//
// Asking where the model was unsure adds "n_probs":K, and chunks then carry
// "completion_probabilities":[{"token":T,"logprob":L,"top_logprobs":[…]}].
//
// llama.cpp, POST …/completion (same answer), needs a FIM template:
//
//	{"prompt":RAW,"cache_prompt":true,"n_predict":N,"t_max_predict_ms":MS,"stream":true,"stop":[…]}
//
// Ollama, POST …/api/generate (NDJSON lines {"response":TEXT,"done":BOOL}):
//
//	{"model":M,"prompt":PREFIX,"suffix":SUFFIX,"stream":true,"options":{"num_predict":N,"temperature":T,"stop":[…]}}
//
// or, with a FIM template, {"model":M,"prompt":RAW,"raw":true,…} and no suffix.

type fimDialect int

const (
	dialectCodestral   fimDialect = iota // /fim/completions
	dialectCompletions                   // /beta/completions, /completions
	dialectInfill                        // llama.cpp /infill
	dialectLlamaRaw                      // llama.cpp /completion
	dialectOllama                        // /api/generate
)

// DefaultMaxPredict bounds llama.cpp's prediction time once a newline has
// been generated (t_max_predict_ms).
const DefaultMaxPredict = time.Second

// FIMConfig configures a FIMModel.
type FIMConfig struct {
	// Endpoint is the full route: …/v1/fim/completions, …/beta/completions,
	// …/completions, …/infill, …/completion or …/api/generate.
	Endpoint string
	// Model is the model name (ignored by llama.cpp).
	Model string
	// APIKey is sent as a bearer token to Endpoint's host only; may be empty.
	APIKey, APIKeyEnv string
	// Template is the raw FIM family for routes that take a raw prompt;
	// empty lets the server apply its own.
	Template string
	// MaxTokens is the default token limit; 0 sends none.
	MaxTokens int
	// MaxPredict is llama.cpp's t_max_predict_ms; 0 means DefaultMaxPredict.
	MaxPredict time.Duration
	// AllowInsecure permits http:// to a host that is not loopback.
	AllowInsecure bool
	// NewConnPerRequest disables keep-alive.
	NewConnPerRequest bool
	// Log may be nil.
	Log *zap.Logger
}

// FIMModel is the fim provider: fill-in-the-middle completion endpoints.
type FIMModel struct {
	http       *httpClient // immutable
	dialect    fimDialect  // immutable
	template   string      // immutable: normalised family, or ""
	model      string      // immutable
	maxTokens  int         // immutable
	maxPredict time.Duration
	logprobs   logprobsGate
}

var (
	_ Model  = (*FIMModel)(nil)
	_ Warmer = (*FIMModel)(nil)
)

// NewFIM returns a fim Model.
func NewFIM(cfg FIMConfig) (*FIMModel, error) {
	u, err := checkEndpoint(cfg.Endpoint, "http", cfg.AllowInsecure)
	if err != nil {
		return nil, err
	}
	m := &FIMModel{model: cfg.Model, maxTokens: cfg.MaxTokens, maxPredict: durationOr(cfg.MaxPredict, DefaultMaxPredict)}
	switch p := trimSlash(u.Path); {
	case strings.HasSuffix(p, "/fim/completions"):
		m.dialect = dialectCodestral
	case strings.HasSuffix(p, "/completions"):
		m.dialect = dialectCompletions
	case strings.HasSuffix(p, "/infill"):
		m.dialect = dialectInfill
	case strings.HasSuffix(p, "/completion"):
		m.dialect = dialectLlamaRaw
	case strings.HasSuffix(p, "/api/generate"):
		m.dialect = dialectOllama
	default:
		return nil, fmt.Errorf("fim endpoint %s: unknown route %q: want …/v1/fim/completions, …/beta/completions, …/completions, …/infill, …/completion or …/api/generate", u.Host, u.Path)
	}
	if cfg.Template != "" {
		if m.template, err = fimFamily(cfg.Template); err != nil {
			return nil, err
		}
	}
	if m.dialect == dialectLlamaRaw && m.template == "" {
		return nil, fmt.Errorf("fim endpoint %s: route %s takes a raw prompt: set model.fimTemplate", u.Host, u.Path)
	}
	ep := endpoint{host: u.Host, keyEnv: cfg.APIKeyEnv, key: cfg.APIKey}
	m.http = newHTTPClient(u, ep, cfg.NewConnPerRequest, cfg.Log)
	return m, nil
}

// Warm opens a connection ahead of the first request.
func (m *FIMModel) Warm(ctx context.Context) error { return m.http.warm(ctx) }

// Close drops idle connections. It does not wait for generations in
// flight, or a Warm under way: they fail with KindUnavailable at once.
func (m *FIMModel) Close() error {
	m.http.close()
	return nil
}

type infillExtra struct {
	Filename string `json:"filename"`
	Text     string `json:"text"`
}

type llamaBody struct {
	InputPrefix   *string       `json:"input_prefix,omitempty"`
	InputSuffix   *string       `json:"input_suffix,omitempty"`
	InputExtra    []infillExtra `json:"input_extra,omitempty"`
	Prompt        string        `json:"prompt"`
	CachePrompt   bool          `json:"cache_prompt"`
	NPredict      int           `json:"n_predict,omitempty"`
	TMaxPredictMS int64         `json:"t_max_predict_ms,omitempty"`
	Stream        bool          `json:"stream"`
	Stop          []string      `json:"stop,omitempty"`
	Temperature   float64       `json:"temperature"`
	// NProbs asks for each token's probability and this many
	// alternatives (Request.DoubtBelow); omitted otherwise.
	NProbs int `json:"n_probs,omitempty"`
}

type ollamaBody struct {
	Model   string        `json:"model"`
	Prompt  string        `json:"prompt"`
	Suffix  string        `json:"suffix,omitempty"`
	Raw     bool          `json:"raw,omitempty"`
	Stream  bool          `json:"stream"`
	Options ollamaOptions `json:"options"`
}

type ollamaOptions struct {
	NumPredict  int      `json:"num_predict,omitempty"`
	Temperature float64  `json:"temperature"`
	Stop        []string `json:"stop,omitempty"`
}

// Generate streams one fill-in-the-middle completion.
func (m *FIMModel) Generate(ctx context.Context, req Request, onDelta func(string)) (Result, error) {
	return m.logprobs.generateAsking(m.scoring(req), func(req Request) (Result, error) {
		body, err := m.wire(req)
		if err != nil {
			return Result{}, err
		}
		s := newSink(req, onDelta)
		switch m.dialect {
		case dialectInfill, dialectLlamaRaw:
			return m.http.stream(ctx, body, sseFraming, m.http.parseLlama, s)
		case dialectOllama:
			return m.http.stream(ctx, body, ndjsonFraming, m.http.parseOllama, s)
		default:
			return m.http.stream(ctx, body, sseFraming, m.http.parseOpenAI, s)
		}
	})
}

// scoring returns req as the endpoint can take it: without DoubtBelow
// where its dialect cannot say how sure the model was of each token
// (Codestral's FIM route, Ollama's generate).
func (m *FIMModel) scoring(req Request) Request {
	if m.dialect == dialectCodestral || m.dialect == dialectOllama {
		req.DoubtBelow = 0
	}
	return req
}

// wire returns the body Generate POSTs for req, in the endpoint's dialect.
func (m *FIMModel) wire(req Request) (any, error) {
	req = m.scoring(req)
	raw, maxTokens, err := m.prompt(req)
	if err != nil {
		return nil, err
	}
	switch m.dialect {
	case dialectInfill, dialectLlamaRaw:
		return m.llamaWire(req, raw, maxTokens), nil
	case dialectOllama:
		b := ollamaBody{Model: m.model, Prompt: req.Prefix, Suffix: req.Suffix, Stream: true,
			Options: ollamaOptions{NumPredict: maxTokens, Temperature: req.Temperature, Stop: nonEmpty(req.Stop)}}
		if raw != "" {
			b.Prompt, b.Suffix, b.Raw = raw, "", true
		}
		return b, nil
	default:
		if raw != "" {
			return completionWire(m.model, req, raw, "", maxTokens), nil
		}
		return completionWire(m.model, req, req.Prefix, req.Suffix, maxTokens), nil
	}
}

// prompt returns what every dialect's body is built from: the raw FIM
// prompt for req ("" where the endpoint takes the prefix and suffix, or
// applies its own template) and the token limit (the request's, else the
// model's default).
func (m *FIMModel) prompt(req Request) (raw string, maxTokens int, err error) {
	maxTokens = cmp.Or(req.MaxTokens, m.maxTokens)
	if m.template != "" && m.dialect != dialectCodestral && m.dialect != dialectInfill {
		if raw, err = RenderFIM(m.template, req); err != nil {
			return "", 0, err
		}
	}
	return raw, maxTokens, nil
}

// llamaWire returns the body of the llama.cpp dialects (/infill and raw
// /completion) for req, from prompt's raw and maxTokens.
func (m *FIMModel) llamaWire(req Request, raw string, maxTokens int) llamaBody {
	b := llamaBody{Prompt: raw, CachePrompt: true, NPredict: maxTokens, Stream: true,
		TMaxPredictMS: m.maxPredict.Milliseconds(), Stop: nonEmpty(req.Stop), Temperature: req.Temperature}
	if req.DoubtBelow > 0 {
		b.NProbs = doubtAlternatives
	}
	if m.dialect == dialectInfill {
		b.Prompt = ""
		b.InputPrefix, b.InputSuffix = &req.Prefix, &req.Suffix
		for _, c := range req.Context {
			b.InputExtra = append(b.InputExtra, infillExtra{Filename: c.Path, Text: c.Text})
		}
	}
	return b
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// llamaChunk is one streamed llama.cpp event.
type llamaChunk struct {
	Content         string          `json:"content"`
	Stop            bool            `json:"stop"`
	StopType        string          `json:"stop_type"`     // newer servers: "eos", "word", "limit"
	StoppedLimit    bool            `json:"stopped_limit"` // older servers
	TokensPredicted int             `json:"tokens_predicted"`
	Error           json.RawMessage `json:"error"`
	// Probs, in a chunk asked with n_probs, scores the tokens of Content.
	Probs []tokenLogprob `json:"completion_probabilities"`
}

func (h *httpClient) parseLlama(data []byte) (event, error) {
	var c llamaChunk
	if err := json.Unmarshal(data, &c); err != nil {
		return event{}, h.ep.unavailable("malformed stream event", fmt.Errorf("%w: %.80q", err, data))
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return event{}, h.streamError(c.Error)
	}
	ev := event{text: c.Content, probs: c.Probs, done: c.Stop, tokens: c.TokensPredicted}
	if c.Stop {
		ev.finish = "stop"
		if c.StopType == "limit" || c.StoppedLimit {
			ev.finish = "length"
		}
	}
	return ev, nil
}

// ollamaChunk is one NDJSON line of /api/generate.
type ollamaChunk struct {
	Response   string          `json:"response"`
	Done       bool            `json:"done"`
	DoneReason string          `json:"done_reason"`
	EvalCount  int             `json:"eval_count"`
	Error      json.RawMessage `json:"error"`
}

func (h *httpClient) parseOllama(data []byte) (event, error) {
	var c ollamaChunk
	if err := json.Unmarshal(data, &c); err != nil {
		return event{}, h.ep.unavailable("malformed stream event", fmt.Errorf("%w: %.80q", err, data))
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return event{}, h.streamError(c.Error)
	}
	ev := event{text: c.Response, done: c.Done, tokens: c.EvalCount}
	if c.Done {
		ev.finish = cmp.Or(c.DoneReason, "stop")
	}
	return ev, nil
}

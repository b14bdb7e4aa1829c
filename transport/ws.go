package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/zap"
)

// Connection tuning for openai-ws.
const (
	// DefaultWSMaxAge is when a connection is replaced: before the
	// endpoint's 60-minute cap.
	DefaultWSMaxAge = 55 * time.Minute
	// DefaultWSPing is the keep-alive ping interval.
	DefaultWSPing = 20 * time.Second

	writeTimeout = 10 * time.Second
	maxFrame     = 16 << 20
	backoffBase  = 250 * time.Millisecond
	backoffMax   = 30 * time.Second
)

// WSConfig configures a WSModel.
type WSConfig struct {
	// Endpoint is wss://HOST/v1/responses (a base ending in /v1 gets
	// /responses appended).
	Endpoint string
	// Model is the model name sent in response.create.
	Model string
	// APIKey is sent as a bearer token to Endpoint's host only; may be empty.
	APIKey string
	// APIKeyEnv names the variable the key came from, for error messages.
	APIKeyEnv string
	// MaxTokens is the default max_output_tokens; 0 sends none.
	MaxTokens int
	// AllowInsecure permits ws:// to a host that is not loopback.
	AllowInsecure bool
	// MaxAge and PingInterval default to DefaultWSMaxAge and DefaultWSPing.
	MaxAge, PingInterval time.Duration
	// Log may be nil.
	Log *zap.Logger
}

// WSModel is the openai-ws provider: one persistent WebSocket to the
// Responses API, shared by all requests, each on its own stream_id lane.
// The wire shapes are documented in wswire.go.
type WSModel struct {
	url       string      // immutable
	header    http.Header // immutable: Authorization and OpenAI-Beta
	ep        endpoint    // immutable
	model     string      // immutable
	maxTokens int         // immutable
	maxAge    time.Duration
	pingEvery time.Duration
	log       *zap.Logger // never nil
	dialer    websocket.Dialer

	logprobs logprobsGate

	life context.Context    // done at Close
	stop context.CancelFunc // ends life
	wg   sync.WaitGroup     // connection goroutines and the redialler

	mu        sync.Mutex
	cur       *wsConn              // guarded by mu: the connection new requests use; nil if none
	conns     map[*wsConn]struct{} // guarded by mu: every open connection (cur and retiring ones)
	dialing   *dialAttempt         // guarded by mu: the dial in progress; nil if none
	gate      redialGate           // guarded by mu: paces dials after failures
	warm      bool                 // guarded by mu: Warm was called; keep a connection open
	redialing bool                 // guarded by mu: the redialler is running
	closed    bool                 // guarded by mu
}

var (
	_ Model  = (*WSModel)(nil)
	_ Warmer = (*WSModel)(nil)
)

// NewWS returns an openai-ws Model. It does not connect: Warm does, or the
// first Generate.
func NewWS(cfg WSConfig) (*WSModel, error) {
	u, err := checkEndpoint(cfg.Endpoint, "ws", cfg.AllowInsecure)
	if err != nil {
		return nil, err
	}
	if !hasSuffixPath(u.Path, "/responses") {
		u.Path = trimSlash(u.Path) + "/responses"
	}
	h := http.Header{}
	h.Set(wsBetaHeader, wsBetaValue)
	if cfg.APIKey != "" {
		h.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	m := &WSModel{
		url: u.String(), header: h, model: cfg.Model, maxTokens: cfg.MaxTokens,
		ep:        endpoint{host: u.Host, keyEnv: cfg.APIKeyEnv, key: cfg.APIKey},
		maxAge:    durationOr(cfg.MaxAge, DefaultWSMaxAge),
		pingEvery: durationOr(cfg.PingInterval, DefaultWSPing),
		log:       cfg.Log,
		dialer: websocket.Dialer{
			Proxy:            http.ProxyFromEnvironment,
			HandshakeTimeout: 10 * time.Second,
		},
		conns: map[*wsConn]struct{}{},
	}
	if m.log == nil {
		m.log = zap.NewNop()
	}
	m.life, m.stop = context.WithCancel(context.Background())
	return m, nil
}

// durationOr returns d when it is positive, def otherwise (a zero or
// negative setting means the default).
func durationOr(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Warm opens the connection now, and keeps one open from then on: after a
// drop it is redialled in the background with jittered exponential backoff.
func (m *WSModel) Warm(ctx context.Context) error {
	m.mu.Lock()
	m.warm = true
	m.mu.Unlock()
	_, err := m.conn(ctx)
	return err
}

// Close closes every connection and ends a dial in progress, even one
// stuck in its handshake. It does not wait for generations in flight:
// they fail with KindUnavailable. It waits for the connections' and the
// dial's goroutines to exit, which they do at once.
func (m *WSModel) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	m.cur = nil
	conns := m.conns
	m.conns = map[*wsConn]struct{}{}
	m.mu.Unlock()
	m.stop()
	for c := range conns {
		c.shutdown()
	}
	m.wg.Wait()
	return nil
}

// Generate sends one response.create on the shared connection and relays
// its deltas. A request that fails with KindUnavailable on a connection
// before any text arrived (a stale, retiring or aged-out connection) is
// sent once more on a fresh connection; one the endpoint refused for its
// limits is sent again, up to wsMaxResends times, once the connection has
// room. A request that got no connection (the dial failed, or the model
// is closed) fails with that error: dialling again at once would only
// meet the redial gate.
func (m *WSModel) Generate(ctx context.Context, req Request, onDelta func(string)) (Result, error) {
	return m.logprobs.generateAsking(req, func(req Request) (Result, error) { return m.generate(ctx, req, onDelta) })
}

// generate is Generate for a request whose logprobs the endpoint takes.
func (m *WSModel) generate(ctx context.Context, req Request, onDelta func(string)) (Result, error) {
	create := m.create(req)
	s := newSink(req, onDelta)
	redialled, resends := false, 0
	for {
		res, placed, err := m.generateOnce(ctx, s, create)
		var refused *refusedError
		switch {
		case err == nil || !placed || ctx.Err() != nil || s.ttft != 0:
		case errors.As(err, &refused) && resends < wsMaxResends:
			resends++
			m.log.Debug("endpoint refused the request; sending it again", zap.Error(err))
			continue
		case KindOf(err) == KindUnavailable && !redialled:
			redialled = true
			m.log.Debug("retrying on a fresh connection", zap.Error(err))
			s.restart()
			continue
		}
		return res, err
	}
}

// wsMaxResends bounds how often one request is sent again after the
// endpoint refused it for its limits.
const wsMaxResends = 3

// create returns the response.create frame for req, without its
// stream_id (each attempt takes a new one).
func (m *WSModel) create(req Request) wsCreate {
	instructions, input := RenderChat(req)
	create := wsCreate{Type: "response.create", Model: m.model, Instructions: instructions,
		Input: input, MaxOutputTokens: req.MaxTokens, Store: false}
	if create.MaxOutputTokens == 0 {
		create.MaxOutputTokens = m.maxTokens
	}
	if req.DoubtBelow > 0 {
		create.Include = []string{"message.output_text.logprobs"}
		create.TopLogprobs = doubtAlternatives
	}
	return create
}

func (m *WSModel) wire(req Request) (any, error) { return m.create(req), nil }

// generateOnce sends create on a connection and waits for its response.
// placed reports whether it got a connection at all.
func (m *WSModel) generateOnce(ctx context.Context, s *sink, create wsCreate) (res Result, placed bool, err error) {
	l := newLane(s)
	c, err := m.place(ctx, l)
	if err != nil {
		return Result{}, false, err
	}
	create.StreamID = l.id
	frame, err := json.Marshal(create)
	if err != nil {
		c.release(l)
		return Result{}, true, fmt.Errorf("encode response.create: %w", err)
	}
	if err := c.send(frame); err != nil {
		c.release(l)
		return Result{}, true, err
	}
	select {
	case <-l.done:
		return l.result, true, l.err
	case <-ctx.Done():
		if c.abandon(l) {
			return l.result, true, l.err
		}
		return s.partial("cancelled"), true, cancelled(ctx)
	}
}

// place puts a lane on a connection that takes new requests, waiting while
// the connection has as many responses in flight as the endpoint allows.
func (m *WSModel) place(ctx context.Context, l *lane) (*wsConn, error) {
	for {
		c, err := m.conn(ctx)
		if err != nil {
			return nil, err
		}
		ok, room := c.add(l)
		if ok {
			return c, nil
		}
		if room == nil {
			continue // retiring: conn picks or dials another
		}
		select {
		case <-room:
		case <-ctx.Done():
			return nil, cancelled(ctx)
		}
	}
}

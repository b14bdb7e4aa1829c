package modelserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wisp-lsp/wisp/transport"
)

// Options configure a Server. The zero value serves unpaced, without faults,
// and fails every request for want of a reply.
type Options struct {
	// Script holds canned replies, tried before the fallback.
	Script *Script
	// Model is the fallback for queries the script does not match.
	Model transport.Model
	// Backend, when set, replaces Script and Model altogether.
	Backend Backend
	// APIKey, when set, must be presented as "Authorization: Bearer KEY";
	// when empty any key (or none) is accepted.
	APIKey string
	// TTFT is the time from a request's arrival to its first token.
	TTFT time.Duration
	// Rate is tokens per second after the first; 0 sends as fast as the
	// backend produces.
	Rate float64
	// Delay emulates one-way network latency: a request is handled Delay
	// after it is read, every frame is sent Delay after its token was due,
	// and a new connection or WebSocket upgrade costs another Delay.
	Delay time.Duration
	// MaxConnAge closes a WebSocket with a websocket_connection_limit_reached
	// error event once it is this old; 0 means never (60 minutes when Strict).
	MaxConnAge time.Duration
	// Strict makes the Responses WebSocket behave as the real service
	// documents rather than as tests would like: response.cancel is
	// answered with an error event and does not stop the response, and
	// the per-connection limits are enforced (wsstrict.go).
	Strict bool
	// UncachedPer1K turns on the prompt-cache model: a request's first
	// token comes this much later for every thousand prompt tokens that
	// are not a prefix of a recent prompt (warm-ups included). 0 means
	// every prompt is free to read.
	UncachedPer1K time.Duration
	// CacheTTL, with the prompt-cache model, forgets a prompt this long
	// after it was last sent or shared from, as hosted caches do after a
	// few idle minutes; 0 keeps the last prompts however old.
	CacheTTL time.Duration
	// Accuracy is the share of reply lines left true; the others diverge
	// plausibly (see InaccurateBackend), chosen by Seed. 0 means 1: every
	// line is true.
	Accuracy float64
	// Seed seeds which lines Accuracy makes wrong, and which show doubts.
	Seed uint64
	// Calibration is the share of wrong lines whose wrongness shows in
	// the token scores a request can ask for (logprobs, n_probs): a doubted
	// token with the true one as runner-up (see
	// InaccurateBackend.GenerateScored). It matters only with Accuracy
	// below 1.
	Calibration float64
	// FalseDoubts is the share of true lines (of two words or more) whose
	// scores show a doubt all the same. It applies whatever Accuracy is.
	FalseDoubts float64
	// Fault is the misbehaviour to inject, if any.
	Fault Fault
	// Clock paces everything; nil means the wall clock.
	Clock Clock
	// Received, when set, is called with the body of every generation
	// request as it arrives, before it is handled: each response.create
	// frame and each POST body. Tests compare it with what a client meant
	// to send. It must not block.
	Received func(body []byte)

	// requestDone, when set, is called after each HTTP generation request
	// has been counted; tests wait on it.
	requestDone func()
}

// Server is the loopback model server. It is safe for concurrent use.
type Server struct {
	opts    Options // immutable after New
	backend Backend // never nil; immutable after New
	limits  limits  // strict mode's per-connection bounds; zero when not strict
	clock   Clock   // never nil; immutable after New
	mux     *http.ServeMux
	counts  counters
	prompts promptCache  // the prompt-cache model; used only with UncachedPer1K
	ids     atomic.Int64 // numbers the ids the server hands out

	// ctx is done once Close begins; every stream watches it.
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	closed  bool                      // guarded by mu
	sockets map[*wsConn]struct{}      // open WebSockets; guarded by mu
	servers map[*http.Server]struct{} // servers started by Serve; guarded by mu
	active  sync.WaitGroup            // running handlers; Add only under mu while !closed
}

// New returns a Server configured by opts.
func New(opts Options) *Server {
	s := &Server{
		opts:    opts,
		backend: opts.Backend,
		clock:   opts.Clock,
		sockets: make(map[*wsConn]struct{}),
		servers: make(map[*http.Server]struct{}),
	}
	s.counts.init()
	if s.backend == nil {
		var fallback Backend
		if opts.Model != nil {
			fallback = ModelBackend{Model: opts.Model}
		}
		s.backend = ScriptBackend{Script: opts.Script, Fallback: fallback}
	}
	if accuracy := opts.Accuracy; (accuracy > 0 && accuracy < 1) || opts.FalseDoubts > 0 {
		if accuracy <= 0 || accuracy > 1 {
			accuracy = 1
		}
		s.backend = InaccurateBackend{Backend: s.backend, Accuracy: accuracy, Seed: opts.Seed,
			Calibration: opts.Calibration, FalseDoubts: opts.FalseDoubts}
	}
	if s.clock == nil {
		s.clock = realClock{}
	}
	s.limits = strictLimits(opts)
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /v1/responses", s.handleResponses)
	s.mux.HandleFunc("POST /v1/chat/completions", s.handleChat)
	s.mux.HandleFunc("POST /v1/completions", s.promptSuffix(s.textShape, true))
	s.mux.HandleFunc("POST /v1/fim/completions", s.promptSuffix(s.chatShape, false))
	s.mux.HandleFunc("POST /beta/completions", s.promptSuffix(s.textShape, true))
	s.mux.HandleFunc("POST /infill", s.handleInfill)
	s.mux.HandleFunc("POST /api/generate", s.handleOllama)
	s.mux.HandleFunc("GET /stats", s.handleStats)
	s.mux.HandleFunc("POST /stats/reset", s.handleStatsReset)
	return s
}

// Handler returns the server's routes. Connections are counted only when
// the server runs through Serve or ListenAndServe.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.enter() {
			http.Error(w, "model server closed", http.StatusServiceUnavailable)
			return
		}
		defer s.active.Done()
		if s.opts.APIKey != "" && r.Header.Get("Authorization") != "Bearer "+s.opts.APIKey {
			writeError(w, http.StatusUnauthorized, "invalid_request_error", "invalid_api_key", "incorrect API key")
			return
		}
		if s.opts.Received != nil && r.Method == http.MethodPost && !strings.HasPrefix(r.URL.Path, "/stats") {
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
			if err != nil {
				writeError(w, http.StatusRequestEntityTooLarge, "invalid_request_error", "body_too_large", err.Error())
				return
			}
			s.opts.Received(body)
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		s.mux.ServeHTTP(w, r)
	})
}

// enter registers a running handler; it reports false once Close began.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.active.Add(1)
	return true
}

// connKey is the context key under which each TCP connection's state is
// stored.
type connKey struct{ name string }

var connStateKey = &connKey{"modelserver connection"}

// connInfo is per-TCP-connection state.
type connInfo struct {
	// served is set once the connection's first request has paid the
	// handshake delay.
	served atomic.Bool
}

// Serve serves on l until Close. It returns nil after Close.
func (s *Server) Serve(l net.Listener) error {
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ConnState: func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				s.counts.connections.Add(1)
			}
		},
		ConnContext: func(ctx context.Context, _ net.Conn) context.Context {
			return context.WithValue(ctx, connStateKey, &connInfo{})
		},
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		l.Close()
		return nil
	}
	s.servers[hs] = struct{}{}
	s.mu.Unlock()
	err := hs.Serve(l)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return fmt.Errorf("model server: %w", err)
}

// ListenAndServe listens on addr (a loopback address such as
// 127.0.0.1:0) and serves until ctx is done or Close is called; either
// way the server is closed when it returns. To learn the port of
// 127.0.0.1:0, listen yourself and call Serve.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("model server listen %s: %w", addr, err)
	}
	stop := context.AfterFunc(ctx, s.Close)
	defer stop()
	return s.Serve(l)
}

// Close closes every WebSocket and stream, stops the servers Serve started
// and waits for running handlers to return. It does not close the fallback
// Model, which belongs to the caller.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		s.active.Wait()
		return
	}
	s.closed = true
	sockets := make([]*wsConn, 0, len(s.sockets))
	for c := range s.sockets {
		sockets = append(sockets, c)
	}
	servers := make([]*http.Server, 0, len(s.servers))
	for hs := range s.servers {
		servers = append(servers, hs)
	}
	s.mu.Unlock()
	s.cancel()
	for _, c := range sockets {
		c.close()
	}
	for _, hs := range servers {
		_ = hs.Close() // closes listeners and connections; errors are moot now
	}
	s.active.Wait()
}

// arrive waits out the inbound network delay for a request read at
// readAt, plus one more Delay for the first request on a new connection
// (the handshake), and returns the time the request arrived.
func (s *Server) arrive(ctx context.Context, readAt time.Time, handshake bool) (time.Time, error) {
	at := readAt.Add(s.opts.Delay)
	if handshake {
		at = at.Add(s.opts.Delay)
	}
	if err := sleepUntil(ctx, s.clock, at); err != nil {
		return at, err
	}
	return at, nil
}

// firstOnConn reports whether r is the first request on its TCP
// connection; always false when the server does not run through Serve.
func firstOnConn(r *http.Request) bool {
	ci, ok := r.Context().Value(connStateKey).(*connInfo)
	return ok && !ci.served.Swap(true)
}

// Package lsp is wisp's language server: the JSON-RPC connection, the
// handlers, capability negotiation, the open-document store and the
// conversion between LSP positions and the byte offsets everything else in
// wisp works in.
//
// Messages are handled in the order they arrive: a didChange can never
// overtake an earlier message. Slow requests (inline completion, quick
// edits) take their document snapshot on the ordered loop and only then
// detach (jsonrpc2.Async), so they always see every change sent before them.
package lsp

import (
	"context"
	"io"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/completion/history"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/workspace"
)

// Options configure a Server. Log and Config are required.
type Options struct {
	// Log receives diagnostics. It must not write to the LSP stream.
	Log *zap.Logger
	// Config is the configuration loaded before initialize from the
	// trusted layers (defaults, user file, environment, flags). The
	// editor's settings (initializationOptions, didChangeConfiguration)
	// are merged on top as untrusted: they may not choose where code and
	// keys go (config.Refusal), and each refusal is shown to the user once.
	Config config.Config
	// OpenModel builds a model for a configuration. The server calls it at
	// initialize and whenever the model settings change. Never nil.
	OpenModel func(ctx context.Context, m config.Model) (transport.Model, error)
	// Index configures the workspace folders' indexes (limits, cache
	// folder); the zero value takes the defaults.
	Index workspace.Options
}

// lifecycle states of the server.
type state int

const (
	stateNew state = iota
	stateRunning
	stateShutdown
)

// Server is one LSP session over one connection.
type Server struct {
	opts Options
	log  *zap.Logger
	docs *store
	// history logs the user's recent edits across documents; never nil.
	history *history.History

	// exited is closed, once, by the exit notification; never nil.
	exited   chan struct{}
	exitOnce sync.Once

	mu sync.Mutex // guards the fields below
	// conn and life are set once by Serve and never changed; life ends
	// when Serve stops serving.
	conn   jsonrpc2.Conn
	life   context.Context
	state  state
	enc    text.Encoding
	cfg    config.Config
	client clientFeatures
	// roots are the workspace folders' paths, from initialize.
	roots []string
	// indexes index the roots; nil until initialize and when there are
	// no roots.
	indexes *workspaceIndexes
	// engine serves inline completions; nil until initialize.
	engine *completion.Engine
	// models are closed at shutdown; completion and edit models.
	model, editModel transport.Model
	// edits tracks quick edits in flight, by document.
	edits *editTracker
	// next holds next-edit suggestions; never nil.
	next *nextEdits
	// said remembers messages already shown, so each is shown once.
	said map[string]bool

	// changing is held for writing by didChange from the store's change
	// until the engine has heard it, and for reading by a request that
	// takes a snapshot off the ordered loop (suggestFollowing), so that
	// the engine knows every change that snapshot holds. (The reverse, an
	// engine that has heard a change the snapshot lacks, the engine itself
	// answers: the query's Until is closed by then.)
	changing sync.RWMutex

	// status is the last wisp/status sent; it has its own lock.
	status statusLine
}

// clientFeatures is what the client said it supports, reduced to the
// facts the handlers use.
type clientFeatures struct {
	name            string
	documentChanges bool // versioned workspace edits
	workDone        bool // window/workDoneProgress/create
	watchFiles      bool // registers workspace/didChangeWatchedFiles dynamically
}

// New returns a server ready to Serve one connection.
func New(opts Options) *Server {
	return &Server{opts: opts, log: opts.Log, docs: newStore(), cfg: opts.Config, said: map[string]bool{},
		edits: newEditTracker(), history: history.New(0), next: newNextEdits(), exited: make(chan struct{})}
}

// Serve speaks LSP over rwc until the client sends exit, the connection
// closes or ctx ends (the process was told to stop). It returns the process
// exit code the specification asks for: 0 after shutdown, 1 otherwise.
//
// Stopping, for whichever reason, cancels every request in flight and every
// generation, closes the model connections and then closes rwc; Serve
// returns once the connection's goroutines have ended. It needs rwc's Close
// to end a Read in progress (a pipe or a socket does; a bare os.Stdin does
// not), since the client may still hold its end open.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) int {
	stream := newTolerantStream(rwc, s.log)
	conn := jsonrpc2.NewConn(stream, jsonrpc2.WithCodec(codec{}))
	life, endLife := context.WithCancel(context.WithoutCancel(ctx))
	defer endLife()
	s.mu.Lock()
	s.conn = conn
	s.life = life
	s.mu.Unlock()
	requests := newInflight()
	conn.Go(life, s.withCancel(requests.wrap(life, s.handle), requests.cancel))
	select {
	case <-conn.Done():
		s.log.Info("the connection ended", zap.NamedError("reason", conn.Err()))
	case <-s.exited:
		s.log.Info("exit received; stopping")
	case <-ctx.Done():
		s.log.Info("stopping", zap.NamedError("reason", context.Cause(ctx)))
	}
	// Requests and generations first: the connection's Close waits for
	// handlers in flight, and a handler waiting on a stalled model would
	// hold it forever.
	endLife()
	s.teardown()
	conn.Close() // returns once the connection's goroutines have ended
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == stateShutdown {
		return 0
	}
	return 1
}

// teardown stops generations and closes model connections.
func (s *Server) teardown() {
	s.mu.Lock()
	engine, model, editModel, indexes := s.engine, s.model, s.editModel, s.indexes
	s.engine, s.model, s.editModel, s.indexes = nil, nil, nil, nil
	s.mu.Unlock()
	if indexes != nil {
		indexes.close()
	}
	if engine != nil {
		engine.Close()
	}
	for _, m := range []transport.Model{model, editModel} {
		if m != nil {
			m.Close()
		}
	}
	s.edits.cancelAll()
	s.next.close()
	s.docs.closeAll()
}

// notify sends a notification to the client; failures are logged, since a
// notification has no one to report to.
func (s *Server) notify(ctx context.Context, method string, params any) {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn == nil {
		return
	}
	if err := conn.Notify(context.WithoutCancel(ctx), method, params); err != nil {
		s.log.Debug("notify failed", zap.String("method", method), zap.Error(err))
	}
}

// call sends a request to the client and waits for its answer. The caller
// must have released the read loop (jsonrpc2.Async) first.
func (s *Server) call(ctx context.Context, method string, params, result any) error {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	_, err := conn.Call(ctx, method, params, result)
	return err
}

// encoding returns the negotiated position encoding.
func (s *Server) encoding() text.Encoding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.enc
}

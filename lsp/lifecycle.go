package lsp

import (
	"context"
	"fmt"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// Version is reported in serverInfo; cmd/wisp sets it at link time.
var Version = "dev"

// Commands served by workspace/executeCommand.
const (
	CommandQuickEdit = "wisp.quickEdit"
)

func (s *Server) initialize(ctx context.Context, p *protocol.InitializeParams) (any, error) {
	enc := negotiateEncoding(p.Capabilities.General)
	features := clientFeatures{name: p.ClientInfo.Name}
	if w := p.Capabilities.Workspace; w != nil && w.WorkspaceEdit != nil && w.WorkspaceEdit.DocumentChanges != nil {
		features.documentChanges = *w.WorkspaceEdit.DocumentChanges
	}
	if w := p.Capabilities.Window; w != nil && w.WorkDoneProgress != nil {
		features.workDone = *w.WorkDoneProgress
	}
	if w := p.Capabilities.Workspace; w != nil && w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration != nil {
		features.watchFiles = *w.DidChangeWatchedFiles.DynamicRegistration
	}

	s.mu.Lock()
	if s.state != stateNew {
		s.mu.Unlock()
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize sent twice")
	}
	before := s.cfg
	cfg, warnings, err := before.Merge(p.InitializationOptions, config.SourceInitialize)
	if err != nil {
		warnings = append(warnings, err.Error())
	}
	s.cfg, s.enc, s.client, s.state = cfg, enc, features, stateRunning
	s.roots = workspaceRoots(p)
	if len(s.roots) > 0 {
		s.indexes = openIndexes(s.roots, s.opts.Index, s.log)
	}
	s.mu.Unlock()

	s.reportSettings(ctx, before, cfg, warnings)
	s.startModels(cfg)

	sync := protocol.TextDocumentSyncKindIncremental
	yes, no := true, false
	var list *protocol.CompletionOptions
	if !inlineClient(p) {
		// No trigger characters: they would make Helix ask every server
		// after each one. resolveProvider false: accepting never blocks.
		list = &protocol.CompletionOptions{ResolveProvider: &no}
	}
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding: protocol.PositionEncodingKind(enc.String()),
			TextDocumentSync: &protocol.TextDocumentSyncOptions{OpenClose: &yes, Change: &sync, Save: &protocol.SaveOptions{}},
			// lsp-mode sends "inlineCompletion": null yet asks; always offer.
			InlineCompletionProvider: &protocol.InlineCompletionOptions{},
			CompletionProvider:       list,
			CodeActionProvider: &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{
				protocol.CodeActionKindQuickFix, protocol.CodeActionKindRefactorRewrite}},
			ExecuteCommandProvider: protocol.ExecuteCommandOptions{Commands: []string{CommandQuickEdit, CommandNextEditAccepted}},
			Experimental:           nextEditCapability(nextEditsOn(cfg)),
		},
		ServerInfo: protocol.ServerInfo{Name: "wisp", Version: protocol.NewOptional(Version)},
	}, nil
}

// inlineClient reports whether the client says it shows inline
// completions (VS Code, Neovim 0.12). Such a client gets the suggestion as
// ghost text only: offered as a completion item too, it opens a list
// while the user types, preselected, which Enter and Tab then take in
// place of a line break or of the ghost text. Clients without inline
// completion (Helix, eglot) get it as that item.
func inlineClient(p *protocol.InitializeParams) bool {
	td := p.Capabilities.TextDocument
	return td != nil && td.InlineCompletion != nil
}

// nextEditCapability is the experimental capability that names the
// next-edit methods (nextedit.go); no standard capability does. Both are
// served whatever it says, but only while next edits are on (nextEditsOn)
// do they suggest anything, so a client asks after each pause only when on
// is true. It tells the settings as of initialize: a client that lets
// next edits be turned on or off later restarts wisp (the VS Code
// extension does).
func nextEditCapability(on bool) protocol.LSPAny {
	return protocol.LSPAny(fmt.Sprintf(`{"copilotInlineEdit":%[1]t,"nextEdit":%[1]t}`, on))
}

// negotiateEncoding picks utf-8 when the client offers it (no conversion
// at all), else utf-16, the protocol's default; utf-32 only when it is all
// the client offers.
func negotiateEncoding(g *protocol.GeneralClientCapabilities) text.Encoding {
	if g == nil || len(g.PositionEncodings) == 0 {
		return text.UTF16
	}
	offered := g.PositionEncodings
	switch {
	case slices.Contains(offered, protocol.PositionEncodingKind("utf-8")):
		return text.UTF8
	case slices.Contains(offered, protocol.PositionEncodingKind("utf-16")):
		return text.UTF16
	case slices.Contains(offered, protocol.PositionEncodingKind("utf-32")):
		return text.UTF32
	}
	return text.UTF16
}

// startModels opens the completion and edit models for cfg, replacing any
// open ones, and warms the completion model's connection in the
// background so it is ready before the first keystroke. A model that
// cannot be opened is reported to the user once; completions then fail
// with that reason until the configuration changes.
func (s *Server) startModels(cfg config.Config) {
	s.mu.Lock()
	ctx := s.life // the models outlive the request that opened them
	s.mu.Unlock()
	model, err := s.opts.OpenModel(ctx, cfg.Model)
	if err != nil {
		s.showOnce(ctx, protocol.MessageTypeError, fmt.Sprintf("wisp: cannot use the %s model: %v", cfg.Model.Provider, err))
		model = transport.Unavailable(err)
	}
	editModel := model
	if em := cfg.EditModel(); em != cfg.Model {
		if editModel, err = s.opts.OpenModel(ctx, em); err != nil {
			s.showOnce(ctx, protocol.MessageTypeError, fmt.Sprintf("wisp: cannot use the %s edit model: %v", em.Provider, err))
			editModel = transport.Unavailable(err)
		}
	}
	opts := completion.Options{
		Model:  model,
		Config: cfg.Completion,
		Log:    s.log,
		Status: func(state, msg string) { s.setStatus(ctx, state, msg) },
	}
	if w := s.currentIndexes(); w != nil {
		opts.Workspace = w // never a nil *workspaceIndexes in the interface
	}
	engine := completion.NewEngine(opts)

	s.mu.Lock()
	oldEngine, oldModel, oldEdit := s.engine, s.model, s.editModel
	s.engine, s.model, s.editModel = engine, model, editModel
	s.mu.Unlock()
	if oldEngine != nil {
		oldEngine.Close()
	}
	for _, m := range []transport.Model{oldModel, oldEdit} {
		if m != nil && m != model && m != editModel {
			m.Close()
		}
	}
	// A model that learns from the open buffers learns the ones already open.
	if o, ok := model.(transport.Observer); ok {
		for _, snap := range s.docs.all("") {
			o.Observe(snap.Path, snap.Text.String())
			snap.Release()
		}
	}
	if ix, ok := model.(transport.Indexer); ok {
		s.mu.Lock()
		roots := s.roots
		s.mu.Unlock()
		for _, root := range roots {
			go func() {
				// Bounded: the index lives in the server's memory, and a
				// client rooted at a home folder must not make it huge.
				if err := ix.IndexDir(ctx, root, 500, 8<<20); err != nil && ctx.Err() == nil {
					s.log.Warn("indexing the workspace failed", zap.String("root", root), zap.Error(err))
				}
			}()
		}
	}
	if w, ok := model.(transport.Warmer); ok {
		go func() {
			if err := w.Warm(ctx); err != nil && ctx.Err() == nil {
				// The model's state, told once as a generation's failure
				// would be; its first answer tells the recovery.
				engine.Unavailable(fmt.Errorf("connecting: %w", err))
			}
		}()
	}
}

// statusParams are the params of wisp/status.
type statusParams struct {
	State   string `json:"state"`
	Message string `json:"message,omitempty"`
}

// initialized registers the file watcher when the client allows it: a
// server may not send requests before this notification.
func (s *Server) initialized(ctx context.Context, p *protocol.InitializedParams) error {
	s.mu.Lock()
	watch, life := s.client.watchFiles && s.indexes != nil && s.indexes.anyRoot(), s.life
	s.mu.Unlock()
	if watch {
		go s.registerWatcher(life) // off the read loop, which delivers the answer
	}
	return nil
}

func (s *Server) shutdown(ctx context.Context, _ jsonrpc2.RawMessage) (any, error) {
	s.mu.Lock()
	s.state = stateShutdown
	s.mu.Unlock()
	s.teardown()
	return nil, nil
}

// exit tells Serve to stop; Serve then returns the exit code. Stopping is
// not done here, on the read loop, because it waits for the loop to end.
func (s *Server) exit(ctx context.Context, _ jsonrpc2.RawMessage) (any, error) {
	s.exitOnce.Do(func() { close(s.exited) })
	return nil, nil
}

func (s *Server) didChangeConfiguration(ctx context.Context, p *protocol.DidChangeConfigurationParams) error {
	s.mu.Lock()
	old := s.cfg
	next, warnings, err := old.Merge(p.Settings, config.SourceDidChange)
	if err == nil {
		s.cfg = next
	}
	s.mu.Unlock()
	if err != nil {
		return err
	}
	s.reportSettings(ctx, old, next, warnings)
	if next.Model != old.Model || next.EditModel() != old.EditModel() || next.Completion != old.Completion {
		s.startModels(next)
	}
	return nil
}

// showOnce tells the user something through window/showMessage, once per
// distinct message per session, and logs it.
func (s *Server) showOnce(ctx context.Context, kind protocol.MessageType, msg string) {
	s.showOnceAs(ctx, msg, kind, msg)
}

// show tells the user something through window/showMessage every time,
// and logs it: the outcome of a command the user ran, which they expect
// to hear of each time they run it.
func (s *Server) show(ctx context.Context, kind protocol.MessageType, msg string) {
	s.log.Info("user message", zap.String("message", msg))
	s.notify(ctx, protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: kind, Message: msg})
}

// workspaceRoots returns the file paths of the client's workspace folders,
// or of its root URI.
func workspaceRoots(p *protocol.InitializeParams) []string {
	var roots []string
	if folders, ok := p.WorkspaceFolders.Get(); ok {
		for _, f := range folders {
			if f.URI.IsFile() {
				roots = append(roots, f.URI.FsPath())
			}
		}
	}
	//lint:ignore SA1019 a client without workspace folders sends only its root URI
	if root := p.RootURI; len(roots) == 0 && root != nil && root.IsFile() {
		roots = append(roots, root.FsPath())
	}
	return roots
}

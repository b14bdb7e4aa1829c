package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/wisp-lsp/wisp/completion"
)

// Requests that let tests, benchmarks and tools look inside the server.

// documentParams names a document for wisp/document.
type documentParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
}

// documentState is what wisp/document answers: the server's view of a
// document, which must always equal the client's.
type documentState struct {
	Version  int32  `json:"version"`
	Text     string `json:"text"`
	Language string `json:"language,omitempty"`
	Tree     string `json:"tree,omitempty"`
	// OutOfSync: the server no longer knows the client's text.
	OutOfSync bool `json:"outOfSync,omitempty"`
}

// document answers wisp/document.
func (s *Server) document(ctx context.Context, p *documentParams) (any, error) {
	snap, err := s.snapshotFor(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	defer snap.Release()
	st := documentState{Version: snap.Version, Text: snap.Text.String(), OutOfSync: snap.OutOfSync}
	if snap.Tree != nil {
		st.Language = snap.Tree.Language().Name()
		st.Tree = snap.Tree.String()
	}
	return st, nil
}

type statsParams struct{}

// stats answers wisp/stats with the completion engine's counters.
func (s *Server) stats(ctx context.Context, _ *statsParams) (any, error) {
	s.mu.Lock()
	engine := s.engine
	s.mu.Unlock()
	if engine == nil {
		return completion.Stats{}, nil
	}
	return engine.Stats(), nil
}

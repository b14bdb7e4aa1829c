package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/nextedit"
	"github.com/wisp-lsp/wisp/workspace"
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

// indexState is one workspace folder's index, as wisp/index answers it.
type indexState struct {
	Root  string          `json:"root"`
	Stats workspace.Stats `json:"stats"`
	// BuildMs is Stats.Build in milliseconds.
	BuildMs float64 `json:"buildMs"`
}

// index answers wisp/index with each workspace folder's index figures.
func (s *Server) index(ctx context.Context, _ *statsParams) (any, error) {
	out := []indexState{}
	if w := s.currentIndexes(); w != nil {
		for _, ix := range w.list {
			st := ix.Stats()
			out = append(out, indexState{Root: ix.Root(), Stats: st, BuildMs: float64(st.Build.Microseconds()) / 1000})
		}
	}
	return out, nil
}

// serverStats is what wisp/stats answers: the completion engine's
// counters, with the next-edit counters under "nextEdit".
type serverStats struct {
	completion.Stats `json:",inline"`
	NextEdit         nextedit.Stats `json:"nextEdit"`
}

// stats answers wisp/stats.
func (s *Server) stats(ctx context.Context, _ *statsParams) (any, error) {
	out := serverStats{NextEdit: s.next.counters.Stats()}
	if engine := s.currentEngine(); engine != nil {
		out.Stats = engine.Stats()
	}
	return out, nil
}

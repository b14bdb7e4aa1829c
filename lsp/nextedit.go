package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/edits"
	"github.com/wisp-lsp/wisp/nextedit"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// Next-edit suggestions (DESIGN.md, LSP surface): the method existing
// next-edit clients call, its notification, wisp's alias, and the command
// a client runs when it applies one.
const (
	MethodCopilotInlineEdit = "textDocument/copilotInlineEdit"
	MethodDidShowInlineEdit = "textDocument/didShowInlineEdit"
	MethodNextEdit          = "wisp/nextEdit"
	// CommandNextEditAccepted is each suggested edit's command: the
	// client runs it, with the suggestion's id, after applying the edit.
	CommandNextEditAccepted = "wisp.nextEdit.accepted"
)

// inlineEditParams are the params of both next-edit methods.
type inlineEditParams struct {
	TextDocument struct {
		URI uri.URI `json:"uri"`
		// Version, when given, is the version the client asks about; a
		// request for an older version is answered with no edits.
		Version *int32 `json:"version"`
	} `json:"textDocument"`
	Position protocol.Position `json:"position"`
}

// inlineEditList is the result of both next-edit methods; an empty Edits
// means nothing follows.
type inlineEditList struct {
	Edits []inlineEdit `json:"edits"`
}

// inlineEdit is one suggested edit, for the document version it names.
type inlineEdit struct {
	Text         string            `json:"text"`
	Range        protocol.Range    `json:"range"`
	TextDocument versionedDocument `json:"textDocument"`
	Command      *protocol.Command `json:"command,omitempty"`
}

type versionedDocument struct {
	URI     uri.URI `json:"uri"`
	Version int32   `json:"version"`
}

// didShowParams are the params of textDocument/didShowInlineEdit: the
// shown edit, or at least its command, whose first argument is the id.
type didShowParams struct {
	Item struct {
		Command *struct {
			Arguments []any `json:"arguments"`
		} `json:"command"`
	} `json:"item"`
}

// copilotInlineEdit answers textDocument/copilotInlineEdit with at most
// one edit, the smallest one covering the minimal edits: the clients
// written for this method show and apply only the first.
func (s *Server) copilotInlineEdit(ctx context.Context, p *inlineEditParams) (any, error) {
	return s.nextEdit(ctx, p, true)
}

// wispNextEdit answers wisp/nextEdit: the same params and result, with
// each minimal edit on its own.
func (s *Server) wispNextEdit(ctx context.Context, p *inlineEditParams) (any, error) {
	return s.nextEdit(ctx, p, false)
}

func (s *Server) nextEdit(ctx context.Context, p *inlineEditParams, merge bool) (any, error) {
	s.next.counters.Ask()
	snap, err := s.snapshotFor(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	defer snap.Release()
	empty := &inlineEditList{Edits: []inlineEdit{}}
	s.mu.Lock()
	cfg, on, model := s.cfg.NextEdit, nextEditsOn(s.cfg), s.model
	s.mu.Unlock()
	if !on || model == nil || ctx.Err() != nil {
		return empty, nil
	}
	if v := p.TextDocument.Version; v != nil && *v != snap.Version {
		return empty, nil // asked about a version the document has left
	}
	if _, ok := s.next.current(snap.URI, snap.Version); ok {
		return s.answerNext(snap.URI, merge)
	}
	at, err := s.cursorOf(snap, p.Position)
	if err != nil {
		return nil, err
	}
	// The request and its registration are made on the ordered loop, so
	// every later didChange is seen by the prediction.
	_, hunks, _ := s.next.lastEdit(snap.URI)
	req, region := nextedit.BuildRequest(s.nextQuery(snap, at, hunks, cfg.Aggressiveness))
	gctx, gen, wait := s.next.begin(ctx, snap.URI, snap.Version, snap.Version, region)
	jsonrpc2.Async(ctx)
	switch {
	case gen != nil:
		s.predictNext(gctx, snap.URI, gen, model, req, region)
	case wait != nil:
		select {
		case <-wait.done:
		case <-ctx.Done():
			return empty, nil
		}
	}
	return s.answerNext(snap.URI, merge)
}

// nextEditsOn reports whether cfg asks for next edits from a model that
// can make them: a fill-in-the-middle endpoint cannot rewrite a region.
func nextEditsOn(cfg config.Config) bool {
	return cfg.NextEdit.Enabled && cfg.Model.Provider != config.ProviderFIM
}

// nextQuery is the next-edit query for snap around at.
func (s *Server) nextQuery(snap *Snapshot, at int, hunks []nextedit.Hunk, aggressiveness string) nextedit.Query {
	q := nextedit.Query{
		Path: snap.Path, LanguageID: snap.LanguageID, Text: snap.Text, Tree: snap.Tree,
		At: at, History: hunks, Radius: nextedit.RadiusFor(aggressiveness), Jump: nextedit.JumpFor(aggressiveness),
	}
	if w := s.currentIndexes(); w != nil {
		q.Definitions = w
	}
	return q
}

// predictNext runs prediction gen and keeps its suggestion.
func (s *Server) predictNext(ctx context.Context, u uri.URI, gen *nextGen, model transport.Model, req transport.Request, region edits.Region) {
	sugg, err := nextedit.Ask(ctx, model, req, region)
	if err != nil && !transport.IsCancelled(err) && ctx.Err() == nil {
		s.log.Debug("no next edit", zap.String("uri", string(u)), zap.Error(err))
	}
	current, _ := s.docs.version(u)
	s.next.finish(u, gen, sugg.Edits, err, current)
}

// answerNext converts u's current suggestion for the LSP.
func (s *Server) answerNext(u uri.URI, merge bool) (any, error) {
	empty := &inlineEditList{Edits: []inlineEdit{}}
	cur, err := s.docs.snapshot(u)
	if err != nil {
		return empty, nil
	}
	defer cur.Release()
	sg, ok := s.next.current(u, cur.Version)
	if !ok {
		return empty, nil
	}
	es := sg.edits
	if merge && len(es) > 1 {
		first, last := es[0].Start, es[len(es)-1].End
		covered, err := edits.Apply(cur.Text.String()[first:last], edits.Shift(es, -first))
		if err != nil {
			return nil, fmt.Errorf("next edit: %w", err)
		}
		es = []edits.Edit{{Start: first, End: last, Text: covered}}
	}
	enc := s.encoding()
	out := make([]inlineEdit, 0, len(es))
	for _, e := range es {
		r, err := rangeOf(cur.Text, e.Start, e.End, enc)
		if err != nil {
			return nil, fmt.Errorf("next edit range: %w", err)
		}
		out = append(out, inlineEdit{Text: e.Text, Range: r,
			TextDocument: versionedDocument{URI: u, Version: cur.Version}, Command: acceptCommand(sg.id)})
	}
	return &inlineEditList{Edits: out}, nil
}

func acceptCommand(id string) *protocol.Command {
	arg, _ := json.Marshal(id)
	return &protocol.Command{Title: "Accept the next edit", Command: CommandNextEditAccepted, Arguments: []protocol.LSPAny{arg}}
}

// didShowInlineEdit counts a suggestion shown.
func (s *Server) didShowInlineEdit(ctx context.Context, p *didShowParams) error {
	if c := p.Item.Command; c != nil && len(c.Arguments) > 0 {
		if id, ok := c.Arguments[0].(string); ok {
			s.next.shown(id)
		}
	}
	return nil
}

// nextEditAccepted serves the accept command.
func (s *Server) nextEditAccepted(p *protocol.ExecuteCommandParams) (any, error) {
	var id string
	if len(p.Arguments) != 1 || json.Unmarshal(p.Arguments[0], &id) != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, CommandNextEditAccepted+" takes one argument: the suggestion's id")
	}
	s.next.accepted(id)
	return nil, nil
}

// nextEditDidChange is didChange's part for next edits: it records the
// change and, when next edits are on, asks after a pause in typing, so a
// client without a next-edit method finds the suggestion as a code action.
func (s *Server) nextEditDidChange(u uri.URI, version int32, before, after *text.Text, changes []text.Edit) {
	s.mu.Lock()
	cfg, on, life := s.cfg.NextEdit, nextEditsOn(s.cfg), s.life
	s.mu.Unlock()
	if !on {
		return
	}
	s.next.didChange(u, version, before, after, changes, cfg.MinPause, func() { s.predictAfterPause(life, u, cfg.Aggressiveness) })
}

// predictAfterPause predicts the next edit of u at its latest edit, off
// the read loop, when typing has paused.
func (s *Server) predictAfterPause(ctx context.Context, u uri.URI, aggressiveness string) {
	model := s.currentModel()
	snap, err := s.docs.snapshot(u)
	if err != nil || model == nil {
		return
	}
	defer snap.Release()
	at, hunks, ok := s.next.lastEdit(u)
	if !ok || at > snap.Text.Len() {
		return
	}
	req, region := nextedit.BuildRequest(s.nextQuery(snap, at, hunks, aggressiveness))
	current, _ := s.docs.version(u)
	gctx, gen, _ := s.next.begin(ctx, u, snap.Version, current, region)
	if gen != nil {
		s.predictNext(gctx, u, gen, model, req, region)
	}
}

// nextEditActions offers the current suggestion as a code action, the
// fallback every client has: its edit applies it, its command counts it.
func (s *Server) nextEditActions(snap *Snapshot) []protocol.CodeAction {
	sg, ok := s.next.current(snap.URI, snap.Version)
	if !ok {
		return nil
	}
	enc := s.encoding()
	textEdits := make([]protocol.TextEdit, 0, len(sg.edits))
	for _, e := range sg.edits {
		r, err := rangeOf(snap.Text, e.Start, e.End, enc)
		if err != nil {
			return nil
		}
		textEdits = append(textEdits, protocol.TextEdit{Range: r, NewText: e.Text})
	}
	s.mu.Lock()
	client := s.client
	s.mu.Unlock()
	s.next.shown(sg.id)
	kind := protocol.CodeActionKindQuickFix
	we := versionedWorkspaceEdit(client, snap.URI, snap.Version, textEdits)
	return []protocol.CodeAction{{Title: "wisp: apply suggested edit", Kind: &kind, Edit: &we, Command: *acceptCommand(sg.id)}}
}

package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

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

// nextEdits is the server's next-edit state: each document's recent
// edits, the prediction in flight and the suggestion for its current
// version. Its methods are safe for concurrent use.
type nextEdits struct {
	counters nextedit.Counters

	mu   sync.Mutex // guards the fields below and every nextDoc
	docs map[uri.URI]*nextDoc
	ids  int // numbers suggestions
	// outcome remembers how recent suggestions ended ("accepted",
	// "dismissed"), by id, so a client's accept command that comes after
	// its edit was seen as typing is counted once, as accepted.
	outcome map[string]string
	closed  bool
}

// nextDoc is one document's next-edit state.
type nextDoc struct {
	history *nextedit.History // never nil
	// gen is the prediction in flight; nil when none.
	gen *nextGen
	// sugg is the suggestion, its edits kept against the document's
	// current version; nil when there is none.
	sugg *nextSugg
	// timer asks in the background after a pause in typing; nil when
	// none is pending.
	timer *time.Timer
	// silent is the version a prediction found nothing follows for, so
	// it is not asked again; 0 when none.
	silent int32
}

// nextGen is one prediction in flight.
type nextGen struct {
	version int32        // the version it was asked for
	region  edits.Region // the region it rewrites, in the current text
	cancel  context.CancelFunc
	// changes are the changes made since version, in order.
	changes []text.Edit
	// diverged is set when a change touched region; the generation was
	// then cancelled.
	diverged bool
	done     chan struct{} // closed when the prediction ended
}

// nextSugg is a suggested next edit.
type nextSugg struct {
	id      string
	version int32        // the version edits are against
	edits   []edits.Edit // minimal, sorted, non-empty
	shown   bool
}

func newNextEdits() *nextEdits {
	return &nextEdits{docs: map[uri.URI]*nextDoc{}, outcome: map[string]string{}}
}

func (n *nextEdits) docLocked(u uri.URI) *nextDoc {
	d := n.docs[u]
	if d == nil {
		d = &nextDoc{history: nextedit.NewHistory()}
		n.docs[u] = d
	}
	return d
}

// didChange records a change of u (now at version) from before to after.
// ask is called once typing has paused for pause (when positive), or at
// once when the change applied the suggestion. A prediction whose region the change touches is cancelled at the model
// (the user diverged from it); the suggestion is rebased over the change,
// counted accepted when the change is exactly it, and dropped (dismissed,
// if shown) when the change conflicts with it.
func (n *nextEdits) didChange(u uri.URI, version int32, before, after *text.Text, changes []text.Edit, pause time.Duration, ask func()) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return
	}
	d := n.docLocked(u)
	d.history.Record(before, after, changes)
	if g := d.gen; g != nil && !g.diverged {
		for _, c := range changes {
			if c.Start <= g.region.End && c.OldEnd >= g.region.Start {
				g.diverged = true
				g.cancel()
				n.counters.Cancel()
				break
			}
			if c.OldEnd < g.region.Start {
				delta := c.NewEnd - c.OldEnd
				g.region.Start += delta
				g.region.End += delta
			}
		}
		g.changes = append(g.changes, changes...)
	}
	accepted := false
	if sg := d.sugg; sg != nil {
		if appliesExactly(before, after, sg.edits) {
			n.endLocked(sg, "accepted")
			d.sugg, accepted = nil, true
		} else if rebased, err := edits.Rebase(sg.edits, changes); err != nil {
			if sg.shown {
				n.endLocked(sg, "dismissed")
			}
			d.sugg = nil
		} else {
			sg.edits, sg.version = rebased, version
		}
	}
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	if accepted && ask != nil {
		// Right after an accepted suggestion: the next one may follow.
		d.timer = time.AfterFunc(0, ask)
	} else if pause > 0 && ask != nil {
		d.timer = time.AfterFunc(pause, ask)
	}
}

// appliesExactly reports whether after is before with es applied.
func appliesExactly(before, after *text.Text, es []edits.Edit) bool {
	delta := 0
	for _, e := range es {
		delta += len(e.Text) - (e.End - e.Start)
	}
	if after.Len()-before.Len() != delta {
		return false // most keystrokes: no need to build the text
	}
	applied, err := edits.Apply(before.String(), es)
	return err == nil && applied == after.String()
}

// endLocked counts how a suggestion ended and remembers it.
func (n *nextEdits) endLocked(sg *nextSugg, how string) {
	if len(n.outcome) > 256 {
		n.outcome = map[string]string{}
	}
	switch how {
	case "accepted":
		n.counters.Accept()
	case "dismissed":
		n.counters.Dismiss()
	}
	n.outcome[sg.id] = how
}

// accepted counts the client's accept command for suggestion id.
func (n *nextEdits) accepted(id string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch n.outcome[id] {
	case "accepted":
		return // its edit was already recognised as typed
	case "dismissed":
		n.counters.Undismiss()
	}
	n.counters.Accept()
	n.outcome[id] = "accepted"
	for _, d := range n.docs {
		if d.sugg != nil && d.sugg.id == id {
			d.sugg = nil
		}
	}
}

// shown marks suggestion id as shown, once.
func (n *nextEdits) shown(id string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, d := range n.docs {
		if sg := d.sugg; sg != nil && sg.id == id && !sg.shown {
			sg.shown = true
			n.counters.Show()
		}
	}
}

// begin registers a prediction of u at version for region. It returns
// nil and the prediction already in flight for that version, if any, to
// wait for; or nil, nil when the current suggestion is for version, or
// the document has moved past it.
func (n *nextEdits) begin(ctx context.Context, u uri.URI, version, current int32, region edits.Region) (context.Context, *nextGen, *nextGen) {
	n.mu.Lock()
	defer n.mu.Unlock()
	d := n.docLocked(u)
	if n.closed || version != current || d.silent == version || (d.sugg != nil && d.sugg.version == version) {
		return ctx, nil, nil
	}
	if g := d.gen; g != nil && !g.diverged && g.version == version {
		return ctx, nil, g
	}
	if g := d.gen; g != nil {
		g.cancel() // asked for an older version
	}
	ctx, cancel := context.WithCancel(ctx)
	g := &nextGen{version: version, region: region, cancel: cancel, done: make(chan struct{})}
	d.gen = g
	n.counters.Request()
	return ctx, g, nil
}

// finish ends prediction g of u with its suggestion: the edits, against
// g's version, are rebased over the changes made since and kept as u's
// suggestion; a conflict drops them. A failed or cancelled prediction
// (err) leaves no suggestion and counts as no answer.
func (n *nextEdits) finish(u uri.URI, g *nextGen, es []edits.Edit, err error, current int32) {
	n.mu.Lock()
	defer n.mu.Unlock()
	defer close(g.done)
	g.cancel()
	d := n.docLocked(u)
	if d.gen == g {
		d.gen = nil
	}
	if g.diverged || n.closed || err != nil {
		return
	}
	if len(es) == 0 {
		n.counters.Silence()
		if len(g.changes) == 0 {
			d.silent = g.version
		}
		return
	}
	rebased, err := edits.Rebase(es, g.changes)
	if err != nil {
		n.counters.Drop()
		return
	}
	n.counters.Suggest()
	n.ids++
	d.sugg = &nextSugg{id: strconv.Itoa(n.ids), version: current, edits: rebased}
}

// current returns a copy of u's suggestion for version, if any.
func (n *nextEdits) current(u uri.URI, version int32) (nextSugg, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if d := n.docs[u]; d != nil && d.sugg != nil && d.sugg.version == version {
		return *d.sugg, true
	}
	return nextSugg{}, false
}

// lastEdit returns where u's latest edit ended and its recent edits.
func (n *nextEdits) lastEdit(u uri.URI) (int, []nextedit.Hunk, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	d := n.docs[u]
	if d == nil {
		return 0, nil, false
	}
	off, ok := d.history.Last()
	return off, d.history.Hunks(), ok
}

// forget drops u's state (didClose).
func (n *nextEdits) forget(u uri.URI) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if d := n.docs[u]; d != nil {
		if d.gen != nil {
			d.gen.cancel()
		}
		if d.timer != nil {
			d.timer.Stop()
		}
		delete(n.docs, u)
	}
}

// close cancels every prediction and pending pause; nothing starts after.
func (n *nextEdits) close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.closed = true
	for u := range n.docs {
		d := n.docs[u]
		if d.gen != nil {
			d.gen.cancel()
		}
		if d.timer != nil {
			d.timer.Stop()
		}
	}
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

// versionedWorkspaceEdit puts edits of u at version in a workspace edit,
// versioned when the client takes document changes.
func versionedWorkspaceEdit(client clientFeatures, u uri.URI, version int32, textEdits []protocol.TextEdit) protocol.WorkspaceEdit {
	if !client.documentChanges {
		return protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{u: textEdits}}
	}
	elems := make([]protocol.TextDocumentEditElement, 0, len(textEdits))
	for i := range textEdits {
		elems = append(elems, &textEdits[i])
	}
	return protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{&protocol.TextDocumentEdit{
		TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
			TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u},
			Version:                &version,
		},
		Edits: elems,
	}}}
}

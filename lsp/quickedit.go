package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/edits"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// quickEditArgs is the single argument of the wisp.quickEdit command.
type quickEditArgs struct {
	TextDocument struct {
		URI     uri.URI `json:"uri"`
		Version *int32  `json:"version"`
	} `json:"textDocument"`
	Range       protocol.Range `json:"range"`
	Instruction string         `json:"instruction"`
}

func (s *Server) executeCommand(ctx context.Context, p *protocol.ExecuteCommandParams) (any, error) {
	if p.Command == CommandNextEditAccepted {
		return s.nextEditAccepted(p)
	}
	if p.Command != CommandQuickEdit {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "unknown command "+p.Command)
	}
	if len(p.Arguments) != 1 {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "wisp.quickEdit takes one argument: {textDocument, range, instruction}")
	}
	var args quickEditArgs
	if err := json.Unmarshal(p.Arguments[0], &args); err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "wisp.quickEdit argument: "+err.Error())
	}
	if args.Instruction == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "wisp.quickEdit needs an instruction")
	}
	snap, err := s.snapshotFor(args.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	defer snap.Release()
	if snap.OutOfSync {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams,
			fmt.Sprintf("wisp.quickEdit: %s is out of sync with the editor; reopen it", snap.URI))
	}
	if v := args.TextDocument.Version; v != nil && *v != snap.Version {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams,
			fmt.Sprintf("wisp.quickEdit was asked for version %d of %s, which is now at version %d", *v, snap.URI, snap.Version))
	}
	start, end, err := snap.Text.Span(fromRange(args.Range), s.encoding())
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "wisp.quickEdit range: "+err.Error())
	}
	region, err := edits.Scope(snap.Text, snap.Tree, start, end)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	// Steering: a new edit of the same region stops the old one at the
	// model. Recording changes starts before the read loop is released,
	// so no didChange can slip between the snapshot and the record.
	ctx, job := s.edits.begin(ctx, snap.URI, snap.Version, region)
	defer s.edits.end(job)
	jsonrpc2.Async(ctx)

	s.mu.Lock()
	model, client := s.editModel, s.client
	s.mu.Unlock()
	progress := s.startProgress(ctx, job, p.WorkDoneToken, client, "wisp: quick edit")
	received := 0
	lastReport := time.Now()
	diff, err := edits.Rewrite(ctx, model, edits.Quick{
		Doc: snap.Text, Tree: snap.Tree, Region: region,
		Instruction: args.Instruction, Path: snap.Path, Language: snap.LanguageID,
		OnDelta: func(delta string) {
			received += len(delta)
			if time.Since(lastReport) > 50*time.Millisecond {
				lastReport = time.Now()
				progress.report(fmt.Sprintf("%d bytes received", received))
			}
		},
	})
	switch {
	case errors.Is(err, edits.ErrNotCode):
		progress.end("done")
		s.show(ctx, protocol.MessageTypeError, "wisp: "+err.Error())
		return nil, nil
	case err != nil && (transport.IsCancelled(err) || ctx.Err() != nil):
		progress.end("cancelled")
		return nil, nil
	case err != nil:
		progress.end("failed")
		s.show(ctx, protocol.MessageTypeError, "wisp: quick edit failed: "+err.Error())
		return nil, err
	}
	progress.end("done")
	return nil, s.applyQuickEdit(ctx, snap, diff, job, client)
}

// applyQuickEdit rebases a quick edit's minimal edits of snap over what
// the user typed meanwhile, and sends them to the client.
func (s *Server) applyQuickEdit(ctx context.Context, snap *Snapshot, diff []edits.Edit, job *editJob, client clientFeatures) error {
	if len(diff) == 0 {
		s.show(ctx, protocol.MessageTypeInfo, "wisp: the quick edit changed nothing")
		return nil
	}
	cur, err := s.docs.snapshot(snap.URI)
	if err != nil {
		return err
	}
	defer cur.Release()
	if cur.OutOfSync {
		s.show(ctx, protocol.MessageTypeWarning, "wisp: quick edit not applied: the document went out of sync with the editor")
		return nil
	}
	changes := s.edits.changesSince(job, cur.Version)
	rebased, err := edits.Rebase(diff, changes)
	if err != nil {
		s.show(ctx, protocol.MessageTypeError, "wisp: quick edit not applied: "+err.Error())
		return nil
	}
	enc := s.encoding()
	textEdits := make([]protocol.TextEdit, 0, len(rebased))
	for _, e := range rebased {
		r, err := rangeOf(cur.Text, e.Start, e.End, enc)
		if err != nil {
			return fmt.Errorf("quick edit range: %w", err)
		}
		textEdits = append(textEdits, protocol.TextEdit{Range: r, NewText: e.Text})
	}
	we := versionedWorkspaceEdit(client, cur.URI, cur.Version, textEdits)
	var result protocol.ApplyWorkspaceEditResult
	label := "wisp quick edit"
	if err := s.call(ctx, protocol.MethodWorkspaceApplyEdit, &protocol.ApplyWorkspaceEditParams{Label: &label, Edit: we}, &result); err != nil {
		return fmt.Errorf("workspace/applyEdit: %w", err)
	}
	if !result.Applied {
		reason := "the editor refused it"
		if result.FailureReason != nil && *result.FailureReason != "" {
			reason = *result.FailureReason
		}
		s.show(ctx, protocol.MessageTypeWarning, "wisp: quick edit not applied: "+reason)
	}
	return nil
}

// editJob is one quick edit in flight.
type editJob struct {
	uri     uri.URI
	version int32 // the version the edit was computed for
	region  edits.Region
	cancel  context.CancelFunc
	token   string // progress token, if any
	// changes are the edits made to the document since version, in order;
	// guarded by the tracker's mu.
	changes []versionedEdits
}

type versionedEdits struct {
	version int32
	edits   []text.Edit
}

// editTracker knows the quick edits in flight: it records the changes
// made to their documents (for rebasing), steers (a new edit of the same
// region cancels the old), and maps progress tokens to cancellation.
type editTracker struct {
	mu   sync.Mutex // guards jobs
	jobs map[*editJob]bool
}

func newEditTracker() *editTracker { return &editTracker{jobs: map[*editJob]bool{}} }

// begin registers a job and cancels any in flight whose region overlaps.
func (t *editTracker) begin(ctx context.Context, u uri.URI, version int32, region edits.Region) (context.Context, *editJob) {
	ctx, cancel := context.WithCancel(ctx)
	job := &editJob{uri: u, version: version, region: region, cancel: cancel}
	t.mu.Lock()
	defer t.mu.Unlock()
	for other := range t.jobs {
		if other.uri == u && other.region.Start < region.End && region.Start < other.region.End {
			other.cancel()
		}
	}
	t.jobs[job] = true
	return ctx, job
}

func (t *editTracker) end(job *editJob) {
	job.cancel()
	t.mu.Lock()
	delete(t.jobs, job)
	t.mu.Unlock()
}

// didChange records a change to u for every job on it.
func (t *editTracker) didChange(u uri.URI, version int32, e []text.Edit) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for job := range t.jobs {
		if job.uri == u {
			job.changes = append(job.changes, versionedEdits{version: version, edits: e})
		}
	}
}

// changesSince returns the edits made to job's document after its version
// up to and including version upTo.
func (t *editTracker) changesSince(job *editJob, upTo int32) []text.Edit {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []text.Edit
	for _, c := range job.changes {
		if c.version <= upTo {
			out = append(out, c.edits...)
		}
	}
	return out
}

// cancelToken cancels the job reporting progress under token.
func (t *editTracker) cancelToken(token string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for job := range t.jobs {
		if job.token != "" && job.token == token {
			job.cancel()
			return true
		}
	}
	return false
}

func (t *editTracker) cancelAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for job := range t.jobs {
		job.cancel()
	}
}

func (s *Server) workDoneProgressCancel(ctx context.Context, p *protocol.WorkDoneProgressCancelParams) error {
	token := tokenString(p.Token)
	if !s.edits.cancelToken(token) {
		s.log.Debug("progress cancel for an unknown token", zap.String("token", token))
	}
	return nil
}

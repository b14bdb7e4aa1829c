package lsp

import (
	"slices"

	"go.lsp.dev/uri"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/text"
)

// Starting on change (completion.startOnChange, for clients that opt in):
// VS Code asks for ghost text only about 50 ms after a keystroke, and its
// request then crosses the page and the extension host. When a change is
// shaped like typing, the cursor is where the typed text ends, so the
// generation a request there will want can start as the change arrives;
// the request joins it (completion.Engine.Anticipate).

// closedPairs are what an editor inserts when it closes a bracket or quote
// as it is typed.
var closedPairs = []string{"()", "[]", "{}", `""`, "''", "``"}

// typedCursor returns where the cursor is after a change made of edits, if
// the change is shaped like typing with one cursor: one insertion, with no
// text replaced. A pair of brackets or quotes inserted together (the
// editor closing what was typed) leaves the cursor between them.
func typedCursor(after *text.Text, edits []text.Edit) (int, bool) {
	if len(edits) != 1 {
		return 0, false
	}
	ed := edits[0]
	if ed.Start != ed.OldEnd || ed.NewEnd <= ed.Start {
		return 0, false
	}
	ins := after.String()[ed.Start:ed.NewEnd]
	if slices.Contains(closedPairs, ins) {
		return ed.NewEnd - 1, true
	}
	return ed.NewEnd, true
}

// startOnChange starts, for a client that opted in, the generation that
// the request after the change to version of u will want, if the change
// was shaped like typing. Called on the ordered loop right after the
// engine heard of the change; the snapshot and prompt are made off it.
func (s *Server) startOnChange(e *completion.Engine, u uri.URI, version int32, after *text.Text, edits []text.Edit) {
	s.mu.Lock()
	on := s.cfg.Completion.StartOnChange
	s.mu.Unlock()
	cursor, ok := typedCursor(after, edits)
	if !on || !ok {
		return
	}
	e.Anticipate(string(u), cursor, func() (completion.Query, func(), bool) {
		snap, err := s.docs.snapshot(u)
		if err != nil {
			return completion.Query{}, nil, false
		}
		if snap.Version != version || snap.OutOfSync {
			snap.Release()
			return completion.Query{}, nil, false
		}
		q, release := s.queryFor(snap, snap.Text, cursor)
		return q, func() {
			release()
			snap.Release()
		}, true
	})
}

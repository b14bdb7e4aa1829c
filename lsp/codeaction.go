package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/wisp-lsp/wisp/lang"
	"github.com/wisp-lsp/wisp/syntax"
)

// instructionComment finds a "wisp: do this" note in a comment.
var instructionComment = regexp.MustCompile(`(?://|#|--|/\*|;)\s*wisp:\s*(.+?)\s*(?:\*/)?\s*$`)

// codeAction offers quick edits. "Quick edit…" needs the client to supply
// the instruction, so it is offered only to clients that said they prompt
// for it (initializationOptions.quickEditPrompt); the others carry their
// instruction, for clients that cannot prompt (Helix).
func (s *Server) codeAction(ctx context.Context, p *protocol.CodeActionParams) (any, error) {
	snap, err := s.snapshotFor(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	defer snap.Release()
	if ctx.Err() != nil || snap.OutOfSync {
		return []protocol.CodeAction{}, nil
	}
	enc := s.encoding()
	start, end, err := snap.Text.Span(fromRange(p.Range), enc)
	if err != nil {
		return []protocol.CodeAction{}, nil // a stale range offers nothing
	}
	rewrite := protocol.CodeActionKindRefactorRewrite
	action := func(title, instruction string, r protocol.Range, kind protocol.CodeActionKind) protocol.CodeAction {
		args := map[string]any{
			"textDocument": map[string]any{"uri": snap.URI, "version": snap.Version},
			"range":        r,
		}
		if instruction != "" {
			args["instruction"] = instruction
		}
		raw, _ := json.Marshal(args)
		return protocol.CodeAction{Title: title, Kind: &kind,
			Command: protocol.Command{Title: title, Command: CommandQuickEdit, Arguments: []protocol.LSPAny{raw}}}
	}
	actions := s.nextEditActions(snap)
	s.mu.Lock()
	prompts := s.cfg.QuickEditPrompt
	s.mu.Unlock()
	if prompts {
		actions = append(actions, action("wisp: Quick edit…", "", p.Range, rewrite))
	}

	if len(p.Context.Diagnostics) > 0 {
		var b strings.Builder
		b.WriteString("Fix these problems, changing as little as possible:")
		for _, d := range p.Context.Diagnostics {
			fmt.Fprintf(&b, "\n- line %d: %s", d.Range.Start.Line+1, diagnosticText(d))
		}
		actions = append(actions, action("wisp: Fix the diagnostics here", b.String(), p.Range, protocol.CodeActionKindQuickFix))
	}
	if snap.Tree != nil {
		if sc, ok := snap.Tree.Enclosing(start, syntax.ScopeKind("function"), syntax.ScopeKind("method"), syntax.ScopeKind("class")); ok {
			l := lang.Detect(snap.LanguageID, snap.Path)
			if r, err := rangeOf(snap.Text, sc.Span.Start, sc.Span.End, enc); err == nil {
				if !documented(snap.Text, sc, l) {
					actions = append(actions, action("wisp: Add a doc comment to "+nameOr(sc.Name, string(sc.Kind)),
						"Add a documentation comment to this "+string(sc.Kind)+" in the language's usual style. Change nothing else.", r, rewrite))
				}
				if sc.Kind != "class" && unfinished(snap.Text, sc, l) {
					actions = append(actions, action("wisp: Complete the body of "+nameOr(sc.Name, string(sc.Kind)),
						"Complete the body of this "+string(sc.Kind)+" so it does what its name, signature and comments say. Keep the signature.", r, rewrite))
				}
			}
		}
	}
	if instr, ls, le, ok := findInstruction(snap, start, end); ok {
		if r, err := rangeOf(snap.Text, ls, le, enc); err == nil {
			actions = append(actions, action("wisp: "+instr,
				instr+"\nRemove the comment that asked for this (the one containing \"wisp:\").", r, rewrite))
		}
	}
	return actions, nil
}

// findInstruction looks for a wisp: comment on the lines of [start, end)
// and returns its instruction and the region it applies to: the enclosing
// function when there is one, else the selection's lines.
func findInstruction(snap *Snapshot, start, end int) (instr string, rs, re int, ok bool) {
	t := snap.Text
	first, last := t.LineOf(start), t.LineOf(end)
	for line := first; line <= last; line++ {
		m := instructionComment.FindStringSubmatch(t.Line(line))
		if m == nil {
			continue
		}
		rs, re = t.LineStart(first), t.LineEnd(last)
		if snap.Tree != nil {
			if sc, found := snap.Tree.Enclosing(t.LineStart(line), "function", "method", "class"); found {
				rs, re = sc.Span.Start, sc.Span.End
			}
		}
		return m[1], rs, re, true
	}
	return "", 0, 0, false
}

func diagnosticText(d protocol.Diagnostic) string {
	switch m := d.Message.(type) {
	case protocol.String:
		return string(m)
	case *protocol.MarkupContent:
		return m.Value
	}
	return ""
}

func nameOr(name, fallback string) string {
	if name != "" {
		return name
	}
	return "this " + fallback
}

package lsp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/completion/history"
	"github.com/wisp-lsp/wisp/text"
)

// partialParams are the params of wisp/inlineCompletionPartial, sent to
// clients that opted in with initializationOptions.streaming.
type partialParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Version      int32                           `json:"version"`
	Position     protocol.Position               `json:"position"`
	Text         string                          `json:"text"`
	Done         bool                            `json:"done"`
}

// suggestFor is the part of both completion handlers after the snapshot:
// it resolves the cursor, asks the engine, and drops an answer the
// document has since outgrown.
func (s *Server) suggestFor(ctx context.Context, snap *Snapshot, doc *text.Text, cursor int, budget bool, pos protocol.Position) (completion.Suggestion, error) {
	s.mu.Lock()
	engine, streaming, itemBudget := s.engine, s.cfg.Streaming, s.cfg.Completion.ItemBudget
	s.mu.Unlock()
	if engine == nil {
		return completion.Suggestion{}, errServerNotInitialized
	}
	if snap.OutOfSync {
		return completion.Suggestion{}, nil // the editor's text is not known
	}
	q, release := s.queryFor(snap, doc, cursor)
	defer release()
	if budget {
		// A completion item waits at most the item budget, and no longer
		// than the text stays as it was asked for (the follow asks again).
		q.Budget, q.Until = itemBudget, snap.Moved
	}
	if streaming {
		q.Partial = func(t string) {
			s.notify(ctx, "wisp/inlineCompletionPartial", partialParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: snap.URI}, Version: snap.Version, Position: pos, Text: t})
		}
	}
	sugg, err := engine.Suggest(ctx, q)
	if err != nil {
		// The model is unavailable (rate-limited, down, stalled) or the
		// engine was replaced: an empty answer, not an error on every
		// keystroke. The engine tells the state through wisp/status.
		s.log.Debug("no suggestion", zap.String("uri", string(snap.URI)), zap.Error(err))
		return completion.Suggestion{}, nil
	}
	if streaming && sugg.Text != "" {
		s.notify(ctx, "wisp/inlineCompletionPartial", partialParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: snap.URI}, Version: snap.Version, Position: pos, Text: sugg.Text, Done: true})
	}
	// Never answer for text that has changed since the request.
	if v, ok := s.docs.version(snap.URI); !ok || v != snap.Version {
		return completion.Suggestion{}, nil
	}
	return sugg, nil
}

// queryFor is the engine's query for cursor in doc, the text of snap or
// snap's text with a completion item applied. The release function frees
// the other documents' snapshots the query holds for context; the query
// must not be used after it.
func (s *Server) queryFor(snap *Snapshot, doc *text.Text, cursor int) (completion.Query, func()) {
	others := s.docs.context(snap.URI)
	q := completion.Query{
		URI: string(snap.URI), Path: snap.Path, LanguageID: snap.LanguageID,
		Text: doc, Tree: snap.Tree, Cursor: cursor,
		Others: buffersOf(others), History: s.history.Recent(history.DefaultSize),
	}
	if doc != snap.Text {
		q.Tree = nil // the selected completion item changed the text
	}
	return q, func() {
		for _, o := range others {
			o.Release()
		}
	}
}

func buffersOf(snaps []*Snapshot) []completion.Buffer {
	out := make([]completion.Buffer, 0, len(snaps))
	for _, o := range snaps {
		out = append(out, completion.Buffer{Path: o.Path, LanguageID: o.LanguageID, Text: o.Text, Index: o.Index})
	}
	return out
}

// cursorOf converts an LSP position to a byte offset, with a clear error
// for one past the end of the document.
func (s *Server) cursorOf(snap *Snapshot, pos protocol.Position) (int, error) {
	off, err := snap.Text.Offset(fromPosition(pos), s.encoding())
	if err != nil {
		return 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("position %d:%d in %s: %v", pos.Line, pos.Character, snap.URI, err))
	}
	return off, nil
}

func (s *Server) snapshotFor(u uri.URI) (*Snapshot, error) {
	snap, err := s.docs.snapshot(u)
	if errors.Is(err, ErrNotOpen) {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return snap, err
}

func (s *Server) inlineCompletion(ctx context.Context, p *protocol.InlineCompletionParams) (any, error) {
	snap, err := s.snapshotFor(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	defer snap.Release()
	jsonrpc2.Async(ctx)
	if ctx.Err() != nil {
		return emptyInline(), nil
	}
	cursor, err := s.cursorOf(snap, p.Position)
	if err != nil {
		return nil, err
	}
	enc := s.encoding()
	doc, start, selected := snap.Text, cursor, ""
	if info := p.Context.SelectedCompletionInfo; info.Text != "" {
		// The completion popup's selected item is part of the prefix: ask
		// as if it were accepted, and answer an item that includes it.
		rs, re, err := snap.Text.Span(fromRange(info.Range), enc)
		if err == nil && rs <= cursor && cursor <= re {
			if next, _, err := snap.Text.Replace(rs, re, info.Text); err == nil {
				doc, start, selected = next, rs, info.Text
				cursor = rs + len(info.Text)
			}
		}
	}
	sugg, err := s.suggestFor(ctx, snap, doc, cursor, false, p.Position)
	if err != nil {
		return nil, err
	}
	if sugg.Text == "" {
		return emptyInline(), nil
	}
	end := cursor
	if selected != "" {
		end, _ = snap.Text.Offset(fromPosition(p.Position), enc)
		if re, err := snap.Text.Offset(fromRange(p.Context.SelectedCompletionInfo.Range).End, enc); err == nil {
			end = re
		}
	}
	r, err := rangeOf(snap.Text, start, end, enc)
	if err != nil {
		return nil, err
	}
	return &protocol.InlineCompletionList{Items: []protocol.InlineCompletionItem{{
		InsertText: protocol.String(selected + sugg.Text),
		Range:      &r,
	}}}, nil
}

func emptyInline() *protocol.InlineCompletionList {
	return &protocol.InlineCompletionList{Items: []protocol.InlineCompletionItem{}}
}

// completion serves the suggestion as one completion item, for clients
// without inline completion. It never answers an empty incomplete list,
// which would hide other servers' items in Helix; when the model is slower
// than the budget it answers an empty complete list and lets the
// generation finish into the cache for the next request.
func (s *Server) completion(ctx context.Context, p *protocol.CompletionParams) (any, error) {
	snap, err := s.snapshotFor(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	defer snap.Release()
	jsonrpc2.Async(ctx)
	empty := &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	if ctx.Err() != nil {
		return empty, nil
	}
	cursor, err := s.cursorOf(snap, p.Position)
	if err != nil {
		return nil, err
	}
	sugg, typed, err := s.suggestFollowing(ctx, snap, cursor, p.Position)
	if err != nil || sugg.Pending || strings.TrimSpace(sugg.Text) == "" {
		return empty, err
	}
	// The item is for the text the request was sent for: the client
	// filters it by what was typed since, and replaces the word as it was.
	wordStart := wordBefore(snap.Text, cursor)
	word := snap.Text.String()[wordStart:cursor]
	r, err := rangeOf(snap.Text, wordStart, cursor, s.encoding())
	if err != nil {
		return nil, err
	}
	full := word + typed + sugg.Text
	return &protocol.CompletionList{
		// Incomplete with an item: ask again on each keystroke, which the
		// engine answers from the same stream (typed-ahead reuse).
		IsIncomplete: true,
		Items: []protocol.CompletionItem{{
			Label:            labelOf(full),
			Kind:             protocol.CompletionItemKindText,
			Detail:           protocol.NewOptional("wisp"),
			Documentation:    &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: "```" + snap.LanguageID + "\n" + full + "\n```"},
			FilterText:       protocol.NewOptional(full),
			SortText:         protocol.NewOptional("0"),
			Preselect:        protocol.NewOptional(true),
			InsertTextFormat: protocol.InsertTextFormatPlainText,
			TextEdit:         &protocol.TextEdit{Range: r, NewText: full},
		}},
	}, nil
}

// wordBefore returns where the identifier-like word ending at off starts.
func wordBefore(t *text.Text, off int) int {
	s := t.String()
	start := off
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:start])
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		start -= size
	}
	return start
}

// labelOf is a readable one-line label: the first non-blank line, cut
// short.
func labelOf(s string) string {
	line := strings.TrimSpace(s)
	if i := strings.IndexAny(line, "\r\n"); i >= 0 {
		line = strings.TrimSpace(line[:i]) + " …"
	}
	if utf8.RuneCountInString(line) > 60 {
		r := []rune(line)
		line = string(r[:59]) + "…"
	}
	return line
}

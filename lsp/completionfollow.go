package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/wisp-lsp/wisp/completion"
)

// maxFollow bounds how many times one completion request follows typing
// (each step waits at most the item budget, or until the next key).
const maxFollow = 16

// suggestFollowing is suggestFor for textDocument/completion: it answers
// for the text the user has when the answer is ready, not only for the
// text the request was sent for.
//
// Helix sends no new completion request while one is in flight: it keeps
// the keys typed meanwhile as the filter of the answer it awaits, and asks
// again only after the next key. An empty answer because the text moved
// on would leave the word the user just finished without a suggestion
// until another key. So while the document has only grown at the cursor
// since snap, wisp stops waiting for the old text's suggestion at each
// key and asks for the text as it is; typed is what was inserted at
// cursor since snap, to put in front of the suggestion. Any other change
// answers empty.
func (s *Server) suggestFollowing(ctx context.Context, snap *Snapshot, cursor int, pos protocol.Position) (sugg completion.Suggestion, typed string, err error) {
	cur := snap
	defer func() {
		if cur != snap {
			cur.Release()
		}
	}()
	for range maxFollow {
		// Each step waits until the document moves past cur; the
		// generation is kept for the next (completion.Query.Until).
		sugg, err = s.suggestFor(ctx, cur, cur.Text, cursor+len(typed), true, pos)
		if err != nil || ctx.Err() != nil {
			return completion.Suggestion{}, "", err
		}
		select {
		case <-cur.Moved:
		default:
			return sugg, typed, nil // cur is still the text (Moved also tells a desync or a resync)
		}
		s.changing.RLock()
		next, err := s.docs.snapshot(snap.URI)
		s.changing.RUnlock()
		if err != nil {
			return completion.Suggestion{}, "", nil // closed since
		}
		more, ok := insertedAt(snap, next, cursor)
		if cur != snap {
			cur.Release()
		}
		cur = next
		if !ok {
			return completion.Suggestion{}, "", nil
		}
		typed = more
		if p, err := next.Text.Position(cursor+len(typed), s.encoding()); err == nil {
			pos = toPosition(p)
		}
	}
	return completion.Suggestion{}, "", nil
}

// insertedAt returns the text inserted at cursor that turns then into
// now, on one line; ok is false when now differs from then in any other
// way.
func insertedAt(then, now *Snapshot, cursor int) (typed string, ok bool) {
	a, b := then.Text.String(), now.Text.String()
	n := len(b) - len(a)
	if n < 0 || !strings.HasPrefix(b, a[:cursor]) || b[cursor+n:] != a[cursor:] {
		return "", false
	}
	typed = b[cursor : cursor+n]
	return typed, !strings.ContainsAny(typed, "\r\n")
}

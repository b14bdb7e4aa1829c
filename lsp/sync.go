package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// Document synchronisation runs on the ordered read loop and never
// detaches: each change is applied before the next message is read.

func (s *Server) didOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	item := p.TextDocument
	d := s.docs.open(item.URI, string(item.LanguageID), item.Version, item.Text)
	if o, ok := s.currentModel().(transport.Observer); ok {
		o.Observe(d.path, item.Text)
	}
	return nil
}

func (s *Server) didChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	changes := make([]text.Change, 0, len(p.ContentChanges))
	for _, c := range p.ContentChanges {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangePartial:
			r := fromRange(c.Range)
			changes = append(changes, text.Change{Range: &r, Text: c.Text})
		case *protocol.TextDocumentContentChangeWholeDocument:
			changes = append(changes, text.Change{Text: c.Text})
		default:
			return fmt.Errorf("didChange %s: unknown content change %T", p.TextDocument.URI, c)
		}
	}
	u := p.TextDocument.URI
	before, after, edits, err := s.docs.change(u, p.TextDocument.Version, changes, s.encoding())
	if err != nil {
		// The document keeps its last good state; the client will resend
		// it in full on its next didOpen. Say so once.
		s.showOnce(ctx, protocol.MessageTypeWarning, "wisp ignored an edit it could not apply: "+err.Error())
		return err
	}
	if e := s.currentEngine(); e != nil {
		e.DidChange(string(u), before, after, edits)
	}
	s.edits.didChange(u, p.TextDocument.Version, edits)
	s.nextEditDidChange(u, p.TextDocument.Version, before, after, edits)
	if w := s.currentIndexes(); w != nil && u.IsFile() {
		w.edited(u, pathOf(u), after)
	}
	if o, ok := s.currentModel().(transport.Observer); ok {
		o.Observe(pathOf(u), after.String())
	}
	s.log.Debug("didChange", zap.String("uri", string(u)), zap.Int32("version", p.TextDocument.Version), zap.Int("edits", len(edits)))
	return nil
}

func (s *Server) didClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) error {
	u := p.TextDocument.URI
	s.docs.close(u)
	s.next.forget(u)
	if e := s.currentEngine(); e != nil {
		e.DidClose(string(u))
	}
	if o, ok := s.currentModel().(transport.Observer); ok {
		o.Forget(pathOf(u))
	}
	return nil
}

func (s *Server) currentEngine() *completion.Engine {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.engine
}

func (s *Server) currentModel() transport.Model {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.model
}

package lsp

import (
	"context"
	"errors"
	"fmt"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// Document synchronisation runs on the ordered read loop and never
// detaches: each change is applied before the next message is read.

func (s *Server) didOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	item := p.TextDocument
	d := s.docs.open(item.URI, string(item.LanguageID), item.Version, item.Text)
	if d.lang != nil {
		if err := syntax.CheckSize(d.text); err != nil {
			s.log.Info("document is used as plain text, without a syntax tree",
				zap.String("uri", string(item.URI)), zap.Error(err))
		}
	}
	if o, ok := s.currentModel().(transport.Observer); ok {
		o.Observe(d.path, item.Text)
	}
	return nil
}

// applyChange applies changes to the document and tells the engine, under
// s.changing, which a panic on the way releases too: held, it would stop
// every later change and request.
func (s *Server) applyChange(u uri.URI, version int32, changes []text.Change) (changed, error) {
	s.changing.Lock()
	defer s.changing.Unlock()
	res, err := s.docs.change(u, version, changes, s.encoding())
	if err == nil {
		if e := s.currentEngine(); e != nil {
			e.DidChange(string(u), res.before, res.after, res.edits)
		}
	}
	return res, err
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
	res, err := s.applyChange(u, p.TextDocument.Version, changes)
	switch {
	case errors.Is(err, ErrOutOfSync):
		s.log.Debug("didChange ignored", zap.Error(err))
		return nil
	case errors.Is(err, ErrNotOpen):
		return err
	case err != nil:
		s.desynced(ctx, u, err)
		return nil
	}
	s.history.Record(pathOf(u), res.before, res.after, res.edits)
	if e := s.currentEngine(); e != nil {
		s.startOnChange(e, u, p.TextDocument.Version, res.after, res.edits)
	}
	s.edits.didChange(u, p.TextDocument.Version, res.edits)
	s.nextEditDidChange(u, p.TextDocument.Version, res.before, res.after, res.edits)
	if w := s.currentIndexes(); w != nil && u.IsFile() {
		w.edited(u, pathOf(u), res.after)
	}
	if o, ok := s.currentModel().(transport.Observer); ok {
		o.Observe(pathOf(u), res.after.String())
	}
	if res.resynced {
		s.log.Info("document back in sync: the client sent its full text",
			zap.String("uri", string(u)), zap.Int32("version", p.TextDocument.Version))
	}
	s.log.Debug("didChange", zap.String("uri", string(u)), zap.Int32("version", p.TextDocument.Version), zap.Int("edits", len(res.edits)))
	return nil
}

// desynced reports that the document at u went out of sync because of
// err: one log line and one window/logMessage. Its generation stops; no
// suggestion or edit is made for it until the client sends the full text
// (a didChange without a range, or didClose and didOpen).
func (s *Server) desynced(ctx context.Context, u uri.URI, err error) {
	msg := fmt.Sprintf("wisp: %s is out of sync with the editor (%v); no suggestions for it until the editor sends its full text (reopen the file)", u, err)
	s.log.Warn("document out of sync", zap.String("uri", string(u)), zap.Error(err))
	if e := s.currentEngine(); e != nil {
		e.DidClose(string(u))
	}
	s.notify(ctx, protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: protocol.MessageTypeWarning, Message: msg})
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

package lsp

import (
	"context"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/config"
)

// reportSettings logs the warnings of merging the editor's settings and
// tells the user about each setting refused since before (see
// config.Refusal): once per setting per session, whatever its value or
// the layer that sent it, so a client that resends its settings does not
// repeat the message.
func (s *Server) reportSettings(ctx context.Context, before, after config.Config, warnings []string) {
	for _, w := range warnings {
		s.log.Warn("configuration", zap.String("warning", w))
	}
	refused := after.Refused()
	for _, r := range refused[min(len(before.Refused()), len(refused)):] {
		s.log.Warn("refused a setting from the editor", zap.String("key", r.Key),
			zap.String("value", r.Value), zap.String("source", r.Source))
		s.showOnceAs(ctx, "refused "+r.Key, protocol.MessageTypeWarning, r.String())
	}
}

// showOnceAs is showOnce with the message's identity given apart from its
// text: a second message with the same id is only logged.
func (s *Server) showOnceAs(ctx context.Context, id string, kind protocol.MessageType, msg string) {
	s.mu.Lock()
	seen := s.said[id]
	s.said[id] = true
	s.mu.Unlock()
	if seen {
		s.log.Info("user message", zap.String("message", msg))
		return
	}
	s.show(ctx, kind, msg)
}

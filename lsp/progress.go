package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// progress reports one job through $/progress; a nil token reports
// nothing (the client cannot show progress).
type progress struct {
	s     *Server
	ctx   context.Context
	token protocol.ProgressToken
}

var progressSeq atomic.Int64

// startProgress begins work-done progress for job: under the client's own
// token when the request carried one, else under one the server creates
// when the client supports that. The progress is cancellable through
// window/workDoneProgress/cancel. The caller must have released the read
// loop.
func (s *Server) startProgress(ctx context.Context, job *editJob, token protocol.ProgressToken, client clientFeatures, title string) *progress {
	p := &progress{s: s, ctx: ctx}
	if token == nil && client.workDone {
		created := protocol.String("wisp-" + strconv.FormatInt(progressSeq.Add(1), 10))
		if err := s.call(ctx, protocol.MethodWindowWorkDoneProgressCreate, &protocol.WorkDoneProgressCreateParams{Token: created}, nil); err != nil {
			s.log.Debug("progress create refused", zap.Error(err))
		} else {
			token = created
		}
	}
	if token == nil {
		return p
	}
	p.token = token
	s.edits.mu.Lock()
	job.token = tokenString(token)
	s.edits.mu.Unlock()
	p.send(map[string]any{"kind": "begin", "title": title, "cancellable": true})
	return p
}

func (p *progress) report(msg string) {
	p.send(map[string]any{"kind": "report", "message": msg})
}

func (p *progress) end(msg string) {
	p.send(map[string]any{"kind": "end", "message": msg})
}

func (p *progress) send(value map[string]any) {
	if p.token == nil {
		return
	}
	raw, err := json.Marshal(value)
	if err != nil {
		return
	}
	p.s.notify(p.ctx, protocol.MethodProgress, &protocol.ProgressParams{Token: p.token, Value: raw})
}

// tokenString renders a progress token for comparison.
func tokenString(t protocol.ProgressToken) string {
	switch t := t.(type) {
	case protocol.String:
		return string(t)
	case protocol.Integer:
		return fmt.Sprint(int32(t))
	}
	return ""
}

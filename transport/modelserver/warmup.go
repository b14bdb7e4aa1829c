package modelserver

import (
	"context"
	"net/http"
	"time"
)

// Warm-up requests fill the prompt cache without generating: the
// Responses API's response.create with "generate": false and llama.cpp's
// n_predict 0. They are counted as Warmups, not Requests, and take the
// prefill time of their uncached tokens (no TTFT: there is no first token).

// serveWarmup answers an HTTP warm-up for q in the given shape once its
// prompt is read, or when the client leaves.
func (s *Server) serveWarmup(w http.ResponseWriter, r *http.Request, shape httpShape, q Query, stream bool) {
	arrival, err := s.arrive(r.Context(), s.clock.Now(), firstOnConn(r))
	if err != nil {
		return
	}
	s.counts.warmups.Add(1)
	if sleepUntil(r.Context(), s.clock, arrival.Add(s.prefill(q)+s.opts.Delay)) != nil {
		return
	}
	out := &httpOut{w: w, rc: http.NewResponseController(w), shape: shape, stream: stream}
	out.finish(outcome{end: endStop})
}

// warm answers a Responses warm-up on lane l: response.created, then, once
// the prompt is read, response.completed without output.
func (c *wsConn) warm(ctx context.Context, l *lane, q Query, arrival time.Time, model string) {
	defer func() {
		l.cancel()
		c.release(l)
		c.lanesWG.Done()
	}()
	c.s.counts.warmups.Add(1)
	read := arrival.Add(c.s.prefill(q))
	resp := func(status string) wsResponse {
		return wsResponse{ID: l.id, Object: "response", Status: status, Model: model}
	}
	if sleepUntil(ctx, c.s.clock, arrival.Add(c.s.opts.Delay)) != nil {
		c.finishCancelled(l, resp)
		return
	}
	if c.write(responseEvent{Type: "response.created", StreamID: l.streamID, Response: resp("in_progress")}) != nil {
		return
	}
	if sleepUntil(ctx, c.s.clock, read.Add(c.s.opts.Delay)) != nil {
		c.finishCancelled(l, resp)
		return
	}
	r := resp("completed")
	r.Usage = &usage{}
	c.release(l)
	c.write(responseEvent{Type: "response.completed", StreamID: l.streamID, Response: r})
}

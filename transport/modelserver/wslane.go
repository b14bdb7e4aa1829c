package modelserver

import (
	"context"
	"fmt"
	"net/http"
)

// newID returns a fresh id with the given prefix, such as resp_1a.
func (s *Server) newID(prefix string) string {
	return fmt.Sprintf("%s_%x", prefix, s.ids.Add(1))
}

// malformedEvent is what FaultMalformed sends: a delta event cut short.
const malformedEvent = `{"type":"response.output_text.delta","delta":"`

// runLane streams one response and sends its terminal event.
// topK is how many alternatives each token's logprobs list, when g is
// scored.
func (c *wsConn) runLane(ctx context.Context, l *lane, g *generation, model string, topK int) {
	defer func() {
		l.cancel()
		c.release(l)
		c.lanesWG.Done()
	}()
	if g.fault == Fault429 {
		c.release(l)
		c.write(errorEvent{Type: "error", StreamID: l.streamID, ResponseID: l.id,
			Status: http.StatusTooManyRequests, Error: rateLimited})
		return
	}
	resp := func(status string) wsResponse {
		return wsResponse{ID: l.id, Object: "response", Status: status, Model: model}
	}
	if sleepUntil(ctx, c.s.clock, g.arrival.Add(c.s.opts.Delay)) != nil {
		c.finishCancelled(l, resp)
		return
	}
	if c.write(responseEvent{Type: "response.created", StreamID: l.streamID, Response: resp("in_progress")}) != nil {
		return
	}
	itemID := c.s.newID("msg")
	o := c.s.run(ctx, g, sink{
		token: func(tok Scored) error {
			ev := textEvent{Type: "response.output_text.delta", StreamID: l.streamID,
				ResponseID: l.id, ItemID: itemID, Delta: tok.Token}
			if g.scored {
				ev.Logprobs = []tokenLogprob{logprobsOf(tok, topK, 0)}
			}
			return c.write(ev)
		},
		malformed: func() error { return c.writeRaw([]byte(malformedEvent)) },
	})
	switch {
	case o.end == endDrop:
		c.close()
	case o.end == endGone:
	case o.end == endCancelled:
		c.finishCancelled(l, resp)
	case o.err != nil:
		r := resp("failed")
		r.Error = &apiError{Type: "server_error", Code: "server_error", Message: o.err.Error()}
		c.release(l)
		c.write(responseEvent{Type: "response.failed", StreamID: l.streamID, Response: r})
	default:
		if c.write(textEvent{Type: "response.output_text.done", StreamID: l.streamID,
			ResponseID: l.id, ItemID: itemID, Text: o.text}) != nil {
			return
		}
		r := resp("completed")
		typ := "response.completed"
		if o.end == endLength {
			r.Status, typ = "incomplete", "response.incomplete"
			r.IncompleteDetails = &incompleteDetails{Reason: "max_output_tokens"}
		}
		r.Usage = &usage{OutputTokens: o.tokens, TotalTokens: o.tokens}
		r.Output = []outputItem{{Type: "message", ID: itemID, Role: "assistant", Status: r.Status,
			Content: []part{{Type: "output_text", Text: o.text}}}}
		c.release(l)
		c.write(responseEvent{Type: typ, StreamID: l.streamID, Response: r})
	}
}

// finishCancelled ends a lane the client cancelled with a
// response.incomplete whose status is "cancelled", so the lane has a
// terminal event; a lane cut short by the connection closing gets none.
func (c *wsConn) finishCancelled(l *lane, resp func(string) wsResponse) {
	if !l.cancelled.Load() || c.ctx.Err() != nil {
		return
	}
	r := resp("cancelled")
	r.IncompleteDetails = &incompleteDetails{Reason: "cancelled"}
	c.release(l)
	c.write(responseEvent{Type: "response.incomplete", StreamID: l.streamID, Response: r})
}

// rateLimited is the error Fault429 answers with.
var rateLimited = apiError{Type: "rate_limit_error", Code: "rate_limit_exceeded",
	Message: "rate limit reached; retry after 1s"}

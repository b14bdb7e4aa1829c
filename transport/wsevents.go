package transport

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"

	"go.uber.org/zap"
)

// dispatch handles one server event. It runs on the reader goroutine: the
// per-token hot path. Event types it does not know are ignored.
func (c *wsConn) dispatch(frame []byte) {
	var ev wsEvent
	if err := json.Unmarshal(frame, &ev); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			c.log.Warn("malformed event from model endpoint", zap.String("host", c.ep.host), zap.Error(err))
			return
		}
	}
	if ev.Type == evError {
		c.errorEvent(&ev)
		return
	}
	if l := c.lookup(ev.StreamID); l != nil {
		c.laneEvent(l, &ev)
	}
}

// lookup returns the lane in flight on a stream_id, or nil.
func (c *wsConn) lookup(streamID string) *lane {
	if streamID == "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lanes[streamID]
}

// laneEvent applies one response event to its lane.
func (c *wsConn) laneEvent(l *lane, ev *wsEvent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if ev.Type == evCreated {
		l.created = true
		if ev.Response != nil && l.responseID == "" {
			l.responseID = ev.Response.ID
		}
	}
	if l.finished {
		// Abandoned, or stopped by a stop string: the response may go on
		// (the service has no cancel) but nobody listens. Cancel it once
		// it can be named; its stream_id is free again when it ends.
		if ev.Type == evCreated && !l.cancelSent {
			c.sendCancel(l)
		}
		if terminal(ev.Type) {
			c.release(l)
		}
		return
	}
	switch ev.Type {
	case evDelta:
		l.sink.doubts(ev.Delta, ev.Logprobs)
		if l.sink.deliver(ev.Delta) {
			l.end(l.sink.finish("stop", 0), nil)
			c.sendCancel(l)
		}
	case evCompleted:
		l.end(l.sink.finish("stop", outputTokens(ev.Response)), nil)
		c.release(l)
	case evIncomplete:
		reason := "incomplete"
		if r := ev.Response; r != nil && r.IncompleteDetails != nil && r.IncompleteDetails.Reason != "" {
			reason = r.IncompleteDetails.Reason
		}
		if reason == "max_output_tokens" {
			reason = "length"
		}
		l.end(l.sink.finish(reason, outputTokens(ev.Response)), nil)
		c.release(l)
	case evFailed:
		we := &wireError{Code: "server_error", Message: "response failed"}
		if ev.Response != nil && ev.Response.Error != nil {
			we = ev.Response.Error
		}
		l.end(l.sink.partial("error"), c.ep.statusError(0, we.Code, we.Message, nil))
		c.release(l)
	}
}

// errorEvent handles an error event. An error is matched to what it
// answers and fails nothing else:
//
//   - the answer to a response.cancel (the service documents no cancel):
//     nothing fails, and this connection stops sending cancels;
//   - websocket_connection_limit_reached: the connection is done; its
//     requests end with KindUnavailable, and Generate sends those that have
//     had no output again on a new connection;
//   - websocket_stream_limit_reached or previous_response_not_found: the
//     create it names was refused; the connection allows one response
//     fewer in flight, and Generate sends the request again;
//   - anything else fails the request on its stream_id or, without one,
//     the oldest request still waiting for response.created; if there is
//     neither, it is only logged.
func (c *wsConn) errorEvent(ev *wsEvent) {
	we := wireError{}
	if ev.Error != nil {
		we = *ev.Error
	}
	err := c.ep.statusError(ev.Status, we.Code, we.Message, nil)
	switch {
	case answersCancel(we):
		if !c.noCancel.Swap(true) {
			c.log.Info("model endpoint has no response.cancel; stale responses are superseded instead",
				zap.String("host", c.ep.host), zap.Error(err))
		}
		return
	case we.Code == codeConnLimit:
		c.connLimit(err)
		return
	}
	l := c.lookup(ev.StreamID)
	if ev.StreamID == "" {
		l = c.oldestWaiting()
	}
	if l == nil {
		c.log.Warn("model endpoint reported an error", zap.String("host", c.ep.host),
			zap.String("stream_id", ev.StreamID), zap.Error(err))
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.finished && l.created:
		return // an abandoned response goes on to its own terminal event
	case l.finished:
	case retryable(we.Code):
		l.end(Result{}, &refusedError{err: err})
	default:
		l.end(l.sink.partial("error"), err)
	}
	if retryable(we.Code) {
		c.refused()
	}
	c.release(l)
}

// oldestWaiting returns the earliest-sent lane still waiting for
// response.created: the endpoint answers events in order, so an error
// that names no stream answers that create.
func (c *wsConn) oldestWaiting() *lane {
	c.mu.Lock()
	lanes := slices.Collect(maps.Values(c.lanes))
	c.mu.Unlock()
	var oldest *lane
	for _, l := range lanes {
		l.mu.Lock()
		waiting := !l.created
		l.mu.Unlock()
		if waiting && (oldest == nil || l.seq < oldest.seq) {
			oldest = l
		}
	}
	return oldest
}

// connLimit ends a connection the endpoint has closed for its age.
func (c *wsConn) connLimit(err *Error) {
	c.log.Info("model endpoint closed the connection for its age; moving to a new one", zap.String("host", c.ep.host))
	c.mu.Lock()
	c.draining = true
	lanes := slices.Collect(maps.Values(c.lanes))
	c.mu.Unlock()
	for _, l := range lanes {
		l.mu.Lock()
		l.end(l.sink.partial("error"), err)
		l.mu.Unlock()
	}
	c.shutdown()
}

// answersCancel reports whether an error event is the endpoint refusing a
// response.cancel: an event type it does not know.
func answersCancel(we wireError) bool {
	return we.Code == codeUnknownEvent || strings.Contains(we.Message, "response.cancel")
}

// retryable reports whether an error refused a create for a reason that
// sending it again can fix.
func retryable(code string) bool {
	return code == codeStreamLimit || code == codePrevNotFound
}

// refusedError is a response.create the endpoint refused for a reason a
// resend can fix; Generate sends the request again.
type refusedError struct{ err *Error }

func (e *refusedError) Error() string { return e.err.Error() }
func (e *refusedError) Unwrap() error { return e.err }

func terminal(typ string) bool {
	return typ == evCompleted || typ == evFailed || typ == evIncomplete
}

func outputTokens(r *wsResponse) int {
	if r == nil || r.Usage == nil {
		return 0
	}
	return r.Usage.OutputTokens
}

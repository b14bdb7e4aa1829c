package transport

import (
	"encoding/json"
	"errors"

	"go.uber.org/zap"
)

// dispatch handles one server event. It runs on the reader goroutine: the
// per-token hot path.
func (c *wsConn) dispatch(frame []byte) {
	var ev wsEvent
	if err := json.Unmarshal(frame, &ev); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			c.log.Warn("malformed event from model endpoint", zap.String("host", c.ep.host), zap.Error(err))
			return
		}
	}
	if ev.StreamID == "" {
		c.connEvent(&ev)
		return
	}
	c.mu.Lock()
	l := c.lanes[ev.StreamID]
	c.mu.Unlock()
	if l != nil {
		c.laneEvent(l, &ev)
	}
}

// laneEvent applies one event to its lane.
func (c *wsConn) laneEvent(l *lane, ev *wsEvent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if ev.Type == evCreated && ev.Response != nil && l.responseID == "" {
		l.responseID = ev.Response.ID
	}
	if l.finished {
		// Cancelled (or stopped) before the model named the response:
		// cancel it now that we can, and drop the rest of the lane.
		if ev.Type == evCreated && !l.cancelSent {
			c.sendCancel(l)
		}
		if l.cancelSent || terminal(ev.Type) {
			c.remove(l)
		}
		return
	}
	switch ev.Type {
	case evDelta:
		if l.sink.deliver(ev.Delta) {
			l.end(l.sink.finish("stop", 0), nil)
			c.sendCancel(l)
			if l.cancelSent {
				c.remove(l)
			}
		}
	case evCompleted:
		l.end(l.sink.finish("stop", outputTokens(ev.Response)), nil)
		c.remove(l)
	case evIncomplete:
		reason := "incomplete"
		if r := ev.Response; r != nil && r.IncompleteDetails != nil && r.IncompleteDetails.Reason != "" {
			reason = r.IncompleteDetails.Reason
		}
		if reason == "max_output_tokens" {
			reason = "length"
		}
		l.end(l.sink.finish(reason, outputTokens(ev.Response)), nil)
		c.remove(l)
	case evFailed:
		we := &wireError{Code: "server_error", Message: "response failed"}
		if ev.Response != nil && ev.Response.Error != nil {
			we = ev.Response.Error
		}
		l.end(l.sink.partial("error"), c.ep.statusError(0, we.Code, we.Message, nil))
		c.remove(l)
	case evError:
		l.end(l.sink.partial("error"), c.eventError(ev))
		c.remove(l)
	}
}

// connEvent handles an event that names no stream.
func (c *wsConn) connEvent(ev *wsEvent) {
	if ev.Type != evError {
		return
	}
	err := c.eventError(ev)
	c.log.Warn("model endpoint reported a connection error", zap.String("host", c.ep.host), zap.Error(err))
	if err.Code == codeConnLimit {
		return // eventError retired the connection
	}
	c.mu.Lock()
	lanes := c.lanes
	c.lanes = map[string]*lane{}
	c.mu.Unlock()
	for _, l := range lanes {
		l.mu.Lock()
		l.end(l.sink.partial("error"), err)
		l.mu.Unlock()
	}
}

// eventError converts an error event; the connection-limit error also
// retires the connection.
func (c *wsConn) eventError(ev *wsEvent) *Error {
	we := wireError{}
	if ev.Error != nil {
		we = *ev.Error
	}
	if we.Code == codeConnLimit {
		c.retire()
	}
	return c.ep.statusError(ev.Status, we.Code, we.Message, nil)
}

func terminal(typ string) bool {
	return typ == evCompleted || typ == evFailed || typ == evIncomplete || typ == evError
}

func outputTokens(r *wsResponse) int {
	if r == nil || r.Usage == nil {
		return 0
	}
	return r.Usage.OutputTokens
}

package modelserver

import (
	"fmt"
	"time"
)

// The Responses WebSocket as the real service documents it, which strict
// mode (Options.Strict) follows:
//
//   - No cancel event: a response.cancel is an unknown event type, answered
//     with an error event that names no stream (the service does not know
//     the event, so it cannot know what it was about); the response it
//     named keeps generating to its end.
//   - At most 16 responses in flight on a connection; a response.create
//     beyond that is refused with websocket_stream_limit_reached.
//   - At most 32 stream_ids used on a connection over its life; a
//     response.create naming a 33rd is refused with the same code.
//   - A connection is closed at 60 minutes, after an error event with
//     websocket_connection_limit_reached.
//
// The service does not say what a response.create on a stream whose
// response is still running does; strict mode refuses it (stream_in_use),
// the strictest reading, so a client that reuses a busy stream is caught.
const (
	strictMaxInFlight = 16
	strictMaxStreams  = 32
	strictMaxConnAge  = 60 * time.Minute

	codeStreamLimit = "websocket_stream_limit_reached"
	codeConnLimit   = "websocket_connection_limit_reached"
	codeStreamInUse = "stream_in_use"
	codeUnknownType = "unknown_event_type"
)

// limits are the strict-mode bounds of one connection.
type limits struct {
	inFlight, streams int
}

// strictLimits returns the bounds opts asks for; zero values mean none.
func strictLimits(opts Options) limits {
	if !opts.Strict {
		return limits{}
	}
	return limits{inFlight: strictMaxInFlight, streams: strictMaxStreams}
}

// connAge is when a WebSocket is closed; 0 means never.
func connAge(opts Options) time.Duration {
	if opts.MaxConnAge == 0 && opts.Strict {
		return strictMaxConnAge
	}
	return opts.MaxConnAge
}

// admit decides whether a response.create on streamID may start. It
// returns the error event refusing it, or nil; on nil the stream is
// recorded as used. c.mu must be held.
func (c *wsConn) admit(streamID string) *errorEvent {
	lim := c.s.limits
	if lim == (limits{}) {
		return nil
	}
	refuse := func(code, msg string) *errorEvent {
		c.s.counts.limitErrors.Add(1)
		e := badRequest(streamID, code, msg)
		return &e
	}
	if streamID != "" {
		for _, l := range c.lanes {
			if l.streamID == streamID {
				return refuse(codeStreamInUse, fmt.Sprintf("stream %q already has a response in progress", streamID))
			}
		}
	}
	if len(c.lanes) >= lim.inFlight {
		return refuse(codeStreamLimit, fmt.Sprintf("at most %d responses may be in flight on one connection", lim.inFlight))
	}
	if _, seen := c.streams[streamID]; !seen && streamID != "" {
		if len(c.streams) >= lim.streams {
			return refuse(codeStreamLimit, fmt.Sprintf("at most %d streams may be used on one connection", lim.streams))
		}
		c.streams[streamID] = struct{}{}
	}
	return nil
}

// ignoreCancel answers a response.cancel as the real service does: it is
// not an event the service knows. The response keeps generating; its
// tokens from now on are counted as sent after a cancel.
func (c *wsConn) ignoreCancel(id, streamID string) {
	for _, l := range c.find(id, streamID) {
		l.ignored.Store(true)
		l.cancelled.Store(true) // asked, not done: counts the tokens it goes on making
	}
	c.s.counts.cancelsIgnored.Add(1)
	c.write(unknownEvent("", "response.cancel"))
}

package modelserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// wsReadLimit bounds one client event (a prompt with its context).
const wsReadLimit = 16 << 20

var upgrader = websocket.Upgrader{ReadBufferSize: 4096, WriteBufferSize: 4096}

// wsConn is one Responses API WebSocket and its lanes.
type wsConn struct {
	s    *Server
	conn *websocket.Conn
	// ctx is done once the connection is closing; every lane derives from it.
	ctx    context.Context
	cancel context.CancelFunc

	wmu sync.Mutex // serialises writes to conn

	mu      sync.Mutex
	lanes   map[string]*lane    // running responses by id; guarded by mu
	streams map[string]struct{} // stream_ids used so far (strict mode); guarded by mu

	lanesWG   sync.WaitGroup // lane goroutines and the age timer
	closeOnce sync.Once
}

// lane is one response in progress.
type lane struct {
	id, streamID string
	cancel       context.CancelFunc
	// cancelled is set, before cancel is called, when the client cancels
	// (in strict mode, when it asked to: cancel is then never called, and
	// ignored is set first).
	cancelled, ignored atomic.Bool
	// released is set once the lane no longer counts as in flight.
	released atomic.Bool
}

// handleResponses serves GET /v1/responses: the WebSocket upgrade.
func (s *Server) handleResponses(w http.ResponseWriter, r *http.Request) {
	if _, err := s.arrive(r.Context(), s.clock.Now(), true); err != nil {
		return
	}
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has answered the client
	}
	s.counts.websockets.Add(1)
	conn.SetReadLimit(wsReadLimit)
	c := &wsConn{s: s, conn: conn, lanes: make(map[string]*lane), streams: make(map[string]struct{})}
	c.ctx, c.cancel = context.WithCancel(s.ctx)
	s.mu.Lock()
	if s.closed { // Close began during the upgrade and will not see c
		s.mu.Unlock()
		c.close()
		return
	}
	s.sockets[c] = struct{}{}
	s.mu.Unlock()
	defer func() {
		c.close()
		c.lanesWG.Wait()
		s.mu.Lock()
		delete(s.sockets, c)
		s.mu.Unlock()
	}()
	if age := connAge(s.opts); age > 0 {
		c.lanesWG.Add(1)
		go c.expire(age)
	}
	c.readLoop()
}

// close cancels every lane and closes the connection without a close
// frame; the read loop then ends.
func (c *wsConn) close() {
	c.closeOnce.Do(func() {
		c.cancel()
		_ = c.conn.Close() // the peer may have gone first
	})
}

// expire closes the connection once it is age old, telling the client
// why first.
func (c *wsConn) expire(age time.Duration) {
	defer c.lanesWG.Done()
	if c.s.clock.Sleep(c.ctx, age) != nil {
		return
	}
	c.write(errorEvent{Type: "error", Status: http.StatusBadRequest, Error: apiError{
		Type:    "invalid_request_error",
		Code:    codeConnLimit,
		Message: fmt.Sprintf("websocket connection limit reached (%s); open a new connection to continue", age),
	}})
	c.wmu.Lock()
	_ = c.conn.WriteMessage(websocket.CloseMessage,
		websocket.FormatCloseMessage(websocket.CloseNormalClosure, "connection limit reached"))
	c.wmu.Unlock()
	c.close()
}

// wsFrame is one client event as read off the socket, and when.
type wsFrame struct {
	data   []byte
	readAt time.Time
}

// readLoop handles client events in order until the connection ends. The
// frames are taken off the socket as they come, so each one's emulated
// network delay runs from when it was read: delays overlap as on a real
// network, rather than each frame (a cancel, say) holding up the next.
func (c *wsConn) readLoop() {
	frames := make(chan wsFrame, 64)
	c.lanesWG.Add(1)
	go func() {
		defer c.lanesWG.Done()
		defer close(frames)
		for {
			_, data, err := c.conn.ReadMessage()
			if err != nil {
				return
			}
			select {
			case frames <- wsFrame{data: data, readAt: c.s.clock.Now()}:
			case <-c.ctx.Done():
				return
			}
		}
	}()
	for f := range frames {
		data := f.data
		arrival, err := c.s.arrive(c.ctx, f.readAt, false)
		if err != nil {
			return
		}
		var req wsRequest
		if err := json.Unmarshal(data, &req); err != nil {
			c.write(badRequest("", "invalid_json", fmt.Sprintf("event is not valid JSON: %v", err)))
			continue
		}
		switch req.Type {
		case "response.create":
			if c.s.opts.Received != nil {
				c.s.opts.Received(data)
			}
			c.create(req, arrival)
		case "response.cancel":
			if c.s.opts.Strict {
				c.ignoreCancel(req.ResponseID, req.StreamID)
			} else {
				c.cancelLane(req.ResponseID, req.StreamID)
			}
		default:
			c.write(unknownEvent(req.StreamID, req.Type))
		}
	}
}

// badRequest is an error event for a client mistake.
func badRequest(streamID, code, msg string) errorEvent {
	return errorEvent{Type: "error", StreamID: streamID, Status: http.StatusBadRequest,
		Error: apiError{Type: "invalid_request_error", Code: code, Message: msg}}
}

// unknownEvent is the answer to an event of a type the server does not
// know.
func unknownEvent(streamID, typ string) errorEvent {
	return badRequest(streamID, codeUnknownType, fmt.Sprintf("unknown event type %q", typ))
}

// write sends one event; a failed write means the connection is going,
// which the read loop notices.
func (c *wsConn) write(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode event: %w", err)
	}
	return c.writeRaw(data)
}

func (c *wsConn) writeRaw(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.conn.WriteMessage(websocket.TextMessage, data); err != nil {
		return fmt.Errorf("write event: %w", err)
	}
	return nil
}

// create starts a lane for a response.create. A create on a stream_id that
// is still running supersedes it: the old response is cancelled (strict
// mode refuses it instead, and enforces the service's limits).
func (c *wsConn) create(req wsRequest, arrival time.Time) {
	user, system, err := responsesInput(req.Input)
	if err != nil {
		c.write(badRequest(req.StreamID, "invalid_input", err.Error()))
		return
	}
	if req.Instructions != "" {
		system = req.Instructions
	}
	if e := topOutOfRange("top_logprobs", req.TopLogprobs); e != nil {
		c.write(badRequest(req.StreamID, e.Code, e.Message))
		return
	}
	if req.StreamID != "" && !c.s.opts.Strict {
		c.cancelLane("", req.StreamID)
	}
	ctx, cancel := context.WithCancel(c.ctx)
	l := &lane{id: c.s.newID("resp"), streamID: req.StreamID, cancel: cancel}
	q := chatQuery(user, system, req.MaxOutputTokens)
	c.mu.Lock()
	if refused := c.admit(req.StreamID); refused != nil {
		c.mu.Unlock()
		cancel()
		c.write(*refused)
		return
	}
	c.lanes[l.id] = l
	c.mu.Unlock()
	c.lanesWG.Add(1)
	if req.Generate != nil && !*req.Generate {
		go c.warm(ctx, l, q, arrival, req.Model)
		return
	}
	g := c.s.newGeneration(q, arrival, l.cancelled.Load)
	g.stopping = func() bool { return l.cancelled.Load() && !l.ignored.Load() }
	g.scored = req.scored()
	go c.runLane(ctx, l, g, req.Model, req.TopLogprobs)
}

// cancelLane cancels the running response with the given id, or on the
// given stream when id is empty. Unknown or finished responses are ignored:
// a cancel may cross the response's end on the wire.
func (c *wsConn) cancelLane(id, streamID string) {
	for _, l := range c.find(id, streamID) {
		if !l.cancelled.Swap(true) {
			c.s.counts.cancels.Add(1)
		}
		l.cancel()
	}
}

// find returns the running response with the given id, or those on the
// given stream when id is empty.
func (c *wsConn) find(id, streamID string) []*lane {
	c.mu.Lock()
	defer c.mu.Unlock()
	var found []*lane
	for _, l := range c.lanes {
		if (id != "" && l.id == id) || (id == "" && streamID != "" && l.streamID == streamID) {
			found = append(found, l)
		}
	}
	return found
}

// release stops counting a lane as in flight. It runs before the lane's
// terminal event is written, so a client that sends its next create on
// seeing that event is never refused for the lane that just ended.
func (c *wsConn) release(l *lane) {
	if l.released.Swap(true) {
		return
	}
	c.mu.Lock()
	delete(c.lanes, l.id)
	c.mu.Unlock()
}

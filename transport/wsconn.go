package transport

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/zap"
)

// The endpoint's limits per connection (see wswire.go). The client stays
// within them on its own: it never has more than wsMaxInFlight responses
// unfinished on a connection, counting those it abandoned until their
// terminal event, and it names lanes from a pool of wsMaxLanes stream_ids,
// reusing a name only once its last response has ended.
const (
	wsMaxInFlight = 16
	wsMaxLanes    = 32
	// wsMaxRefusals is how many stream-limit refusals a connection may
	// earn before it is retired in favour of a fresh one.
	wsMaxRefusals = 3
	// wsStaleLane is how long a connection whose every slot is held by an
	// abandoned response waits for one of them to end before it is closed.
	wsStaleLane = time.Minute
)

// wsConn is one WebSocket to the endpoint, shared by every request in
// flight. Exactly one goroutine reads it (readLoop) and one writes it
// (writeLoop); everyone else hands frames to the writer through out.
type wsConn struct {
	ws        *websocket.Conn // read only by readLoop, written only by writeLoop
	ep        endpoint
	log       *zap.Logger
	opened    time.Time
	maxAge    time.Duration
	pingEvery time.Duration

	out  chan []byte   // frames for the writer; never closed
	quit chan struct{} // closed (once, by shutdown) to make the writer close the socket
	dead chan struct{} // closed when readLoop has exited; err is set before
	err  *Error        // why the connection ended; read only after dead is closed

	quitOnce sync.Once
	// closed is set once the connection is known closed: shut down on
	// purpose (shutdown), or its socket closed by the writer after a
	// failed write or ping (closeSocket). readLoop dispatches nothing
	// after, though frames sent before the close may still be buffered.
	closed atomic.Bool
	health health // health checks after a stalled generation (wshealth.go)
	// noCancel is set once the endpoint answered a response.cancel with
	// an error (the real service has none): from then on stale responses
	// are only superseded, not cancelled.
	noCancel atomic.Bool

	mu       sync.Mutex
	lanes    map[string]*lane // guarded by mu: lanes whose response has not ended (owned or abandoned), by stream_id; at most limit
	idle     []string         // guarded by mu: stream_ids whose last response has ended, free for reuse
	named    int              // guarded by mu: stream_ids minted on this connection; at most wsMaxLanes
	limit    int              // guarded by mu: responses allowed in flight; lowered when the endpoint refuses one
	refusals int              // guarded by mu: stream-limit refusals so far
	room     chan struct{}    // guarded by mu: closed, and replaced, whenever a lane is released
	added    uint64           // guarded by mu: lanes added so far, numbering them for lane.seq
	draining bool             // guarded by mu: takes no new lanes; shuts down when idle
	closing  bool             // guarded by mu: we are closing it on purpose
}

// lane is one request's stream on a connection.
type lane struct {
	id   string        // the stream_id; set by add, immutable after
	seq  uint64        // order of add on the connection (the create is queued just after); set by add
	done chan struct{} // closed by end
	// endedAt is when the owner stopped listening (UnixNano), 0 while it
	// listens. Atomic, so the connection can read it without l.mu.
	endedAt atomic.Int64

	mu         sync.Mutex // held while delivering, so the owner can end the lane between deltas
	sink       *sink      // guarded by mu; not touched once finished
	responseID string     // guarded by mu
	created    bool       // guarded by mu: response.created arrived
	finished   bool       // guarded by mu: no more deltas are delivered
	cancelSent bool       // guarded by mu: response.cancel carried the response id
	result     Result     // set before done is closed
	err        error      // set before done is closed
}

func newLane(s *sink) *lane {
	return &lane{sink: s, done: make(chan struct{})}
}

// end finishes the lane with a result or an error. l.mu must be held.
func (l *lane) end(res Result, err error) {
	if l.finished {
		return
	}
	l.finished = true
	l.endedAt.Store(time.Now().UnixNano())
	l.result, l.err = res, err
	close(l.done)
}

func newWSConn(ws *websocket.Conn, ep endpoint, log *zap.Logger, maxAge, pingEvery time.Duration) *wsConn {
	return &wsConn{
		ws: ws, ep: ep, log: log, opened: time.Now(), maxAge: maxAge, pingEvery: pingEvery,
		out:   make(chan []byte, 64),
		quit:  make(chan struct{}),
		dead:  make(chan struct{}),
		lanes: make(map[string]*lane),
		limit: wsMaxInFlight,
		room:  make(chan struct{}),
	}
}

// fresh reports whether new requests may use the connection.
func (c *wsConn) fresh() bool {
	select {
	case <-c.dead:
		return false
	default:
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.draining && !c.closing && time.Since(c.opened) < c.maxAge
}

// add gives l a stream_id on the connection and counts it in flight. It
// reports false when the connection takes no new requests; then room is
// nil, or, when the connection is only at its limit, a channel closed once
// a lane is released: wait on it and try again.
func (c *wsConn) add(l *lane) (ok bool, room <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.draining || c.closing { // age is checked by fresh, before a request picks the connection
		return false, nil
	}
	select {
	case <-c.dead:
		return false, nil
	default:
	}
	if len(c.lanes) >= c.limit {
		if c.stuck() {
			c.log.Warn("model endpoint never ended abandoned responses; closing the connection",
				zap.String("host", c.ep.host), zap.Int("in_flight", len(c.lanes)))
			c.draining = true
			go c.shutdown()
			return false, nil
		}
		return false, c.room
	}
	switch {
	case len(c.idle) > 0:
		l.id = c.idle[len(c.idle)-1]
		c.idle = c.idle[:len(c.idle)-1]
	case c.named < wsMaxLanes:
		c.named++
		l.id = "wisp-" + strconv.Itoa(c.named)
	default: // unreachable while limit <= wsMaxLanes: every name in use is in lanes
		return false, c.room
	}
	c.added++
	l.seq = c.added
	c.lanes[l.id] = l
	return true, nil
}

// stuck reports whether every lane in flight was abandoned long ago and
// never ended: a connection in that state would make requests wait
// forever. c.mu must be held.
func (c *wsConn) stuck() bool {
	for _, l := range c.lanes {
		at := l.endedAt.Load()
		if at == 0 || time.Since(time.Unix(0, at)) < wsStaleLane {
			return false
		}
	}
	return len(c.lanes) > 0
}

// release ends a lane's claim on the connection: its response has ended
// (or was never created), so its stream_id may carry the next request.
// Later events on that stream_id belong to whoever takes it next.
func (c *wsConn) release(l *lane) {
	c.mu.Lock()
	if c.lanes[l.id] != l {
		c.mu.Unlock()
		return
	}
	delete(c.lanes, l.id)
	c.idle = append(c.idle, l.id)
	close(c.room)
	c.room = make(chan struct{})
	idle := c.draining && len(c.lanes) == 0
	c.mu.Unlock()
	if idle {
		c.shutdown()
	}
}

// refused records that the endpoint refused a create for its stream
// limit: the connection allows one response fewer than were in flight,
// and after wsMaxRefusals it is retired. c.mu must not be held.
func (c *wsConn) refused() {
	c.mu.Lock()
	c.limit = max(1, min(c.limit, len(c.lanes)-1))
	c.refusals++
	retire := c.refusals >= wsMaxRefusals
	c.mu.Unlock()
	if retire {
		c.retire()
	}
}

// retire stops new requests from using the connection; it closes once the
// requests in flight are done.
func (c *wsConn) retire() {
	c.mu.Lock()
	c.draining = true
	idle := len(c.lanes) == 0
	c.mu.Unlock()
	if idle {
		c.shutdown()
	}
}

// shutdown closes the connection on purpose; requests still in flight fail
// with KindUnavailable, and no event reaches them from then on.
func (c *wsConn) shutdown() {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	c.closed.Store(true)
	c.quitOnce.Do(func() { close(c.quit) })
}

// closeSocket closes the socket from the writer's side, first marking the
// connection closed so the reader dispatches nothing more; the reader then
// fails the lanes left.
func (c *wsConn) closeSocket() {
	c.closed.Store(true)
	_ = c.ws.Close()
}

// send queues a frame for the writer.
func (c *wsConn) send(frame []byte) error {
	select {
	case c.out <- frame:
		return nil
	case <-c.dead:
		return c.err
	}
}

// sendCancel asks the model to stop a lane's response, unless the
// endpoint has shown it has no cancel. The lane stays in flight until its
// terminal event either way. l.mu must be held.
func (c *wsConn) sendCancel(l *lane) {
	if c.noCancel.Load() {
		l.cancelSent = true
		return
	}
	frame, _ := json.Marshal(wsCancel{Type: "response.cancel", ResponseID: l.responseID, StreamID: l.id})
	if l.responseID != "" {
		l.cancelSent = true
	}
	if err := c.send(frame); err != nil {
		c.log.Debug("response.cancel not sent", zap.String("stream_id", l.id), zap.Error(err))
	}
}

// abandon ends a lane whose caller went away (context done): the model is
// told to stop, and the lane's later events are dropped until its
// response ends. It reports whether the lane had already finished on its
// own; its result and error are then l.result and l.err.
func (c *wsConn) abandon(l *lane) (finished bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.finished {
		return true
	}
	l.end(Result{}, nil)
	c.sendCancel(l) // before response.created it goes without an id, and again with one when it arrives
	return false
}

// writeLoop is the connection's only writer.
func (c *wsConn) writeLoop() {
	ping := time.NewTicker(c.pingEvery)
	defer ping.Stop()
	for {
		select {
		case frame := <-c.out:
			_ = c.ws.SetWriteDeadline(time.Now().Add(writeTimeout))
			if err := c.ws.WriteMessage(websocket.TextMessage, frame); err != nil {
				c.log.Debug("websocket write failed", zap.Error(err))
				c.closeSocket()
				return
			}
		case <-ping.C:
			if time.Since(c.opened) >= c.maxAge {
				c.retire()
			}
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeTimeout)); err != nil {
				c.closeSocket()
				return
			}
		case <-c.quit:
			msg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")
			_ = c.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
			c.closeSocket()
			return
		case <-c.dead:
			return
		}
	}
}

// readLoop is the connection's only reader. It delivers each event to its
// lane on this goroutine, and fails the lanes left when the connection ends
// or is known closed (closed): a frame still buffered then reaches no one.
func (c *wsConn) readLoop() {
	readTimeout := 2*c.pingEvery + writeTimeout
	c.ws.SetReadLimit(maxFrame)
	c.ws.SetPongHandler(func(string) error {
		c.health.pong()
		return c.ws.SetReadDeadline(time.Now().Add(readTimeout))
	})
	var buf bytes.Buffer
	var err error
	for {
		_ = c.ws.SetReadDeadline(time.Now().Add(readTimeout))
		var typ int
		var r io.Reader
		if typ, r, err = c.ws.NextReader(); err != nil {
			break
		}
		if typ != websocket.TextMessage {
			continue
		}
		buf.Reset()
		if _, err = buf.ReadFrom(r); err != nil {
			break
		}
		if c.closed.Load() {
			break
		}
		c.dispatch(buf.Bytes())
	}
	c.fail(err)
}

// fail ends the connection: every lane still in flight gets KindUnavailable.
func (c *wsConn) fail(err error) {
	c.mu.Lock()
	closing := c.closing
	lanes := c.lanes
	c.lanes = map[string]*lane{}
	c.draining = true
	close(c.room) // requests waiting for room go elsewhere
	c.room = make(chan struct{})
	c.mu.Unlock()
	what := "connection lost mid-stream"
	if closing {
		what = "connection closed"
		err = nil
	}
	c.err = c.ep.unavailable(what, err)
	close(c.dead)
	_ = c.ws.Close()
	for _, l := range lanes {
		l.mu.Lock()
		if !l.finished {
			res := l.sink.partial("error")
			l.end(res, c.err)
		}
		l.mu.Unlock()
	}
}

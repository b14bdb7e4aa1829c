package transport

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/zap"
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
	health   health // health checks after a stalled generation (wshealth.go)

	mu       sync.Mutex
	lanes    map[string]*lane // guarded by mu: requests in flight, by stream_id
	draining bool             // guarded by mu: takes no new lanes; shuts down when idle
	closing  bool             // guarded by mu: we are closing it on purpose
}

// lane is one request's stream on a connection.
type lane struct {
	id   string
	done chan struct{} // closed by end

	mu         sync.Mutex // held while delivering, so the owner can end the lane between deltas
	sink       *sink      // guarded by mu; not touched once finished
	responseID string     // guarded by mu
	finished   bool       // guarded by mu: no more deltas are delivered
	cancelSent bool       // guarded by mu: response.cancel carried the response id
	result     Result     // set before done is closed
	err        error      // set before done is closed
}

func newLane(id string, s *sink) *lane {
	return &lane{id: id, sink: s, done: make(chan struct{})}
}

// end finishes the lane with a result or an error. l.mu must be held.
func (l *lane) end(res Result, err error) {
	if l.finished {
		return
	}
	l.finished = true
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

// add registers a lane; false if the connection takes no new requests.
func (c *wsConn) add(l *lane) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.draining || c.closing { // age is checked by fresh, before a request picks the connection
		return false
	}
	select {
	case <-c.dead:
		return false
	default:
	}
	c.lanes[l.id] = l
	return true
}

// remove forgets a lane: its later events are dropped as unknown.
func (c *wsConn) remove(l *lane) {
	c.mu.Lock()
	delete(c.lanes, l.id)
	idle := c.draining && len(c.lanes) == 0
	c.mu.Unlock()
	if idle {
		c.shutdown()
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
// with KindUnavailable.
func (c *wsConn) shutdown() {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	c.quitOnce.Do(func() { close(c.quit) })
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

// sendCancel asks the model to stop a lane's response. l.mu must be held.
func (c *wsConn) sendCancel(l *lane) {
	frame, _ := json.Marshal(wsCancel{Type: "response.cancel", ResponseID: l.responseID, StreamID: l.id})
	if l.responseID != "" {
		l.cancelSent = true
	}
	if err := c.send(frame); err != nil {
		c.log.Debug("response.cancel not sent", zap.String("stream_id", l.id), zap.Error(err))
	}
}

// abandon ends a lane whose caller went away (context done): the model is
// told to stop and the lane's later events are dropped. It reports the
// result if the lane had already finished on its own.
func (c *wsConn) abandon(l *lane) (Result, error, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.finished {
		return l.result, l.err, true
	}
	l.end(Result{}, nil)
	c.sendCancel(l)
	if l.cancelSent {
		c.remove(l)
	} // else keep the lane until response.created brings the id to cancel
	return Result{}, nil, false
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
				_ = c.ws.Close() // the reader sees it and fails the lanes
				return
			}
		case <-ping.C:
			if time.Since(c.opened) >= c.maxAge {
				c.retire()
			}
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeTimeout)); err != nil {
				_ = c.ws.Close()
				return
			}
		case <-c.quit:
			msg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")
			_ = c.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
			_ = c.ws.Close()
			return
		case <-c.dead:
			return
		}
	}
}

// readLoop is the connection's only reader. It delivers each event to its
// lane on this goroutine, and fails the lanes left when the connection ends.
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

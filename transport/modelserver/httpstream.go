package modelserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// errClosed is the cause of a stream's end when the server closes.
var errClosed = errors.New("model server closed")

// maxBodyBytes bounds an HTTP request body (a prompt with its context).
const maxBodyBytes = 16 << 20

// httpShape is how one HTTP wire frames one request's reply.
type httpShape struct {
	// ndjson frames a stream as JSON lines; otherwise it is SSE.
	ndjson bool
	// scored says the request asked for token scores: the generation is
	// scored, and frame and whole get the scores to report.
	scored bool
	// frame is the streamed frame for token tok, which starts at byte at
	// of the reply. tok carries a score only when scored.
	frame func(tok Scored, at int) any
	// done returns the closing frames of a stream.
	done func(o outcome) []any
	// doneMarker, when set, is sent as the last SSE data line.
	doneMarker string
	// whole is the body of a non-streamed reply; toks are the reply's
	// tokens, in order, when scored, else nil.
	whole func(o outcome, toks []Scored) any
}

// finishReason names how a reply ended, as the OpenAI wires say it.
func finishReason(o outcome) string {
	if o.end == endLength {
		return "length"
	}
	return "stop"
}

// decodeBody decodes a JSON request body into v, answering 400 on failure.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "invalid_json",
			fmt.Sprintf("request body: %v", err))
		return false
	}
	return true
}

// writeError answers with the OpenAI error body.
func writeError(w http.ResponseWriter, status int, typ, code, msg string) {
	writeJSON(w, status, struct {
		Error apiError `json:"error"`
	}{apiError{Type: typ, Code: code, Message: msg}})
}

// serveGeneration answers an HTTP generation request for q in the given
// shape, streamed or whole. It stops generating when the client goes away
// or the server closes.
func (s *Server) serveGeneration(w http.ResponseWriter, r *http.Request, shape httpShape, q Query, stream bool) {
	arrival, err := s.arrive(r.Context(), s.clock.Now(), firstOnConn(r))
	if err != nil {
		return
	}
	// The cause tells a client that left (the request's context ends
	// first) from Close.
	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	defer context.AfterFunc(s.ctx, func() { cancel(errClosed) })()
	clientLeft := func() bool { return ctx.Err() != nil && !errors.Is(context.Cause(ctx), errClosed) }
	if s.opts.requestDone != nil {
		defer s.opts.requestDone()
	}
	g := s.newGeneration(q, arrival, clientLeft)
	g.scored = shape.scored
	if g.fault == Fault429 {
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusTooManyRequests, rateLimited.Type, rateLimited.Code, rateLimited.Message)
		return
	}
	out := &httpOut{w: w, rc: http.NewResponseController(w), shape: shape, stream: stream}
	o := s.run(ctx, g, sink{token: out.token, malformed: out.malformed})
	switch {
	case o.end == endCancelled || o.end == endGone:
		if clientLeft() || (o.end == endGone && s.ctx.Err() == nil) {
			s.counts.cancels.Add(1)
		}
	case o.end == endDrop:
		out.start()
		_ = out.rc.Flush()          // let the client see the stream begin before it breaks
		panic(http.ErrAbortHandler) // net/http's way to cut a response short
	case o.err != nil:
		out.fail(o.err)
	default:
		out.finish(o)
	}
}

// httpOut writes one reply's frames.
type httpOut struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	shape   httpShape
	stream  bool
	started bool     // the status line and headers are written
	broken  bool     // a non-streamed reply must be sent broken
	at      int      // the bytes of the reply handed to token so far
	kept    []Scored // a scored whole reply's tokens so far
}

// start writes the headers of a stream once.
func (o *httpOut) start() {
	if o.started {
		return
	}
	o.started = true
	h := o.w.Header()
	if o.shape.ndjson {
		h.Set("Content-Type", "application/x-ndjson")
	} else {
		h.Set("Content-Type", "text/event-stream")
	}
	h.Set("Cache-Control", "no-cache")
	o.w.WriteHeader(http.StatusOK)
}

// writeFrame sends one frame of a stream and flushes it.
func (o *httpOut) writeFrame(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode frame: %w", err)
	}
	return o.writeData(data)
}

func (o *httpOut) writeData(data []byte) error {
	o.start()
	var err error
	if o.shape.ndjson {
		_, err = fmt.Fprintf(o.w, "%s\n", data)
	} else {
		_, err = fmt.Fprintf(o.w, "data: %s\n\n", data)
	}
	if err == nil {
		err = o.rc.Flush()
	}
	if err != nil {
		return fmt.Errorf("write frame: %w", err)
	}
	return nil
}

// token sends a token's frame, or for a whole reply keeps the token if
// the reply is scored (run keeps the text).
func (o *httpOut) token(tok Scored) error {
	at := o.at
	o.at += len(tok.Token)
	if !o.stream {
		if o.shape.scored {
			o.kept = append(o.kept, tok)
		}
		return nil
	}
	return o.writeFrame(o.shape.frame(tok, at))
}

// malformed sends a frame that is not valid JSON.
func (o *httpOut) malformed() error {
	if !o.stream {
		o.broken = true
		return nil
	}
	return o.writeData([]byte(`{"choices":[{"delta":`))
}

// fail reports a backend error: as an error body if nothing was sent yet,
// else as a last frame.
func (o *httpOut) fail(err error) {
	if !o.started {
		writeError(o.w, http.StatusInternalServerError, "server_error", "server_error", err.Error())
		return
	}
	_ = o.writeFrame(struct {
		Error apiError `json:"error"`
	}{apiError{Type: "server_error", Code: "server_error", Message: err.Error()}})
}

// finish sends the end of a stream, or a whole reply.
func (o *httpOut) finish(res outcome) {
	if !o.stream {
		if o.broken {
			o.w.Header().Set("Content-Type", "application/json")
			_, _ = o.w.Write([]byte(`{"choices":[`)) // deliberately broken
			return
		}
		writeJSON(o.w, http.StatusOK, o.shape.whole(res, o.kept))
		return
	}
	for _, f := range o.shape.done(res) {
		if o.writeFrame(f) != nil {
			return
		}
	}
	if o.shape.doneMarker != "" {
		_ = o.writeData([]byte(o.shape.doneMarker))
	}
}

package transport

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"go.uber.org/zap"
)

// httpClient is the HTTP side shared by the openai and fim providers:
// a keep-alive client that sends the key only to the endpoint's host.
type httpClient struct {
	url    *url.URL     // immutable: the route requests are POSTed to
	ep     endpoint     // immutable
	client *http.Client // immutable
	log    *zap.Logger  // never nil

	life context.Context    // done at close: generations in flight end
	stop context.CancelFunc // ends life
}

func newHTTPClient(u *url.URL, ep endpoint, newConnPerRequest bool, log *zap.Logger) *httpClient {
	if log == nil {
		log = zap.NewNop()
	}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConnsPerHost:   8,
		IdleConnTimeout:       5 * time.Minute,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
		DisableKeepAlives:     newConnPerRequest,
	}
	c := &http.Client{Transport: tr, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		// The key goes to the configured host and nowhere else.
		if req.URL.Host != u.Host || req.URL.Scheme != u.Scheme {
			return fmt.Errorf("model endpoint %s redirected to %s://%s: refused, the API key is only sent to the configured endpoint", u.Host, req.URL.Scheme, req.URL.Host)
		}
		if len(via) >= 3 {
			return errors.New("too many redirects")
		}
		return nil
	}}
	h := &httpClient{url: u, ep: ep, client: c, log: log}
	h.life, h.stop = context.WithCancel(context.Background())
	return h
}

// warm opens a connection to the endpoint's host ahead of the first
// request, leaving it idle in the pool. Any HTTP answer will do; the key is
// not sent. It ends when ctx ends or at close, like a generation.
func (h *httpClient) warm(ctx context.Context) error {
	caller := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(h.life, cancel)()
	base := url.URL{Scheme: h.url.Scheme, Host: h.url.Host, Path: "/"}
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, base.String(), nil)
	if err != nil {
		return fmt.Errorf("warm %s: %w", h.ep.host, err)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		switch {
		case caller.Err() != nil:
			return h.ep.endedConnecting(caller)
		case ctx.Err() != nil:
			return h.ep.unavailable("model closed", nil)
		}
		return h.ep.unavailable("warm", err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return resp.Body.Close()
}

// close ends the generations in flight (they fail with KindUnavailable)
// and drops idle connections.
func (h *httpClient) close() {
	h.stop()
	h.client.CloseIdleConnections()
}

// ended is the error for a stream whose context is done: the caller's
// cancellation, or close.
func (h *httpClient) ended(caller context.Context, s *sink) (Result, error) {
	if caller.Err() != nil {
		return s.partial("cancelled"), cancelled(caller)
	}
	return s.partial("error"), h.ep.unavailable("model closed", nil)
}

// framing says how a streamed body is split into events.
type framing int

const (
	sseFraming    framing = iota // "data: {…}" lines, optional "data: [DONE]"
	ndjsonFraming                // one JSON object per line
)

// event is what a dialect's parser makes of one streamed event.
type event struct {
	text   string
	probs  []tokenLogprob // the scores of text's tokens, when asked for and sent
	finish string         // provider's finish reason, when the event carries one
	tokens int            // output tokens, when reported
	done   bool           // the stream is complete
}

// stream POSTs body and relays the streamed events through s. Cancelling
// ctx closes the response body, which ends the generation at the server.
// A stop string also closes the body.
func (h *httpClient) stream(ctx context.Context, body any, f framing, parse func([]byte) (event, error), s *sink) (Result, error) {
	payload, err := json.Marshal(body)
	if err != nil {
		return Result{}, fmt.Errorf("encode request: %w", err)
	}
	caller := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(h.life, cancel)()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url.String(), bytes.NewReader(payload))
	if err != nil {
		return Result{}, fmt.Errorf("request to %s: %w", h.ep.host, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if f == sseFraming {
		req.Header.Set("Accept", "text/event-stream")
	}
	if h.ep.key != "" {
		req.Header.Set("Authorization", "Bearer "+h.ep.key)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return h.ended(caller, s)
		}
		return Result{}, h.ep.unavailable("request failed", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<10))
		code, msg := errorBody(b)
		if msg == "" {
			msg = http.StatusText(resp.StatusCode)
		}
		return Result{}, h.ep.statusError(resp.StatusCode, code, msg, resp.Header)
	}
	br := bufio.NewReaderSize(resp.Body, 32<<10)
	finish, tokens := "", 0
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			var rest []byte
			rest, err = br.ReadBytes('\n')
			line = append(append([]byte(nil), line...), rest...)
		}
		if data, ok := frame(line, f); ok {
			if string(data) == "[DONE]" {
				drain(br)
				return s.finish(cmp.Or(finish, "stop"), tokens), nil
			}
			ev, perr := parse(data)
			if perr != nil {
				return s.partial("error"), perr
			}
			finish, tokens = cmp.Or(ev.finish, finish), max(ev.tokens, tokens)
			s.doubts(ev.text, ev.probs)
			if s.deliver(ev.text) {
				return s.finish("stop", tokens), nil // the deferred Close ends the stream at the server
			}
			if ev.done {
				drain(br)
				return s.finish(cmp.Or(finish, "stop"), tokens), nil
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return h.ended(caller, s)
			}
			if errors.Is(err, io.EOF) && finish != "" {
				return s.finish(finish, tokens), nil
			}
			if errors.Is(err, io.EOF) {
				err = errors.New("stream ended before the generation finished")
			}
			return s.partial("error"), h.ep.unavailable("stream interrupted", err)
		}
	}
}

// drain reads what is left of a finished stream (the chunked encoding's
// terminator, a trailing blank line) so the connection returns to the
// pool; a stream that goes on is cut off instead.
func drain(r io.Reader) { _, _ = io.CopyN(io.Discard, r, 4<<10) }

// frame extracts an event's JSON from one line.
func frame(line []byte, f framing) ([]byte, bool) {
	line = bytes.TrimRight(line, "\r\n")
	if f == ndjsonFraming {
		line = bytes.TrimSpace(line)
		return line, len(line) > 0
	}
	data, ok := bytes.CutPrefix(line, []byte("data:"))
	if !ok {
		return nil, false // comments, event:, id:, blank separators
	}
	data = bytes.TrimSpace(data)
	return data, len(data) > 0
}

// errorBody extracts a code and message from an error body in any of the
// common shapes: {"error":{"code","message"}}, {"error":"…"}, {"message":"…"}.
func errorBody(b []byte) (code, msg string) {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	if json.Unmarshal(b, &v) != nil {
		return "", string(bytes.TrimSpace(b))
	}
	var we wireError
	var s string
	switch {
	case json.Unmarshal(v.Error, &we) == nil && we.Message != "":
		return we.Code, we.Message
	case json.Unmarshal(v.Error, &s) == nil && s != "":
		return "", s
	case v.Message != "":
		return "", v.Message
	}
	return "", v.Detail
}

// streamError turns an error object found inside a stream into an Error.
func (h *httpClient) streamError(raw json.RawMessage) error {
	code, msg := errorBody(append(append([]byte(`{"error":`), raw...), '}'))
	e := h.ep.statusError(0, code, msg, nil)
	if code == "" {
		e.Kind = KindUnavailable
		e.Message = fmt.Sprintf("model endpoint %s failed mid-stream: %s", h.ep.host, h.ep.redact(msg))
	}
	return e
}

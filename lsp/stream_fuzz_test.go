package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// pipeRWC is a connection whose input is fixed bytes and whose output is
// kept for inspection.
type pipeRWC struct {
	in  *bytes.Reader
	out bytes.Buffer
}

func (p *pipeRWC) Read(b []byte) (int, error)  { return p.in.Read(b) }
func (p *pipeRWC) Write(b []byte) (int, error) { return p.out.Write(b) }
func (p *pipeRWC) Close() error                { return nil }

// frame wraps body in LSP header framing.
func frame(body []byte) []byte {
	return append(fmt.Appendf(nil, "Content-Length: %d\r\n\r\n", len(body)), body...)
}

// sentinel is the well-formed notification sent after the fuzzed body; the
// stream must still deliver it.
var sentinel = []byte(`{"jsonrpc":"2.0","method":"wisp/sentinel","params":{"n":1}}`)

// contentLength finds every declared Content-Length, to keep the fuzzer off
// inputs whose only effect is a large allocation (the framing caps a frame
// at 1 GiB, which is not what this target is about).
var contentLength = regexp.MustCompile(`(?i)content-length:[ \t]*([0-9]+)`)

// FuzzTolerantStream feeds the JSON-RPC framing two things: raw bytes, as
// a hostile or broken client would write them, and one framed body of
// arbitrary bytes followed by a well-formed notification. Nothing may
// panic or loop; every reply the stream writes must itself be a framed
// JSON-RPC parse error with a null id; and after any single body, however
// malformed, the next message must still arrive, answered by at most one
// parse error.
func FuzzTolerantStream(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"), []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
	f.Add(frame([]byte(`{"jsonrpc":"2.0","id":"a","method":"shutdown"}`)), []byte(`{"jsonrpc":"2.0","id":1,"method":7}`))
	f.Add([]byte("Content-Length: 5\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{\"a\":"), []byte("not json"))
	f.Add([]byte("Content-Length: -1\r\n\r\n"), []byte(`[{"jsonrpc":"2.0","method":"x"}]`))
	f.Add([]byte("content-length:3\n\n{}}Content-Length: 2\r\n\r\n{}"), []byte(`{"jsonrpc":"2.0","result":null}`))
	f.Add([]byte("\r\n\r\n"), []byte{0xff, 0xfe, '{'})
	f.Fuzz(func(t *testing.T, raw, body []byte) {
		for _, m := range contentLength.FindAllSubmatch(raw, -1) {
			if n, err := strconv.Atoi(string(m[1])); err != nil || n > 1<<20 {
				t.Skip("declares a frame larger than this target reads")
			}
		}
		readAll(t, raw)
		nextMessageSurvives(t, body)
	})
}

// readAll reads raw to its end. Each Read consumes input, so the loop is
// bounded by the input's length; it must end in an error, not a hang.
func readAll(t *testing.T, raw []byte) {
	rwc := &pipeRWC{in: bytes.NewReader(raw)}
	s := newTolerantStream(rwc, zap.NewNop())
	for i := 0; ; i++ {
		if i > len(raw)+1 {
			t.Fatalf("%d reads from %d bytes: the stream does not consume its input", i, len(raw))
		}
		if _, _, err := s.Read(context.Background()); err != nil {
			break
		}
	}
	parseErrors(t, rwc.out.Bytes())
}

// nextMessageSurvives sends body framed, then the sentinel, and reads to
// the end: the last message must be the sentinel, and the body must have
// become exactly one message or exactly one parse error.
func nextMessageSurvives(t *testing.T, body []byte) {
	if len(body) == 0 {
		return // a zero Content-Length is a broken header, not a bad body
	}
	rwc := &pipeRWC{in: bytes.NewReader(append(frame(body), frame(sentinel)...))}
	s := newTolerantStream(rwc, zap.NewNop())
	var methods []string
	for {
		msg, _, err := s.Read(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("body %q lost the next message: %v", body, err)
		}
		m := "(response)"
		if r, ok := msg.(interface{ Method() string }); ok {
			m = r.Method()
		}
		methods = append(methods, m)
		if len(methods) > 2 {
			t.Fatalf("body %q read as more than one message: %q", body, methods)
		}
	}
	if len(methods) == 0 || methods[len(methods)-1] != "wisp/sentinel" {
		t.Fatalf("body %q: read %q, want the sentinel last", body, methods)
	}
	if replies, decoded := parseErrors(t, rwc.out.Bytes()), len(methods)-1; replies+decoded != 1 {
		t.Fatalf("body %q: %d parse errors and %d messages, want exactly one of the two", body, replies, decoded)
	}
}

// parseErrors decodes everything the stream wrote and checks each frame is
// a parse error answering id null; it returns how many there were.
func parseErrors(t *testing.T, out []byte) int {
	t.Helper()
	r := jsonrpc2.NewHeaderStream(&pipeRWC{in: bytes.NewReader(out)})
	n := 0
	for {
		msg, _, err := r.Read(context.Background())
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			t.Fatalf("the stream wrote a reply that is not a framed message: %v\n%q", err, out)
		}
		resp, ok := msg.(*jsonrpc2.Response)
		var werr *jsonrpc2.Error
		if !ok || !errors.As(resp.Err(), &werr) || werr.Code != jsonrpc2.ParseError || resp.ID() != (jsonrpc2.ID{}) {
			t.Fatalf("the stream wrote %#v, want a parse error with a null id", msg)
		}
		n++
	}
}

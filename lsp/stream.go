package lsp

import (
	"context"
	"errors"
	"io"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// tolerantStream is LSP header framing that survives bad bodies. The
// connection's own reader treats an undecodable frame as fatal; wisp instead
// answers it with a JSON-RPC error (see rejection: a parse error, or an
// invalid request under the request's own id) and reads on, so one
// malformed message never takes the server down.
//
// A broken header is different: the byte stream has lost its framing and
// nothing after it can be trusted, so that still ends the connection.
type tolerantStream struct {
	inner  jsonrpc2.Stream
	frames interface {
		ReadFrame(ctx context.Context) ([]byte, int64, error)
	}
	log *zap.Logger
}

func newTolerantStream(rwc io.ReadWriteCloser, log *zap.Logger) *tolerantStream {
	inner := jsonrpc2.NewHeaderStream(rwc)
	fs, _ := inner.(interface {
		ReadFrame(ctx context.Context) ([]byte, int64, error)
	})
	return &tolerantStream{inner: inner, frames: fs, log: log}
}

// Read returns the next well-formed message. Its borrowing contract is the
// inner stream's: a request's method and params are valid until the next
// Read.
func (s *tolerantStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	if s.frames == nil {
		return s.inner.Read(ctx)
	}
	for {
		body, n, err := s.frames.ReadFrame(ctx)
		if err != nil {
			if errors.Is(err, jsonrpc2.ErrInvalidHeader) {
				s.log.Error("lost LSP framing; closing the connection", zap.Error(err))
			}
			return nil, 0, err
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err == nil {
			return msg, n, nil
		}
		reply := rejection(body, err)
		if reply == nil {
			s.log.Warn("malformed JSON-RPC response ignored", zap.Error(err), zap.Int("bytes", len(body)))
			continue
		}
		s.log.Warn("malformed JSON-RPC message answered with an error",
			zap.Error(err), zap.Int("bytes", len(body)), zap.NamedError("answer", reply.Err()))
		if _, werr := s.inner.Write(ctx, reply); werr != nil {
			return nil, 0, werr
		}
	}
}

// Write frames and writes msg.
func (s *tolerantStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	return s.inner.Write(ctx, msg)
}

// Close closes the underlying connection.
func (s *tolerantStream) Close() error { return s.inner.Close() }

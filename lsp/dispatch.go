package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// codec marshals payloads with the protocol package's union-aware JSON.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case nil:
		return []byte("null"), nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// errServerNotInitialized answers requests that arrive before initialize.
var errServerNotInitialized = jsonrpc2.NewError(-32002, "server not initialized")

// route is how one method is served. Every route has the same shape: a
// typed handler wrapped by request or notification, which decode the
// params; the handler itself takes its snapshot, defers its release, checks
// its context and dispatches.
type route struct {
	// call is true for requests, false for notifications.
	call bool
	// beforeInit marks the methods served before initialize.
	beforeInit bool
	serve      func(s *Server, ctx context.Context, params jsonrpc2.RawMessage) (any, error)
}

// request makes a route for a request with params of type P.
func request[P any](h func(s *Server, ctx context.Context, p *P) (any, error)) route {
	return route{call: true, serve: func(s *Server, ctx context.Context, raw jsonrpc2.RawMessage) (any, error) {
		p := new(P)
		if err := decodeParams(raw, p); err != nil {
			return nil, err
		}
		return h(s, ctx, p)
	}}
}

// notification makes a route for a notification with params of type P.
func notification[P any](h func(s *Server, ctx context.Context, p *P) error) route {
	return route{serve: func(s *Server, ctx context.Context, raw jsonrpc2.RawMessage) (any, error) {
		p := new(P)
		if err := decodeParams(raw, p); err != nil {
			return nil, err
		}
		return nil, h(s, ctx, p)
	}}
}

// decodeParams reads a message's params into p. None, null and an empty
// by-position list ([], which is how Lua clients encode an empty table)
// all mean no params.
func decodeParams(raw jsonrpc2.RawMessage, p any) error {
	if s := bytes.TrimSpace(raw); len(s) == 0 || bytes.Equal(s, []byte("[]")) || bytes.Equal(s, []byte("null")) {
		raw = jsonrpc2.RawMessage("{}")
	}
	if err := protocol.Unmarshal(raw, p); err != nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "invalid params: "+err.Error())
	}
	return nil
}

// withCancel serves $/cancelRequest ahead of the handler chain: it cancels
// the named request's context and never fails the connection, whatever
// the params hold.
func (s *Server) withCancel(next jsonrpc2.Handler, cancel func(jsonrpc2.ID)) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() != protocol.MethodCancelRequest {
			return next(ctx, req)
		}
		var p protocol.CancelParams
		if err := protocol.Unmarshal(req.Params(), &p); err != nil {
			s.log.Warn("ignoring malformed $/cancelRequest", zap.Error(err))
			return nil, nil
		}
		switch id := p.ID.(type) {
		case protocol.Integer:
			cancel(jsonrpc2.NewNumberID(int64(id)))
		case protocol.String:
			cancel(jsonrpc2.NewStringID(string(id)))
		}
		return nil, nil
	}
}

// handle serves one message. It never lets a handler's panic or a
// notification's error reach the connection, which would close it: a
// panic becomes an internal error for a request and a log line for a
// notification (see recovered).
func (s *Server) handle(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
	// The method is borrowed from the read buffer, which the next message
	// overwrites once the handler releases the read loop (Async): the
	// panic report below needs its own copy.
	method := strings.Clone(req.Method())
	isCall := req.IsCall()
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, s.recovered(ctx, method, r)
		}
		if !isCall {
			if err != nil {
				s.log.Warn("notification failed", zap.String("method", method), zap.Error(err))
			}
			result, err = nil, nil
		}
	}()

	r, ok := routes[method]
	if !ok {
		if isCall {
			return nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "method not found: "+method)
		}
		if !strings.HasPrefix(method, "$/") {
			s.log.Debug("ignoring unknown notification", zap.String("method", method))
		}
		return nil, nil
	}
	if r.call != isCall {
		if isCall {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, method+" is a notification, not a request")
		}
		s.log.Warn("ignoring request sent as a notification", zap.String("method", method))
		return nil, nil
	}
	s.mu.Lock()
	st := s.state
	s.mu.Unlock()
	switch {
	case st == stateNew && !r.beforeInit:
		if isCall {
			return nil, errServerNotInitialized
		}
		return nil, nil // notifications before initialize are dropped (spec)
	case st == stateShutdown && method != protocol.MethodExit:
		if isCall {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shutting down")
		}
		return nil, nil
	}
	// The handler may retain params after Async; give it its own copy.
	raw := append(jsonrpc2.RawMessage(nil), req.Params()...)
	result, err = r.serve(s, ctx, raw)
	if err != nil && isCall {
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) {
			err = jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
		}
	}
	return result, err
}

// recovered reports a handler's panic r and returns the error that
// answers its request. The first panic in each method is logged with its
// stack and shown to the user once; later ones in the same method are
// logged on one line at debug level, so a panic on every keystroke does
// not flood the log or the editor. The handlers hold no lock across code
// that can panic (every lock is released by defer or before the call), so
// the next request is served normally.
func (s *Server) recovered(ctx context.Context, method string, r any) error {
	key := "panic in " + method
	s.mu.Lock()
	first := !s.said[key]
	s.said[key] = true
	s.mu.Unlock()
	if first {
		s.log.Error("handler panicked; the server carries on",
			zap.String("method", method), zap.Any("panic", r), zap.ByteString("stack", debug.Stack()))
		s.notify(ctx, protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: protocol.MessageTypeError,
			Message: fmt.Sprintf("wisp: internal error in %s (%v); wisp keeps running, and its log has the details", method, r)})
	} else {
		s.log.Debug("handler panicked again", zap.String("method", method), zap.Any("panic", r))
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("internal error in %s: %v", method, r))
}

// routes maps each method wisp serves to its route.
var routes map[string]route

func init() {
	routes = map[string]route{
		protocol.MethodInitialize:                         beforeInit(request((*Server).initialize)),
		protocol.MethodInitialized:                        notification((*Server).initialized),
		protocol.MethodShutdown:                           {call: true, serve: (*Server).shutdown},
		protocol.MethodExit:                               beforeInit(route{serve: (*Server).exit}),
		protocol.MethodTextDocumentDidOpen:                notification((*Server).didOpen),
		protocol.MethodTextDocumentDidChange:              notification((*Server).didChange),
		protocol.MethodTextDocumentDidClose:               notification((*Server).didClose),
		protocol.MethodTextDocumentDidSave:                notification((*Server).didSave),
		protocol.MethodWorkspaceDidChangeWatchedFiles:     notification((*Server).didChangeWatchedFiles),
		protocol.MethodWorkspaceDidChangeConfiguration:    notification((*Server).didChangeConfiguration),
		protocol.MethodTextDocumentInlineCompletion:       request((*Server).inlineCompletion),
		protocol.MethodTextDocumentCompletion:             request((*Server).completion),
		protocol.MethodTextDocumentCodeAction:             request((*Server).codeAction),
		protocol.MethodWorkspaceExecuteCommand:            request((*Server).executeCommand),
		protocol.MethodWindowWorkDoneProgressCancel:       notification((*Server).workDoneProgressCancel),
		MethodCopilotInlineEdit:                           request((*Server).copilotInlineEdit),
		MethodNextEdit:                                    request((*Server).wispNextEdit),
		MethodDidShowInlineEdit:                           notification((*Server).didShowInlineEdit),
		"wisp/document":                                   request((*Server).document),
		"wisp/stats":                                      request((*Server).stats),
		"wisp/index":                                      request((*Server).index),
		protocol.MethodSetTrace:                           notification(ignore[protocol.SetTraceParams]),
		protocol.MethodWorkspaceDidChangeWorkspaceFolders: notification(ignore[protocol.DidChangeWorkspaceFoldersParams]),
	}
}

func beforeInit(r route) route {
	r.beforeInit = true
	return r
}

func ignore[P any](*Server, context.Context, *P) error { return nil }

package lsp

import (
	"encoding/json"
	"math"

	"go.lsp.dev/jsonrpc2"
)

// rejection is the answer to a frame whose body is not a JSON-RPC message,
// or nil when it must go unanswered.
//
// A body that is not JSON gets a parse error, and JSON that is not an
// object an invalid request error, both under a null id as the
// specification says. An object that is not a valid request (a method that
// is not a string or is missing, a wrong "jsonrpc" version) gets an invalid
// request error under the request's own id when that id can be read, so
// the client's call gets its answer instead of waiting forever. A
// malformed response (result or error, no method) goes unanswered:
// answering a response could start an endless exchange with a client that
// does the same.
func rejection(body []byte, decodeErr error) *jsonrpc2.Response {
	if !json.Valid(body) {
		return jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, jsonrpc2.NewError(jsonrpc2.ParseError, "malformed JSON-RPC message: "+decodeErr.Error()))
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		return jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "invalid request: not a JSON-RPC object (LSP has no batches)"))
	}
	method, hasMethod := obj["method"]
	_, hasResult := obj["result"]
	_, hasError := obj["error"]
	if !hasMethod && (hasResult || hasError) {
		return nil
	}
	why := "invalid request: " + decodeErr.Error()
	switch {
	case !hasMethod:
		why = "invalid request: no method"
	case !isJSONString(method):
		why = "invalid request: method must be a string, not " + clip(string(method), 40)
	case hasResult || hasError:
		why = "invalid request: a message has a method or a result, not both"
	case string(obj["jsonrpc"]) != `"2.0"`:
		why = `invalid request: "jsonrpc" must be "2.0"`
	}
	return jsonrpc2.NewResponse(readableID(obj["id"]), nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, why))
}

// readableID returns the id raw holds if it is a string or an integer, the
// only ids a request may have; otherwise the null id.
func readableID(raw json.RawMessage) jsonrpc2.ID {
	var s string
	if isJSONString(raw) && json.Unmarshal(raw, &s) == nil {
		return jsonrpc2.NewStringID(s)
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil && f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
		return jsonrpc2.NewNumberID(int64(f))
	}
	return jsonrpc2.ID{}
}

// isJSONString reports whether raw, a value json.Unmarshal accepted, is a
// string (json.Unmarshal also accepts null into a string).
func isJSONString(raw json.RawMessage) bool {
	return len(raw) > 0 && raw[0] == '"'
}

// clip returns s cut to at most n bytes, marked when cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

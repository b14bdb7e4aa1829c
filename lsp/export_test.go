package lsp

import "go.lsp.dev/uri"

// SetParseHook makes srv call hook before each parse, outside every lock,
// with the document's URI. Call it before Serve.
func SetParseHook(srv *Server, hook func(u string)) {
	srv.docs.parseHook = func(u uri.URI) { hook(string(u)) }
}

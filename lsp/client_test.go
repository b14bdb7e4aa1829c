package lsp_test

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/client"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/lsp"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/workspace"
)

// fakeEditor is the client side of a real wisp server over a pipe: the
// client package, recording what the server sends and applying every
// edit, with helpers that fail the test on error.
type fakeEditor struct {
	*client.Client
	t    testing.TB
	done chan int // the server's exit code
}

// startServer runs a real lsp.Server on one end of a pipe and returns an
// editor on the other. model is used for every provider.
// setup, if given, configures the server before it serves.
func startServer(t testing.TB, model transport.Model, cfg config.Config, setup ...func(*lsp.Server)) *fakeEditor {
	t.Helper()
	return startServerCtx(t, context.Background(), model, cfg, setup...)
}

// startServerCtx is startServer with the context Serve is given; ending it
// is how a signal stops the server.
func startServerCtx(t testing.TB, ctx context.Context, model transport.Model, cfg config.Config, setup ...func(*lsp.Server)) *fakeEditor {
	t.Helper()
	srv := lsp.New(lsp.Options{
		Log:    zap.NewNop(),
		Config: cfg,
		OpenModel: func(context.Context, config.Model) (transport.Model, error) {
			return nopCloser{model}, nil
		},
		Index: workspace.Options{CacheDir: t.TempDir()},
	})
	for _, f := range setup {
		f(srv)
	}
	return serve(t, ctx, srv)
}

// serve runs srv on one end of a pipe with ctx given to Serve and returns
// an editor on the other; the server must stop when the test ends.
func serve(t testing.TB, ctx context.Context, srv *lsp.Server) *fakeEditor {
	t.Helper()
	serverEnd, clientEnd := net.Pipe()
	e := &fakeEditor{t: t, done: make(chan int, 1)}
	go func() { e.done <- srv.Serve(ctx, serverEnd) }()
	e.Client = client.New(clientEnd, client.Options{Record: true, ApplyEdit: func(json.RawMessage) bool { return true }})
	t.Cleanup(func() {
		// The pipe first: Close waits for the reader, which a blocked
		// write would otherwise hold forever.
		clientEnd.Close()
		e.Close()
		select {
		case <-e.done:
		case <-time.After(10 * time.Second):
			t.Error("server did not stop after the connection closed")
		}
	})
	return e
}

// nopCloser keeps the server from closing a model the test owns.
type nopCloser struct{ transport.Model }

func (nopCloser) Close() error { return nil }

// call sends a request and decodes its result into result (may be nil).
func (e *fakeEditor) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return e.Call(ctx, method, params, result)
}

func (e *fakeEditor) mustCall(method string, params, result any) {
	e.t.Helper()
	if err := e.call(method, params, result); err != nil {
		e.t.Fatal(err)
	}
}

func (e *fakeEditor) notify(method string, params any) {
	e.t.Helper()
	if err := e.Notify(context.Background(), method, params); err != nil {
		e.t.Fatal(err)
	}
}

// initialize sends the initialize params a real client sent, from
// testdata/clients, with initializationOptions replaced if opts is set.
func (e *fakeEditor) initialize(profile string, opts any) map[string]any {
	e.t.Helper()
	return e.initializeWith(profile, opts, nil)
}

// initializeWith is initialize with the client's positionEncodings
// replaced when encodings is not nil. The client's handshake sends
// initialized and speaks the encoding the server chose from then on.
func (e *fakeEditor) initializeWith(profile string, opts any, encodings []string) map[string]any {
	e.t.Helper()
	params := e.clientParams(profile)
	if opts != nil {
		params["initializationOptions"] = opts
	}
	if encodings != nil {
		caps := params["capabilities"].(map[string]any)
		caps["general"] = map[string]any{"positionEncodings": encodings}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	raw, err := e.InitializeWith(ctx, params)
	if err != nil {
		e.t.Fatal(err)
	}
	var result map[string]any
	if err := json.Unmarshal(raw, &result); err != nil {
		e.t.Fatal(err)
	}
	return result
}

// clientParams returns the initialize params a real client sent, from
// testdata/clients.
func (e *fakeEditor) clientParams(profile string) map[string]any {
	e.t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "clients", profile))
	if err != nil {
		e.t.Fatal(err)
	}
	var params map[string]any
	if err := json.Unmarshal(data, &params); err != nil {
		e.t.Fatal(err)
	}
	return params
}

// open opens a document at version 1.
func (e *fakeEditor) open(uri, languageID, content string) {
	e.t.Helper()
	if err := e.Open(context.Background(), uri, languageID, content); err != nil {
		e.t.Fatal(err)
	}
}

// change sends one incremental change replacing the range with s.
func (e *fakeEditor) change(uri string, version int, sl, sc, el, ec int, s string) {
	e.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{
			"range": map[string]any{"start": map[string]any{"line": sl, "character": sc}, "end": map[string]any{"line": el, "character": ec}},
			"text":  s,
		}},
	})
}

// waitFor waits until a notification with method satisfies ok.
func (e *fakeEditor) waitFor(method string, ok func(json.RawMessage) bool) json.RawMessage {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	params, err := e.AwaitNotification(ctx, method, ok)
	if err != nil {
		e.t.Fatal(err)
	}
	return params
}

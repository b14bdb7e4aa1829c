package marker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/client"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/lang"
	"github.com/wisp-lsp/wisp/lsp"
	"github.com/wisp-lsp/wisp/marker"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/modelserver"
	"github.com/wisp-lsp/wisp/transport/provider"
	"github.com/wisp-lsp/wisp/workspace"
)

// session is one case's editor session: a real lsp.Server over a pipe,
// the model server it talks to over the Responses WebSocket, and the
// client on the editor's end.
type session struct {
	*client.Client
	t      *testing.T
	uri    string
	served chan int
	// queries holds what the model server was asked, in order.
	queries *queries
}

// queries records the model server's queries; a modelserver.Backend
// handing each to the script `wisp model-server --script` uses.
type queries struct {
	modelserver.Backend
	mu   sync.Mutex
	list []modelserver.Query // guarded by mu
}

func (q *queries) Generate(ctx context.Context, query modelserver.Query, yield func(string) bool) error {
	q.mu.Lock()
	q.list = append(q.list, query)
	q.mu.Unlock()
	return q.Backend.Generate(ctx, query, yield)
}

// edit returns the last quick-edit query, false if none came.
func (q *queries) edit() (modelserver.Query, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, query := range slices.Backward(q.list) {
		if query.Instruction != "" {
			return query, true
		}
	}
	return modelserver.Query{}, false
}

// languageID is the languageId an editor sends for the file name: the
// language table's first id for its extension, "" for a language wisp
// does not know.
func languageID(name string) string {
	if l := lang.Detect("", name); l != nil {
		return l.IDs[0]
	}
	return ""
}

// start serves one case: the model server answers every query with the
// case's reply, wisp is configured (as a trusted layer, like `wisp serve
// --set`) to reach it, and the case's document is open in an editor that
// offers the position encoding enc ("utf-8", or "utf-16" as VS Code).
func start(t *testing.T, c *marker.Case, enc string) *session {
	t.Helper()
	f, err := c.Doc()
	if err != nil {
		t.Fatal(err)
	}
	reply, ok := c.Section("reply")
	if !ok {
		t.Fatal("the case has no reply section")
	}
	if _, edit := c.Section("instruction"); !edit {
		reply, _ = c.Fragment("reply")
	}
	q := &queries{Backend: modelserver.ScriptBackend{Script: &modelserver.Script{Replies: []modelserver.Reply{{Text: reply}}}}}
	ms := modelserver.New(modelserver.Options{Backend: q})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go ms.Serve(l)
	t.Cleanup(ms.Close)

	cfg, _, err := config.Default().Override([]string{"model.provider=" + config.ProviderOpenAIWS,
		"model.endpoint=ws://" + l.Addr().String() + "/v1/responses", "model.model=marker"}, "marker test")
	if err != nil {
		t.Fatal(err)
	}
	srv := lsp.New(lsp.Options{Log: zap.NewNop(), Config: cfg, Index: workspace.Options{CacheDir: t.TempDir()},
		OpenModel: func(_ context.Context, m config.Model) (transport.Model, error) {
			// No environment: the user's API key has no business here.
			return provider.Open(m, func(string) string { return "" }, nil)
		}})
	serverEnd, clientEnd := net.Pipe()
	s := &session{t: t, uri: "file:///markers/" + f.Name, served: make(chan int, 1), queries: q}
	go func() { s.served <- srv.Serve(context.Background(), serverEnd) }()
	s.Client = client.New(clientEnd, client.Options{Record: true, PositionEncodings: []string{enc},
		ApplyEdit: func(json.RawMessage) bool { return true }})
	t.Cleanup(s.close)

	ctx := s.ctx()
	if _, err := s.Initialize(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got := s.Encoding().String(); got != enc {
		t.Fatalf("the server chose %s where the editor offered only %s", got, enc)
	}
	if err := s.Open(ctx, s.uri, languageID(f.Name), f.Text); err != nil {
		t.Fatal(err)
	}
	return s
}

// ctx bounds one request: a hang fails the case instead of the run.
func (s *session) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	s.t.Cleanup(cancel)
	return ctx
}

// close ends the session as an editor does, and waits for the server.
func (s *session) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		s.t.Errorf("shutdown: %v", err)
	}
	select {
	case code := <-s.served:
		if code != 0 {
			s.t.Errorf("the server exited %d after shutdown and exit", code)
		}
	case <-ctx.Done():
		s.t.Error("the server did not stop after exit")
	}
	s.Close()
}

// complete asks for the inline completion at the cursor, as VS Code does,
// and returns the text the item inserts there; ok is false when there is
// no item. An item that does more than insert at the cursor (a range
// elsewhere, text that rewrites the line) is a placement error.
func (s *session) complete(cursor int) (got string, ok bool, err error) {
	items, err := s.InlineItems(s.ctx(), s.uri, cursor)
	if err != nil || len(items) == 0 {
		return "", false, err
	}
	it := items[0]
	src := s.Text(s.uri).String()
	after := src[:it.Start] + it.Text + src[it.End:]
	before, rest := src[:cursor], src[cursor:]
	if !strings.HasPrefix(after, before) || !strings.HasSuffix(after[len(before):], rest) {
		return "", false, fmt.Errorf("the item replaces bytes %d-%d with %q: that is not an insertion at the cursor (%d)",
			it.Start, it.End, it.Text, cursor)
	}
	return after[len(before) : len(after)-len(rest)], true, nil
}

// edit runs the quick edit of [start, end) and returns the edits the
// server applied, or the error it showed.
func (s *session) edit(start, end int, instruction string) ([]marker.Edit, error) {
	if err := s.QuickEdit(s.ctx(), s.uri, start, end, instruction); err != nil {
		return nil, err
	}
	var out []marker.Edit
	for _, raw := range s.Requests("workspace/applyEdit") {
		es, err := parseApplyEdit(s.Text(s.uri), s.uri, raw, s.Encoding())
		if err != nil {
			return nil, err
		}
		out = append(out, es...)
	}
	if len(out) > 0 {
		return out, nil
	}
	for _, raw := range s.Notifications("window/showMessage") {
		var m struct {
			Type    int    `json:"type"`
			Message string `json:"message"`
		}
		if json.Unmarshal(raw, &m) == nil && m.Type == 1 {
			return nil, fmt.Errorf("%s", strings.TrimPrefix(m.Message, "wisp: "))
		}
	}
	return nil, nil // the edit changed nothing
}

// parseApplyEdit reads a workspace/applyEdit's edits to uri, in the
// positions of the encoding enc.
func parseApplyEdit(doc *text.Text, uri string, raw json.RawMessage, enc text.Encoding) ([]marker.Edit, error) {
	type textEdit struct {
		Range   text.Range `json:"range"`
		NewText string     `json:"newText"`
	}
	var p struct {
		Edit struct {
			Changes         map[string][]textEdit `json:"changes"`
			DocumentChanges []struct {
				TextDocument struct {
					URI string `json:"uri"`
				} `json:"textDocument"`
				Edits []textEdit `json:"edits"`
			} `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("workspace/applyEdit %s: %w", raw, err)
	}
	tes := p.Edit.Changes[uri]
	for _, dc := range p.Edit.DocumentChanges {
		if dc.TextDocument.URI == uri {
			tes = append(tes, dc.Edits...)
		}
	}
	var out []marker.Edit
	for _, te := range tes {
		start, end, err := doc.Span(te.Range, enc)
		if err != nil {
			return nil, fmt.Errorf("edit range %+v: %w", te.Range, err)
		}
		out = append(out, marker.Edit{Start: start, End: end, Text: te.NewText})
	}
	return out, nil
}

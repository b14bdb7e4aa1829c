package lsp_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport/modelserver"
	"github.com/wisp-lsp/wisp/transport/provider"
)

// doubtingBackend answers add.go's empty body with "return a + b",
// unsure of its " +" (the runner-up " -"), and a prompt that ends with
// the runner-up with " b" — or, with stall set, not until it is
// cancelled. It records every prompt.
type doubtingBackend struct {
	log   *promptLog
	stall bool
}

func (b doubtingBackend) Generate(ctx context.Context, q modelserver.Query, yield func(string) bool) error {
	return b.GenerateScored(ctx, q, func(s modelserver.Scored) bool { return yield(s.Token) })
}

func (b doubtingBackend) GenerateScored(ctx context.Context, q modelserver.Query, yield func(modelserver.Scored) bool) error {
	b.log.mu.Lock()
	b.log.prefixes = append(b.log.prefixes, q.Prefix)
	b.log.mu.Unlock()
	sure := math.Log(0.97)
	tokens := []modelserver.Scored{{Token: "return", Logprob: sure}, {Token: " a", Logprob: sure},
		{Token: " +", Logprob: math.Log(0.4), Top: []modelserver.Alternative{{Token: " +", Logprob: math.Log(0.4)}, {Token: " -", Logprob: math.Log(0.35)}}},
		{Token: " b", Logprob: sure}}
	if strings.HasSuffix(q.Prefix, "return a -") {
		if b.stall {
			<-ctx.Done()
			return nil
		}
		tokens = []modelserver.Scored{{Token: " b", Logprob: sure}}
	}
	for _, tok := range tokens {
		if ctx.Err() != nil || !yield(tok) {
			return nil
		}
	}
	return nil
}

// scoringProviders are the providers that read token scores, each with
// the endpoint path the model server serves its wire on.
var scoringProviders = []struct{ name, provider, path string }{
	{"openai-ws", "openai-ws", "/v1/responses"},
	{"openai chat", "openai", "/v1/chat/completions"},
	{"openai completions", "openai", "/v1/completions"},
	{"fim llama.cpp infill", "fim", "/infill"},
	{"fim completions", "fim", "/v1/completions"},
}

// branching opens add.go with completion.unsure "branch" and takes the
// first suggestion, trimmed before the doubted " +", once the branch for
// the runner-up has reached the model (the openai-ws provider).
func branching(t *testing.T, stall bool) (*modelserver.Server, *fakeEditor, string, *promptLog) {
	t.Helper()
	return branchingOver(t, stall, "openai-ws", "/v1/responses")
}

// branchingOver is branching with the given provider, at path on the
// model server.
func branchingOver(t *testing.T, stall bool, providerName, path string) (*modelserver.Server, *fakeEditor, string, *promptLog) {
	t.Helper()
	rec := &promptLog{}
	ms := modelserver.New(modelserver.Options{Backend: doubtingBackend{log: rec, stall: stall}})
	scheme := "http://"
	if providerName == "openai-ws" {
		scheme = "ws://"
	}
	model, err := provider.Open(config.Model{Provider: providerName, Endpoint: scheme + listenModel(t, ms, "127.0.0.1:0") + path, Model: "test"},
		func(string) string { return "" }, zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })
	cfg := countingConfig()
	cfg.Completion.Unsure = config.UnsureBranch
	cfg.Completion.FirstTokenTimeout = time.Minute
	e := startServer(t, model, cfg)
	e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", nil)
	uri := "file:///tmp/add.go"
	e.open(uri, "go", addGo)
	if got, err := e.inline(context.Background(), uri, 3, 1); err != nil || got != "return a " {
		t.Fatalf("first suggestion %q, %v; want it to end before the doubted token", got, err)
	}
	waitModel(t, ms, "the branch's request", func(st modelserver.Stats) bool { return st.Requests == 2 })
	return ms, e, uri, rec
}

// Typing the model's runner-up is answered from the branch: no new model
// request, over every provider that reads token scores.
func TestRunnerUpServedByBranch(t *testing.T) {
	for _, p := range scoringProviders {
		t.Run(p.name, func(t *testing.T) { runnerUpServedByBranch(t, p.provider, p.path) })
	}
}

func runnerUpServedByBranch(t *testing.T, providerName, path string) {
	ms, e, uri, rec := branchingOver(t, false, providerName, path)
	for i, ch := range "return a -" {
		e.change(uri, i+2, 3, 1+i, 3, 1+i, string(ch))
	}
	if got, err := e.inline(context.Background(), uri, 3, 11); err != nil || got != " b" {
		t.Fatalf("after the runner-up: %q, %v; want \" b\" from the branch", got, err)
	}
	if st := ms.Stats(); st.Requests != 2 {
		t.Fatalf("the model had %d requests, want 2 (the suggestion and its branch)", st.Requests)
	}
	if n := rec.asked("return a -"); n != 1 {
		t.Fatalf("the model was asked %d times after the runner-up, want once (the branch)", n)
	}
	if st := e.engineStats(); st.Branches != 1 || st.BranchesUsed != 1 {
		t.Fatalf("engine stats %+v: want the branch used", st)
	}
}

// Typing the model's own choice stops the branch at the model.
func TestModelsChoiceStopsBranch(t *testing.T) {
	ms, e, uri, _ := branching(t, true)
	for i, ch := range "return a +" {
		e.change(uri, i+2, 3, 1+i, 3, 1+i, string(ch))
	}
	waitModel(t, ms, "the branch's cancel", func(st modelserver.Stats) bool { return st.Cancels == 1 })
	if got, err := e.inline(context.Background(), uri, 3, 11); err != nil || got != " b" {
		t.Fatalf("after the model's choice: %q, %v; want \" b\" from the first stream", got, err)
	}
	if st := e.engineStats(); st.Branches != 1 || st.BranchesUsed != 0 {
		t.Fatalf("engine stats %+v: want one branch, unused", st)
	}
}

// A change that follows neither stops the branch before the user's own
// request is sent, which is answered as usual.
func TestBranchYieldsToTheUsersRequest(t *testing.T) {
	ms, e, uri, _ := branching(t, true)
	e.change(uri, 2, 3, 1, 3, 1, "x")
	if got, err := e.inline(context.Background(), uri, 3, 2); err != nil || got == "" {
		t.Fatalf("the user's request: %q, %v; want an answer", got, err)
	}
	st := waitModel(t, ms, "the user's request", func(st modelserver.Stats) bool { return st.Requests >= 3 })
	if st.Cancels < 1 {
		t.Fatalf("model stats %+v: want the branch cancelled", st)
	}
	if st := e.engineStats(); st.BranchesUsed != 0 {
		t.Fatalf("engine stats %+v: want the branch unused", st)
	}
}

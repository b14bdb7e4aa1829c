package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// The idle run measures the first request after a pause with the model
// server's prompt-cache model on: each trace types a few keys (every key a
// fresh request: typed-ahead reuse is off, so nothing hides the model),
// pauses longer than the cache keeps a prompt, then types one more key;
// the figures are that key's time to its first ghost text (the first
// partial, or the response if it came first: what TTFT, prefill and the
// network cost) and to its response (which also holds the generation's
// length, up to a line or a block). With warm-ups on, wisp reads the last
// prompt into the cache again while the user pauses.

// idleKnobs: 40 ms per 1,000 uncached prompt tokens, prompts forgotten
// after 2 s unused; the pause is 4 s, and wisp warms after 1 s idle.
const (
	idleUncached = 40 * time.Millisecond
	idleTTL      = 2 * time.Second
	idlePause    = 4 * time.Second
	idleWarm     = time.Second
	idleKeys     = 3
)

// idleResult is one idle configuration's figures.
type idleResult struct {
	Name string `json:"name"`
	// AfterIdle is the time from the key after the pause to its response;
	// FirstGhost to its first ghost text.
	AfterIdle  dist `json:"afterIdleMs"`
	FirstGhost dist `json:"afterIdleFirstGhostMs"`
	// UncachedPerPrompt is the model server's uncached prompt tokens per
	// prompt read (generations and warm-ups) over the whole run.
	UncachedPerPrompt float64           `json:"uncachedTokensPerPrompt"`
	Warmups           int64             `json:"warmups"`
	Model             modelserver.Stats `json:"modelServer"`
}

// idleRun runs the idle measurement with warm-ups on or off.
func (e env) idleRun(ctx context.Context, warm bool, traces []trace, workspace string) (idleResult, error) {
	s := setup{Name: "after idle, warm-up off", Provider: "openai-ws", NoReuse: true, Streaming: true}
	if warm {
		s.Name, s.WarmAfterIdle = "after idle, warm-up on", idleWarm
	}
	res := idleResult{Name: s.Name}
	knobs := e.knobs
	knobs.UncachedPer1K, knobs.CacheTTL = idleUncached, idleTTL
	ms, err := startModelServer(e.bin, workspace, e.home, knobs)
	if err != nil {
		return res, err
	}
	defer ms.stop()
	sess, _, err := openSession(ctx, e.bin, e.home, s.options(), s.flags(ms.addr)...)
	if err != nil {
		return res, err
	}
	defer sess.close(ctx)
	var after, first []float64
	for i, t := range traces {
		uri := fmt.Sprintf("file:///bench/idle/%d/%s", i, t.Path)
		if err := sess.c.Open(ctx, uri, t.Lang, t.Full[:t.Cut]); err != nil {
			return res, err
		}
		for n := 0; n <= idleKeys; n++ {
			if n == idleKeys {
				if err := sleepUntil(ctx, time.Now().Add(idlePause)); err != nil {
					return res, err
				}
			}
			off := t.Cut + n
			v, err := sess.c.Replace(ctx, uri, off, off, t.Typed[n:n+1])
			if err != nil {
				return res, err
			}
			start := time.Now()
			if _, err := sess.c.InlineCompletion(ctx, uri, off+1); err != nil {
				return res, fmt.Errorf("%s: %w", s.Name, err)
			}
			done := time.Now()
			if n == idleKeys {
				after = append(after, ms64(done.Sub(start)))
				sess.mu.Lock()
				if g := sess.ghosts[fmt.Sprintf("%s@%d", uri, v)]; g != nil && g.first.Before(done) {
					done = g.first
				}
				sess.mu.Unlock()
				first = append(first, ms64(done.Sub(start)))
			} else if err := sleepUntil(ctx, start.Add(e.key)); err != nil {
				return res, err
			}
		}
		sess.c.Notify(ctx, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	}
	res.AfterIdle, res.FirstGhost = summarize(after), summarize(first)
	st, err := sess.stats(ctx)
	if err != nil {
		return res, err
	}
	res.Warmups = st.Warmups
	if res.Model, err = ms.stats(); err != nil {
		return res, err
	}
	if res.Model.Requests > 0 {
		res.UncachedPerPrompt = float64(res.Model.UncachedTokens) / float64(res.Model.Requests+res.Model.Warmups)
	}
	return res, nil
}

// writeIdle prints the idle run's figures.
func writeIdle(w io.Writer, rs []idleResult) {
	if len(rs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n| first request after a %s pause (prompt cache: %s per 1k uncached tokens, %s TTL) | first ghost p50/p95 ms | response p50/p95 ms | uncached tokens per prompt read | warm-ups |\n",
		idlePause, idleUncached, idleTTL)
	fmt.Fprintln(w, "|---|---|---|---:|---:|")
	for _, r := range rs {
		fmt.Fprintf(w, "| %s | %.1f / %.1f (n=%d) | %.1f / %.1f (n=%d) | %.0f | %d |\n", r.Name, r.FirstGhost.P50, r.FirstGhost.P95, r.FirstGhost.N,
			r.AfterIdle.P50, r.AfterIdle.P95, r.AfterIdle.N, r.UncachedPerPrompt, r.Warmups)
	}
}

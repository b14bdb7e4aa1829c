package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// env is what every run shares.
type env struct {
	bin       string     // the wisp binary
	home      string     // XDG_CONFIG_HOME for children: no user config
	workspace string     // the model server's corpus for the traces
	knobs     modelKnobs // the model server's pacing
	key       time.Duration
	settle    time.Duration // pause after opening a file, before typing
}

// dist summarises a latency distribution in milliseconds.
type dist struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
}

func summarize(ms []float64) dist {
	if len(ms) == 0 {
		return dist{}
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	at := func(q float64) float64 { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return dist{N: len(s), P50: at(0.50), P95: at(0.95), P99: at(0.99)}
}

// result is one configuration's figures.
type result struct {
	Setup setup `json:"setup"`
	Keys  int   `json:"keys"`
	// ShownInTime is the share of keys whose correct ghost text was on
	// screen before the next key; ShownAny counts any ghost text.
	ShownInTime float64 `json:"shownInTime"`
	ShownAny    float64 `json:"shownAny"`
	// FirstGhost and Complete are client-side latencies of the requests
	// that showed text before the next key.
	FirstGhost dist `json:"firstGhostMs"`
	Complete   dist `json:"completeMs"`
	// Overhead is, per generation, the time from the key that started it
	// to its first ghost text on screen, minus the model's share;
	// OverheadComplete is complete-suggestion latency minus the model's
	// share over keys whose own request started a generation and answered
	// before the next key.
	Overhead dist `json:"overheadMs"`
	// AfterUse is, each time a suggestion runs out (the key that types
	// its last character), the time to the next ghost text: that key's
	// request's, or the next key's (the line break after a line); a
	// suggestion after which neither showed text counts as a miss, above
	// every sample.
	AfterUse       dist `json:"afterUseMs"`
	AfterUseMisses int  `json:"afterUseMisses"`
	// CharsPerKey is the text the keys put in the file, in bytes per
	// key: 1 for a user who types every character, more for one who
	// accepts suggestions (setup.Accept).
	CharsPerKey float64 `json:"charsPerKey"`
	// WastedShare is the share of generated tokens (deltas wisp received)
	// that speculation and look-ahead produced and nothing showed.
	WastedShare      float64           `json:"wastedShare"`
	OverheadComplete dist              `json:"overheadCompleteMs"`
	RequestsPer100   float64           `json:"modelRequestsPer100Keys"`
	ReuseShare       float64           `json:"typedAheadOrCacheShare"`
	AfterCancelShare float64           `json:"tokensAfterCancelShare"`
	CPUPerKeyMs      float64           `json:"cpuMsPerKey"`
	RSSMB            float64           `json:"rssMB"`
	InitMs           float64           `json:"initializeMs"`
	Model            modelserver.Stats `json:"modelServer"`
	Engine           engineStats       `json:"engine"`
	// Misses counts the keys without correct ghost text in time by
	// reason (see classifyMisses).
	Misses map[string]int `json:"misses"`
	// FirstGhostMs holds every sample, for the CDF.
	FirstGhostMs []float64 `json:"firstGhostSamplesMs"`
	Notes        []string  `json:"notes,omitempty"`
}

// run drives one configuration over the traces, in a fresh wisp process
// talking to a fresh model server.
func (e env) run(ctx context.Context, s setup, traces []trace, workspace string, opened []openFile) (result, error) {
	res := result{Setup: s}
	knobs := e.knobs
	knobs.Accuracy = s.Accuracy
	if s.Calibration != nil {
		knobs.Calibration = *s.Calibration
	}
	ms, err := startModelServer(e.bin, workspace, e.home, knobs)
	if err != nil {
		return res, err
	}
	defer ms.stop()
	sess, initTime, err := openSession(ctx, e.bin, e.home, s.options(), s.flags(ms.addr)...)
	if err != nil {
		return res, err
	}
	defer sess.close(ctx)
	res.InitMs = ms64(initTime)
	pid := sess.proc.Pid()
	for _, f := range opened {
		if err := sess.c.Open(ctx, f.uri, "go", f.text); err != nil {
			return res, err
		}
	}
	var keys []keystroke
	var cpu time.Duration
	for i, t := range traces {
		before, err := cpuTime(pid)
		if err != nil {
			return res, err
		}
		k, err := sess.typeTrace(ctx, t, fmt.Sprintf("file:///bench/%d/%s", i, t.Path), e.key, e.settle, s.Accept)
		if err != nil {
			return res, fmt.Errorf("%s on %s: %w (wisp stderr: %.2000s)", s.Name, t.Name, err, sess.proc.Stderr())
		}
		after, err := cpuTime(pid)
		if err != nil {
			return res, err
		}
		cpu += after - before
		for _, why := range classifyMisses(k, e.knobs.TTFT+2*e.knobs.Delay, e.key) {
			if why != "" {
				if res.Misses == nil {
					res.Misses = map[string]int{}
				}
				res.Misses[why]++
			}
		}
		keys = append(keys, k...)
	}
	rss, err := rssBytes(pid)
	if err != nil {
		return res, err
	}
	if res.Engine, err = sess.stats(ctx); err != nil {
		return res, err
	}
	if res.Model, err = ms.stats(); err != nil {
		return res, err
	}
	res.RSSMB = float64(rss) / (1 << 20)
	e.fill(&res, keys, cpu)
	return res, nil
}

// openFile is a document opened before typing starts (the scale run).
type openFile struct{ uri, text string }

// fill computes res's figures from the keystrokes.
//
// The model's share of a latency comes from the model server's knobs:
// the request reaches it Delay after it is sent (plus another Delay for
// a new connection's handshake, which counts as transport overhead, not
// the model's), its first token is due TTFT after that, each further token
// 1/Rate later, and every frame reaches the client Delay after it is due.
// So first ghost text costs the model TTFT + 2·Delay, and a complete
// suggestion of n tokens TTFT + 2·Delay + (n-1)/Rate; the rest is wisp's
// overhead (and the client's and the pipes', which are part of what an
// editor would feel).
func (e env) fill(res *result, keys []keystroke, cpu time.Duration) {
	res.Keys = len(keys)
	if res.Keys == 0 {
		return
	}
	firstShare := e.knobs.TTFT + 2*e.knobs.Delay
	var first, complete, over, overC []float64
	shown, any := 0, 0
	for _, k := range keys {
		if k.Correct {
			shown++
		}
		if k.Shown != "" {
			any++
		}
		if k.FirstGhost > 0 {
			first = append(first, ms64(k.FirstGhost))
		}
		if k.ModelBound > 0 {
			over = append(over, ms64(k.ModelBound-firstShare))
		}
		if k.Complete > 0 {
			complete = append(complete, ms64(k.Complete))
			if k.Fresh {
				share := firstShare
				if e.knobs.Rate > 0 && k.Tokens > 1 {
					share += time.Duration(float64(k.Tokens-1) / e.knobs.Rate * float64(time.Second))
				}
				overC = append(overC, ms64(k.Complete-share))
			}
		}
	}
	var after []float64
	for i, k := range keys {
		if !k.UsedUp || i+1 >= len(keys) {
			continue
		}
		got := missed
		for _, next := range keys[i+1 : min(i+3, len(keys))] {
			if next.FirstGhost > 0 {
				got = ms64(next.FirstGhost)
				break
			}
		}
		if got == missed {
			res.AfterUseMisses++
		}
		after = append(after, got)
	}
	res.AfterUse = summarize(after)
	if res.Engine.Tokens > 0 {
		res.WastedShare = float64(res.Engine.SpeculativeWastedTokens+res.Engine.LookAheadWastedTokens+res.Engine.BranchWastedTokens) / float64(res.Engine.Tokens)
	}
	n := float64(res.Keys)
	written := 0
	for _, k := range keys {
		written += len(k.Key)
	}
	res.CharsPerKey = float64(written) / n
	res.ShownInTime = float64(shown) / n
	res.ShownAny = float64(any) / n
	res.FirstGhost, res.Complete = summarize(first), summarize(complete)
	res.Overhead, res.OverheadComplete = summarize(over), summarize(overC)
	res.FirstGhostMs = first
	res.RequestsPer100 = float64(res.Model.Requests) / n * 100
	if res.Engine.Queries > 0 {
		res.ReuseShare = float64(res.Engine.FromTypedAhead+res.Engine.FromCache) / float64(res.Engine.Queries)
	}
	// Of the tokens the model produced, those after their cancel arrived
	// (never sent): a share, whatever the configuration. Over the tokens
	// sent it is not one: a configuration whose generations are nearly all
	// cancelled (no streaming) sends fewer tokens than it was cancelled
	// on.
	if produced := res.Model.Tokens + res.Model.TokensAfterCancel; produced > 0 {
		res.AfterCancelShare = float64(res.Model.TokensAfterCancel) / float64(produced)
	}
	res.CPUPerKeyMs = ms64(cpu) / n
	s := res.Setup
	if s.NewConn && res.Model.Connections < res.Model.Requests/2 {
		res.Notes = append(res.Notes, fmt.Sprintf("model.newConnPerRequest not honoured (%d connections for %d requests): measured keep-alive", res.Model.Connections, res.Model.Requests))
	}
	if s.NoReuse && res.Engine.FromTypedAhead > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("completion.typedAhead=false not honoured (%d typed-ahead answers): measured with reuse on", res.Engine.FromTypedAhead))
	}
}

// missed stands for a suggestion after which no ghost text came: above
// every sample (and, unlike +Inf, encodable as JSON).
const missed = math.MaxFloat64

func ms64(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// scaleRun opens count files of lines lines in one wisp and types keys
// characters at scaleKey per key into the first, the files stitched from
// the Go sources under goSrc. They are written to dir, which the model
// server indexes.
func (e env) scaleRun(ctx context.Context, goSrc, dir string, count, lines, keys int, scaleKey time.Duration) (result, error) {
	files, err := scaleFiles(goSrc, count, lines)
	if err != nil {
		return result{}, err
	}
	corpus := map[string]string{}
	var opened []openFile
	for i, f := range files {
		name := fmt.Sprintf("scale%03d.go", i)
		corpus[name] = f
		if i > 0 {
			opened = append(opened, openFile{uri: "file:///bench/scale/" + name, text: f})
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return result{}, fmt.Errorf("scale workspace: %w", err)
	}
	if err := writeWorkspace(dir, corpus); err != nil {
		return result{}, err
	}
	cut := cutPoint(files[0], 0.6)
	t := trace{Name: "scale000.go", Path: filepath.Join("scale", "scale000.go"), Lang: "go", Full: files[0], Cut: cut,
		Typed: files[0][cut : cut+byteLenOfRunes(files[0][cut:], keys)]}
	se := e
	se.key = scaleKey
	s := setup{Name: fmt.Sprintf("scale: %d files, %dk lines, %.0f keys/s", count, count*lines/1000, float64(time.Second)/float64(scaleKey)),
		Provider: "openai-ws", Streaming: true}
	return se.run(ctx, s, []trace{t}, dir, opened)
}

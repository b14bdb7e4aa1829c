package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestQuick runs the whole harness in --quick mode against a freshly
// built wisp, so it cannot rot: every configuration must appear with
// keystrokes, ghost text must actually be shown, and the numbers must be
// sane.
func TestQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs wisp")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	f, err := parseFlags([]string{"--quick"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	var progress bytes.Buffer
	rs, _, err := runAll(ctx, f, &progress)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, progress.String())
	}
	var table bytes.Buffer
	writeTable(&table, rs)
	for _, s := range setups {
		if !strings.Contains(table.String(), "| "+s.Name+" |") {
			t.Errorf("table lacks configuration %s:\n%s", s.Name, table.String())
		}
	}
	if len(rs) != len(setups)+1 || !strings.HasPrefix(rs[len(rs)-1].Setup.Name, "scale") {
		t.Fatalf("got %d results, want every configuration and the scale run", len(rs))
	}
	for _, r := range rs {
		// A request the next key cancels before the server reads it never
		// reaches the engine, so queries may fall short of keys (at 50
		// keys/s they do); they can never exceed them (plus the stats call).
		if r.Keys == 0 || r.InitMs <= 0 || r.RSSMB <= 1 || r.Model.Requests == 0 || r.Engine.Queries == 0 || r.Engine.Queries > int64(r.Keys)+1 {
			t.Errorf("%s: implausible figures: keys %d, initialize %.2f ms, RSS %.1f MB, model requests %d, queries %d",
				r.Setup.Name, r.Keys, r.InitMs, r.RSSMB, r.Model.Requests, r.Engine.Queries)
		}
		if r.ShownInTime > r.ShownAny || r.ShownAny > 1 || r.AfterCancelShare > 1 {
			t.Errorf("%s: shares out of range: %+v", r.Setup.Name, r)
		}
		if r.Setup.Accept && r.AfterUse.N > 0 && r.CharsPerKey <= 1 {
			t.Errorf("%s: %d accepts, yet %.2f bytes a key: the accepts inserted nothing", r.Setup.Name, r.AfterUse.N, r.CharsPerKey)
		}
		if r.FirstGhost.N > 0 && (r.FirstGhost.P50 > r.FirstGhost.P99 || r.FirstGhost.P50 <= 0) {
			t.Errorf("%s: first ghost percentiles out of order: %+v", r.Setup.Name, r.FirstGhost)
		}
	}
	// Whether ghost text beats the next key depends on how fast this
	// machine is, so the test asks only that the model's text reached
	// wisp; how often it is shown in time is the benchmark's figure.
	ws := find(rs, "ws")
	if ws.Model.Tokens == 0 || ws.Engine.Tokens == 0 {
		t.Errorf("ws: the model's text never reached wisp (model server sent %d tokens, engine received %d deltas)\n%s",
			ws.Model.Tokens, ws.Engine.Tokens, table.String())
	}
	var svg bytes.Buffer
	if err := writeCDF(&svg, rs); err != nil || !strings.Contains(svg.String(), "<polyline") {
		t.Errorf("CDF plot has no curves (err %v)", err)
	}
}

func TestFirstLine(t *testing.T) {
	for s, want := range map[string]string{"": "", "ab": "ab", "ab\ncd": "ab", "\nab\ncd": "\nab", "\n": "\n"} {
		if got := firstLine(s); got != want {
			t.Errorf("firstLine(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestCorrect(t *testing.T) {
	for _, c := range []struct {
		shown, next string
		want        bool
	}{
		{"", "abc", false},
		{"ab", "abc", true},
		{"abcd", "abc", true},
		{"abd", "abc", false},
	} {
		if got := correct(c.shown, c.next); got != c.want {
			t.Errorf("correct(%q, %q) = %v, want %v", c.shown, c.next, got, c.want)
		}
	}
}

// Each missed key gets the reason that applies first; keys shown right
// get none.
func TestClassifyMisses(t *testing.T) {
	ok := keystroke{Shown: "x", Correct: true}
	keys := []keystroke{
		{Asked: true, Key: "a"},  // 0: first key
		ok,                       // 1
		{Shown: "y", Key: "b"},   // 2: wrong ghost
		{Asked: true, Key: "c"},  // 3: the user diverged from it: a new request
		{Key: "d"},               // 4: still within the round trip
		{Key: "e"},               // 5: past it: nothing to show
		{Asked: true, Key: "\n"}, // 6: a line break asks
		{Shown: "z", Correct: true, UsedUp: true, Key: "f"},
		{Asked: true, Key: "g"},                      // 8: after a used-up suggestion
		{Asked: true, Key: "h"},                      // 9: some other request
		{Shown: "i\nj", LineCorrect: true, Key: "i"}, // 10: wrong past the line only
	}
	want := []string{missFirst, "", missWrong, missAfterWrong, missAfterWrong, missNothing, missAfterBreak, "", missAfterUsedUp, missRoundTripElse, missWrongLater}
	got := classifyMisses(keys, 140*time.Millisecond, 80*time.Millisecond)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("key %d: %q, want %q", i, got[i], want[i])
		}
	}
}

// Typed-ahead reuse is judged against a run without it in which no ghost
// text came before the next key: that is no latency to beat, and reuse,
// which shows text, meets the target if it asks the model less.
func TestJudgeReuseAgainstNoGhostText(t *testing.T) {
	ws := result{Setup: setup{Name: "ws"}, RequestsPer100: 3.3, ShownInTime: 0.95, FirstGhost: dist{N: 200, P50: 0.4}}
	off := result{Setup: setup{Name: "ws-nostream-noreuse"}, RequestsPer100: 100}
	for _, c := range []struct {
		off  result
		want bool
	}{
		{off, true},
		{result{Setup: off.Setup, RequestsPer100: 100, FirstGhost: dist{N: 10, P50: 0.2}}, false},
		{result{Setup: off.Setup, RequestsPer100: 4}, false},
	} {
		var got *target
		for _, tg := range judge([]result{ws, c.off}) {
			if strings.HasPrefix(tg.Name, "typed-ahead reuse") {
				got = &tg
			}
		}
		if got == nil || got.Met != c.want {
			t.Errorf("off %+v: verdict %+v, want met=%v", c.off.FirstGhost, got, c.want)
		}
	}
}

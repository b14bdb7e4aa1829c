package main

import (
	"fmt"
	"io"
	"strings"
)

// writeTable prints the results as a markdown table, then the notes.
func writeTable(w io.Writer, rs []result) {
	fmt.Fprintln(w, "| configuration | keys | shown in time | any ghost | first ghost p50/p95/p99 ms | complete p50/p95/p99 ms | overhead p50/p95/p99 ms | after use p50/p95 ms | model req /100 keys | speculative used/started | branches used/started | wasted tokens | typed-ahead+cache | tokens after cancel | CPU ms/key | RSS MB | initialize ms |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rs {
		fmt.Fprintf(w, "| %s | %d | %.1f%% | %.1f%% | %s | %s | %s | %s | %.1f | %d+%d/%d | %d/%d | %.1f%% | %.1f%% | %.2f%% | %.2f | %.1f | %.1f |\n",
			r.Setup.Name, r.Keys, 100*r.ShownInTime, 100*r.ShownAny, triple(r.FirstGhost), triple(r.Complete), triple(r.Overhead),
			afterUse(r), r.RequestsPer100, r.Engine.SpeculativeUsed, r.Engine.LookAheadUsed, r.Engine.Speculative,
			r.Engine.BranchesUsed, r.Engine.Branches, 100*r.WastedShare,
			100*r.ReuseShare, 100*r.AfterCancelShare, r.CPUPerKeyMs, r.RSSMB, r.InitMs)
	}
	for _, r := range rs {
		for _, n := range r.Notes {
			fmt.Fprintf(w, "\n- %s: %s", r.Setup.Name, n)
		}
	}
	fmt.Fprintln(w)
}

// writeAccepting prints, for the rows of a user who accepts suggestions,
// what that user gets: text written per key, and how soon ghost text
// follows an accept.
func writeAccepting(w io.Writer, rs []result) {
	header := false
	for _, r := range rs {
		if !r.Setup.Accept {
			continue
		}
		if !header {
			fmt.Fprintln(w, "\n| a user who accepts with Tab | text per key (bytes) | next ghost text after an accept, p50 / p95 ms (accepts, none within two keys) |")
			fmt.Fprintln(w, "|---|---:|---|")
			header = true
		}
		fmt.Fprintf(w, "| %s | %.2f | %s |\n", r.Setup.Name, r.CharsPerKey, afterUse(r))
	}
}

// afterUse shows the after-use distribution, misses counted above every
// sample (∞ when a percentile falls on one).
func afterUse(r result) string {
	if r.AfterUse.N == 0 {
		return "–"
	}
	f := func(v float64) string {
		if v == missed {
			return "∞"
		}
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%s / %s (n=%d, %d missed)", f(r.AfterUse.P50), f(r.AfterUse.P95), r.AfterUse.N, r.AfterUseMisses)
}

func triple(d dist) string {
	if d.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f / %.1f / %.1f (n=%d)", d.P50, d.P95, d.P99, d.N)
}

// target is one of wisp's performance targets, judged on the results.
type target struct {
	Name   string `json:"name"`
	Met    bool   `json:"met"`
	Detail string `json:"detail"`
	// Unjudged: the run lacks what the target needs.
	Unjudged bool `json:"unjudged,omitempty"`
}

func find(rs []result, name string) *result {
	for i := range rs {
		if rs[i].Setup.Name == name {
			return &rs[i]
		}
	}
	return nil
}

// judge checks the targets against the results.
func judge(rs []result) []target {
	var ts []target
	add := func(name string, met bool, format string, args ...any) {
		ts = append(ts, target{Name: name, Met: met, Detail: fmt.Sprintf(format, args...)})
	}
	unjudged := func(name, why string) { ts = append(ts, target{Name: name, Unjudged: true, Detail: why}) }
	ws, sse, newc, off := find(rs, "ws"), find(rs, "sse-keepalive"), find(rs, "sse-newconn"), find(rs, "ws-nostream-noreuse")
	if ws != nil {
		add("shown in time ≥ 90%", ws.ShownInTime >= 0.90, "%.1f%% (ws)", 100*ws.ShownInTime)
		add("overhead p50 < 2 ms, p99 < 10 ms", ws.Overhead.N > 0 && ws.Overhead.P50 < 2 && ws.Overhead.P99 < 10,
			"p50 %.2f ms, p99 %.2f ms over %d model-bound keys (ws, incl. a 5,000-line file)", ws.Overhead.P50, ws.Overhead.P99, ws.Overhead.N)
		worst := 0.0
		for _, r := range rs {
			worst = max(worst, r.AfterCancelShare)
		}
		add("tokens after cancel < 5%", worst < 0.05, "worst configuration %.2f%%", 100*worst)
		worstInit := 0.0
		for _, r := range rs {
			worstInit = max(worstInit, r.InitMs)
		}
		add("initialize < 50 ms", worstInit < 50, "slowest %.1f ms", worstInit)
	}
	if ws != nil && newc != nil {
		if len(newc.Notes) > 0 {
			unjudged("WebSocket vs new-connection SSE", "the new-connection switch is not honoured by this build: "+strings.Join(newc.Notes, "; "))
		} else {
			dOver := 1 - ws.Overhead.P50/newc.Overhead.P50
			dFirst := 1 - ws.FirstGhost.P50/newc.FirstGhost.P50
			add("WebSocket vs new-connection SSE: overhead −80%, first ghost −50%", dOver >= 0.8 && dFirst >= 0.5,
				"overhead p50 %.2f vs %.2f ms (%s), first ghost p50 %.1f vs %.1f ms (%s)",
				ws.Overhead.P50, newc.Overhead.P50, lessBy(dOver), ws.FirstGhost.P50, newc.FirstGhost.P50, lessBy(dFirst))
		}
	}
	_ = sse
	if ws != nil && off != nil {
		if len(off.Notes) > 0 {
			unjudged("typed-ahead reuse: ≥ 40% fewer model requests", "the reuse switch is not honoured by this build: "+strings.Join(off.Notes, "; "))
		} else {
			fewer := 1 - ws.RequestsPer100/off.RequestsPer100
			// Without reuse no ghost text may come before the next key at
			// all: then there is no latency to compare, and reuse's is
			// better than never.
			offFirst := "never before the next key"
			if off.FirstGhost.N > 0 {
				offFirst = fmt.Sprintf("%.1f ms", off.FirstGhost.P50)
			}
			add("typed-ahead reuse: ≥ 40% fewer model requests at equal or better latency",
				fewer >= 0.4 && ws.FirstGhost.N > 0 && (off.FirstGhost.N == 0 || ws.FirstGhost.P50 <= off.FirstGhost.P50),
				"%.1f vs %.1f requests per 100 keys (%s); first ghost p50 %.1f ms vs %s (shown in time %.1f%% vs %.1f%%)",
				ws.RequestsPer100, off.RequestsPer100, lessBy(fewer), ws.FirstGhost.P50, offFirst, 100*ws.ShownInTime, 100*off.ShownInTime)
		}
	}
	both, bothWrong, offWrong := find(rs, "ws-speculate-lookahead"), find(rs, "ws-speculate-lookahead@0.8"), find(rs, "ws@0.8")
	if both != nil {
		add("speculation and look-ahead: shown in time ≥ 92% (perfect model)", both.ShownInTime >= 0.92, "%.1f%%", 100*both.ShownInTime)
		add("speculation and look-ahead: after a suggestion is used, next ghost text p50 ≤ 5 ms", both.AfterUse.N > 0 && both.AfterUse.P50 <= 5,
			"%s", afterUse(*both))
		add("speculation and look-ahead: wasted tokens ≤ 35% of generated", both.WastedShare <= 0.35, "%.1f%% (perfect model)", 100*both.WastedShare)
	}
	if accepting := find(rs, "ws-speculate-lookahead+accept"); accepting != nil {
		add("speculation and look-ahead, a user who accepts with Tab: after an accepted suggestion, next ghost text p50 ≤ 5 ms",
			accepting.AfterUse.N > 0 && accepting.AfterUse.P50 <= 5, "%s", afterUse(*accepting))
	}
	if bothWrong != nil && offWrong != nil {
		gain := 100 * (bothWrong.ShownInTime - offWrong.ShownInTime)
		add("speculation and look-ahead at accuracy 0.8: ≥ +10 points shown in time over off", gain >= 10,
			"%.1f%% vs %.1f%% (%+.1f points); wasted %.1f%%", 100*bothWrong.ShownInTime, 100*offWrong.ShownInTime, gain, 100*bothWrong.WastedShare)
	}
	all, allWrong := find(rs, "ws-all"), find(rs, "ws-all@0.8")
	if all != nil {
		add("speculation, look-ahead and branching at doubts: shown in time ≥ 92% (perfect model)", all.ShownInTime >= 0.92, "%.1f%%", 100*all.ShownInTime)
		add("speculation, look-ahead and branching at doubts: wasted tokens ≤ 35% of generated", all.WastedShare <= 0.35, "%.1f%% (perfect model)", 100*all.WastedShare)
	}
	if allWrong != nil && offWrong != nil {
		gain := 100 * (allWrong.ShownInTime - offWrong.ShownInTime)
		add("speculation, look-ahead and branching at doubts, accuracy 0.8: ≥ +10 points shown in time over off", gain >= 10,
			"%.1f%% vs %.1f%% (%+.1f points); wasted %.1f%%", 100*allWrong.ShownInTime, 100*offWrong.ShownInTime, gain, 100*allWrong.WastedShare)
	}
	for _, r := range rs {
		if strings.HasPrefix(r.Setup.Name, "scale") {
			add("RSS < 60 MB in the scale run", r.RSSMB < 60, "%.1f MB; overhead p50 %.2f ms, p99 %.2f ms", r.RSSMB, r.Overhead.P50, r.Overhead.P99)
		}
	}
	return ts
}

func writeTargets(w io.Writer, ts []target) {
	fmt.Fprintln(w, "\n| target | verdict | measured |")
	fmt.Fprintln(w, "|---|---|---|")
	for _, t := range ts {
		v := "missed"
		switch {
		case t.Unjudged:
			v = "not measured"
		case t.Met:
			v = "met"
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", t.Name, v, t.Detail)
	}
}

// lessBy writes a reduction share as a signed change: 0.9 as "−90%",
// -0.25 as "+25%".
func lessBy(share float64) string {
	if share < 0 {
		return fmt.Sprintf("+%.0f%%", -100*share)
	}
	return fmt.Sprintf("−%.0f%%", 100*share)
}

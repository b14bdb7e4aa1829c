package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Why a key had no correct ghost text on screen when the next key came.
// Each missed key gets exactly one reason, the first that applies.
const (
	// missFirst: the first key of a trace; no generation could be ready.
	missFirst = "first key of a trace"
	// missWrong: text was shown that the user does not type (the model
	// was wrong, or shaping was) on the cursor's line; missWrongLater:
	// the cursor's line was right, a later line shown was not.
	missWrong      = "wrong ghost text on the cursor's line"
	missWrongLater = "wrong ghost text in a later line"
	// The rest showed nothing while the user's own model request, started
	// by this key or one within a round trip before it, had not answered;
	// named by what made that request necessary.
	missAfterWrong    = "round trip after a wrong suggestion"
	missAfterBreak    = "round trip after a line break"
	missAfterUsedUp   = "round trip after a used-up suggestion"
	missRoundTripElse = "round trip, other"
	// missNothing: nothing was shown and no request of the user's was in
	// its round trip: the generation had nothing (more) to show here, such
	// as the end of a finished line.
	missNothing = "nothing to show"
)

// missOrder is the order reasons are reported in.
var missOrder = []string{missFirst, missWrong, missWrongLater, missAfterWrong, missAfterBreak, missAfterUsedUp, missRoundTripElse, missNothing}

// classifyMisses returns, for each key of one trace, why it missed ("" when
// it showed correct ghost text in time). roundTrip is the model's share of
// a request (TTFT and both network delays), key the time between keys.
func classifyMisses(keys []keystroke, roundTrip, key time.Duration) []string {
	window := max(1, int((roundTrip+key-1)/key))
	why := make([]string, len(keys))
	for i, k := range keys {
		switch {
		case k.Correct:
			continue
		case i == 0:
			why[i] = missFirst
			continue
		case k.Shown != "" && k.LineCorrect:
			why[i] = missWrongLater
			continue
		case k.Shown != "":
			why[i] = missWrong
			continue
		}
		why[i] = missNothing
		for j := i; j >= max(0, i-window+1); j-- {
			if !keys[j].Asked {
				continue
			}
			switch {
			case j > 0 && keys[j-1].Shown != "" && !keys[j-1].Correct:
				why[i] = missAfterWrong
			case strings.Contains(keys[j].Key, "\n") || j > 0 && strings.Contains(keys[j-1].Key, "\n"):
				why[i] = missAfterBreak
			case j > 0 && keys[j-1].UsedUp:
				why[i] = missAfterUsedUp
			case j == 0:
				why[i] = missFirst
			default:
				why[i] = missRoundTripElse
			}
			break
		}
	}
	return why
}

// writeMisses prints, per configuration, how many keys missed for each
// reason, as a share of all keys.
func writeMisses(w io.Writer, rs []result) {
	if len(rs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n| where the misses are (%% of keys) | %s |\n", strings.Join(missOrder, " | "))
	fmt.Fprintln(w, "|---|"+strings.Repeat("---:|", len(missOrder)))
	for _, r := range rs {
		if r.Keys == 0 {
			continue
		}
		cells := make([]string, len(missOrder))
		for i, m := range missOrder {
			cells[i] = fmt.Sprintf("%.1f", 100*float64(r.Misses[m])/float64(r.Keys))
		}
		fmt.Fprintf(w, "| %s | %s |\n", r.Setup.Name, strings.Join(cells, " | "))
	}
}

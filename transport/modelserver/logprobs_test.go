package modelserver

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// withLogprobs is req asking for token scores with k alternatives.
func withLogprobs(req map[string]any, k int) map[string]any {
	req["include"] = []string{"message.output_text.logprobs"}
	req["top_logprobs"] = k
	return req
}

// wireLogprob is a delta's logprobs entry as a client decodes it.
type wireLogprob struct {
	Token       string  `json:"token"`
	Logprob     float64 `json:"logprob"`
	TopLogprobs []struct {
		Token   string  `json:"token"`
		Logprob float64 `json:"logprob"`
	} `json:"top_logprobs"`
}

// rawDelta is a delta frame as sent, and what it decodes to.
type rawDelta struct {
	raw      map[string]json.RawMessage
	delta    string
	logprobs []wireLogprob
}

// readDeltas reads one lane's frames to its terminal event and returns
// its deltas and the terminal event's type. Frames that are not JSON are
// counted in malformed.
func readDeltas(t *testing.T, c *websocket.Conn) (deltas []rawDelta, terminal string, malformed int) {
	t.Helper()
	for {
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("read event: %v", err)
		}
		var raw map[string]json.RawMessage
		if json.Unmarshal(data, &raw) != nil {
			malformed++
			continue
		}
		var typ string
		_ = json.Unmarshal(raw["type"], &typ)
		switch typ {
		case "response.output_text.delta":
			d := rawDelta{raw: raw}
			_ = json.Unmarshal(raw["delta"], &d.delta)
			if lp, ok := raw["logprobs"]; ok {
				if err := json.Unmarshal(lp, &d.logprobs); err != nil {
					t.Fatalf("logprobs %s: %v", lp, err)
				}
			}
			deltas = append(deltas, d)
		case "response.completed", "response.incomplete", "response.failed", "error":
			return deltas, typ, malformed
		}
	}
}

// checkSpelled fails the test unless every delta carries logprobs whose
// tokens spell it, with at most k alternatives, the chosen token first.
func checkSpelled(t *testing.T, deltas []rawDelta, k int) {
	t.Helper()
	if len(deltas) == 0 {
		t.Fatal("no deltas")
	}
	for _, d := range deltas {
		if _, ok := d.raw["logprobs"]; !ok || len(d.logprobs) == 0 {
			t.Fatalf("delta %q has no logprobs", d.delta)
		}
		var spelled strings.Builder
		for _, lp := range d.logprobs {
			spelled.WriteString(lp.Token)
			if lp.Logprob > 0 || len(lp.TopLogprobs) > k || lp.TopLogprobs == nil {
				t.Fatalf("delta %q: entry %+v (top_logprobs %d)", d.delta, lp, k)
			}
			if k > 0 && (lp.TopLogprobs[0].Token != lp.Token || lp.TopLogprobs[0].Logprob != lp.Logprob) {
				t.Fatalf("delta %q: the chosen token is not the likeliest in %+v", d.delta, lp)
			}
		}
		if spelled.String() != d.delta {
			t.Fatalf("logprobs spell %q, delta is %q", spelled.String(), d.delta)
		}
	}
}

func TestWSLogprobsSpellEachDelta(t *testing.T) {
	_, base := start(t, Options{Backend: TextBackend(variedText(40)), Accuracy: 0.5, Seed: 2, Calibration: 1})
	c := dial(t, base)
	send(t, c, withLogprobs(create("s", "x", ""), 3))
	deltas, terminal, _ := readDeltas(t, c)
	if terminal != "response.completed" {
		t.Fatalf("lane ended %s", terminal)
	}
	checkSpelled(t, deltas, 3)
	doubts := 0
	for _, d := range deltas {
		for _, lp := range d.logprobs {
			if lp.Logprob < math.Log(0.5) {
				doubts++
				if len(lp.TopLogprobs) != 2 {
					t.Errorf("doubted %q lists %+v, want it and the true token", lp.Token, lp.TopLogprobs)
				}
			}
		}
	}
	if doubts == 0 {
		t.Error("half the lines wrong, all calibrated, and no token doubted")
	}

	// The same request without the include: no logprobs key at all.
	send(t, c, create("s", "x", ""))
	deltas, _, _ = readDeltas(t, c)
	for _, d := range deltas {
		if _, ok := d.raw["logprobs"]; ok {
			t.Fatalf("delta %q carries logprobs nobody asked for", d.delta)
		}
	}
}

func TestWSLogprobsOfAnUnscoredBackendAreCertain(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	c := dial(t, base)
	send(t, c, withLogprobs(create("s", "// long", ""), 2))
	deltas, _, _ := readDeltas(t, c)
	checkSpelled(t, deltas, 2)
	for _, d := range deltas {
		for _, lp := range d.logprobs {
			if lp.Logprob != 0 || len(lp.TopLogprobs) != 1 {
				t.Fatalf("unscored token scored %+v, want certain and alone", lp)
			}
		}
	}
	// top_logprobs 0 lists no alternatives, but still an array.
	send(t, c, withLogprobs(create("s", "// long", ""), 0))
	deltas, _, _ = readDeltas(t, c)
	checkSpelled(t, deltas, 0)
	if got := string(deltas[0].raw["logprobs"]); !strings.Contains(got, `"top_logprobs":[]`) {
		t.Fatalf("logprobs %s, want an empty top_logprobs array", got)
	}
}

// scoredEndless yields "tok " at probability one half, with one
// alternative, until told to stop; with ignoreStop it yields more after
// the first refusal.
type scoredEndless struct{ ignoreStop int }

func (e scoredEndless) Generate(ctx context.Context, q Query, yield func(string) bool) error {
	return endless(e).Generate(ctx, q, yield)
}

func (e scoredEndless) GenerateScored(_ context.Context, _ Query, yield func(Scored) bool) error {
	tok := Scored{Token: "tok ", Logprob: math.Log(0.5),
		Top: []Alternative{{"tok ", math.Log(0.5)}, {"tik ", math.Log(0.25)}}}
	for yield(tok) {
	}
	for range e.ignoreStop {
		yield(tok)
	}
	return nil
}

func TestWSLogprobsComeFromAScoredBackend(t *testing.T) {
	_, base := start(t, Options{Backend: scoredEndless{}})
	c := dial(t, base)
	req := withLogprobs(create("s", "x", ""), 1)
	req["max_output_tokens"] = 3
	send(t, c, req)
	deltas, terminal, _ := readDeltas(t, c)
	if terminal != "response.incomplete" || len(deltas) != 3 {
		t.Fatalf("%d deltas, then %s", len(deltas), terminal)
	}
	checkSpelled(t, deltas, 1)
	for _, d := range deltas {
		if lp := d.logprobs[0]; lp.Logprob != math.Log(0.5) || len(lp.TopLogprobs) != 1 {
			t.Fatalf("entry %+v, want the backend's score cut to one alternative", lp)
		}
	}
}

func TestWSScoredTokensAfterCancelAreCounted(t *testing.T) {
	st := cancelAfterCreate(t, scoredEndless{ignoreStop: 50}, 10, withLogprobs(create("s", "x", ""), 2))
	if st.Cancels != 1 || st.TokensAfterCancel < 50 {
		t.Errorf("cancels %d, tokensAfterCancel %d; want 1 and >= 50", st.Cancels, st.TokensAfterCancel)
	}
	st = cancelAfterCreate(t, scoredEndless{}, 10, withLogprobs(create("s", "x", ""), 2))
	if st.TokensAfterCancel >= 5 {
		t.Errorf("tokensAfterCancel = %d for a backend that stops, want < 5", st.TokensAfterCancel)
	}
}

func TestWSLogprobsSurviveAMalformedFrame(t *testing.T) {
	_, base := start(t, Options{Script: script(), Fault: Fault{Kind: FaultMalformed}})
	c := dial(t, base)
	send(t, c, withLogprobs(create("s", "// long", ""), 2))
	deltas, terminal, malformed := readDeltas(t, c)
	if malformed != 1 || terminal != "response.completed" {
		t.Fatalf("%d malformed frames, then %s", malformed, terminal)
	}
	checkSpelled(t, deltas, 2)
}

func TestWSRefusesTopLogprobsOutOfRange(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	c := dial(t, base)
	for k, code := range map[int]string{21: "integer_above_max_value", -1: "integer_below_min_value"} {
		send(t, c, withLogprobs(create("s", "// long", ""), k))
		e := readEvent(t, c)
		if e.str("type") != "error" || e.str("stream_id") != "s" || errorCode(e) != code {
			t.Fatalf("top_logprobs %d answered with %v, want a %s error", k, e, code)
		}
	}
	send(t, c, withLogprobs(create("s", "// long", ""), 20))
	if _, terminal, _ := readDeltas(t, c); terminal != "response.completed" {
		t.Fatalf("top_logprobs 20 ended %s", terminal)
	}
}

package modelserver

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// cacheOptions: the prompt-cache model at 40 ms per 1,000 uncached tokens,
// 50 ms to first token, no network delay.
func cacheOptions(c Clock) Options {
	return Options{Script: script(), TTFT: 50 * ms, UncachedPer1K: 40 * ms, Clock: c}
}

// longPrefix is about 4,000 tokens of code ending where the script answers.
var longPrefix = strings.Repeat("\tcount = count + item\n", 800) + "if x {\n\t"

func TestPromptCacheCostsUncachedTokens(t *testing.T) {
	clock := &fakeClock{}
	s, base := start(t, cacheOptions(clock))
	c := dial(t, base)
	first := create("s", longPrefix, "}")
	send(t, c, first)
	readLanes(t, c, "s")
	cold := s.Stats().UncachedTokens
	// The next keystroke's prompt shares all but the suffix's end.
	send(t, c, create("s", longPrefix, "} "))
	readLanes(t, c, "s")
	warm := s.Stats().UncachedTokens - cold
	if cold < 3000 || warm > 20 {
		t.Fatalf("uncached tokens: cold %d, then %d", cold, warm)
	}
	slept := clock.slept()
	// slept: upgrade, then per create its arrival, response.created, the
	// first token and three more.
	coldTTFT, warmTTFT := slept[3], slept[9]
	if want := 50*ms + time.Duration(cold)*40*ms/1000; coldTTFT != want {
		t.Errorf("cold first token after %v, want %v (slept %v)", coldTTFT, want, slept)
	}
	if want := 50*ms + time.Duration(warm)*40*ms/1000; warmTTFT != want {
		t.Errorf("warm first token after %v, want %v (slept %v)", warmTTFT, want, slept)
	}
}

func TestWarmupFillsTheCacheWithoutGenerating(t *testing.T) {
	clock := &fakeClock{}
	s, base := start(t, cacheOptions(clock))
	c := dial(t, base)
	warm := create("w", longPrefix, "}")
	warm["generate"] = false
	send(t, c, warm)
	l := readLanes(t, c, "w")["w"]
	if l.terminal != "response.completed" || l.text != "" || l.deltas != 0 {
		t.Fatalf("warm-up ended %s with %q", l.terminal, l.text)
	}
	st := s.Stats()
	if st.Warmups != 1 || st.Requests != 0 || st.Tokens != 0 {
		t.Fatalf("after a warm-up: %+v", st)
	}
	before := clock.slept()
	send(t, c, create("s", longPrefix, "}"))
	if got := readLanes(t, c, "s")["s"].text; got != "x := 1" {
		t.Fatalf("got %q", got)
	}
	after := clock.slept()[len(before):]
	if want := []time.Duration{0, 0, 50 * ms, 0, 0, 0}; !reflect.DeepEqual(after, want) {
		t.Fatalf("after the warm-up, slept %v, want %v: only TTFT", after, want)
	}
}

func TestInfillWarmup(t *testing.T) {
	s, base := start(t, Options{Script: script(), UncachedPer1K: 40 * ms, Clock: &fakeClock{}})
	resp := post(t, base+"/infill", map[string]any{"input_prefix": longPrefix, "input_suffix": "}", "n_predict": 0})
	var f infillFrame
	if err := json.NewDecoder(resp.Body).Decode(&f); err != nil {
		t.Fatal(err)
	}
	if !f.Stop || f.Content != "" {
		t.Fatalf("warm-up answered %+v", f)
	}
	// Absent n_predict is unbounded, not a warm-up.
	resp = post(t, base+"/infill", map[string]any{"input_prefix": "if x {\n\t", "input_suffix": "}"})
	if err := json.NewDecoder(resp.Body).Decode(&f); err != nil || f.Content != "x := 1" {
		t.Fatalf("generation answered %+v, %v", f, err)
	}
	if st := s.Stats(); st.Warmups != 1 || st.Requests != 1 {
		t.Fatalf("stats %+v", st)
	}
}

func TestPromptCacheForgetsAfterTTL(t *testing.T) {
	clock := &fakeClock{}
	opts := cacheOptions(clock)
	opts.CacheTTL = time.Minute
	s, base := start(t, opts)
	c := dial(t, base)
	uncached := func() int64 {
		before := s.Stats().UncachedTokens
		send(t, c, create("s", longPrefix, "}"))
		readLanes(t, c, "s")
		return s.Stats().UncachedTokens - before
	}
	if n := uncached(); n < 3000 {
		t.Fatalf("cold prompt: %d uncached tokens", n)
	}
	clock.Sleep(context.Background(), 50*time.Second)
	if n := uncached(); n != 0 {
		t.Fatalf("within the TTL: %d uncached tokens, want 0", n)
	}
	clock.Sleep(context.Background(), 61*time.Second)
	if n := uncached(); n < 3000 {
		t.Fatalf("past the TTL: %d uncached tokens, want the whole prompt", n)
	}
}

// A prompt a later one was read from stays warm from that read: past the
// TTL from when it was sent, but within it from the read, it is cached.
func TestPromptCacheHitKeepsTheSharedPromptWarm(t *testing.T) {
	var c promptCache
	t0 := time.Unix(0, 0)
	long := Query{Prefix: longPrefix, Suffix: "}\n" + strings.Repeat("\treturn count\n", 50)}
	short := Query{Prefix: longPrefix, Suffix: "}"}
	if n := c.admit(long, t0, time.Minute); n < 3000 {
		t.Fatalf("cold prompt: %d uncached tokens", n)
	}
	if n := c.admit(short, t0.Add(50*time.Second), time.Minute); n != 0 {
		t.Fatalf("a prefix of a cached prompt: %d uncached tokens, want 0", n)
	}
	if n := c.admit(long, t0.Add(100*time.Second), time.Minute); n != 0 {
		t.Fatalf("100 s after it was sent, 50 s after it was read from: %d uncached tokens, want 0", n)
	}
}

// The cache remembers the last recentPrompts prompts: one more pushes the
// oldest out.
func TestPromptCacheKeepsTheLastPrompts(t *testing.T) {
	var c promptCache
	now := time.Unix(0, 0)
	first := Query{System: "first", Prefix: longPrefix}
	c.admit(first, now, 0)
	for i := range recentPrompts - 1 {
		c.admit(Query{System: strings.Repeat("x", i+1), Prefix: "other"}, now, 0)
	}
	if n := c.admit(first, now, 0); n != 0 {
		t.Fatalf("among the last %d prompts: %d uncached tokens, want 0", recentPrompts, n)
	}
	for i := range recentPrompts {
		c.admit(Query{System: strings.Repeat("y", i+1), Prefix: "other"}, now, 0)
	}
	if n := c.admit(first, now, 0); n < 3000 {
		t.Fatalf("%d prompts later: %d uncached tokens, want the whole prompt", recentPrompts, n)
	}
}

package modelserver

import (
	"bufio"
	"cmp"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// httpScore is one token's score as an HTTP wire reported it.
type httpScore struct {
	token   string
	logprob float64
	// alts are the alternatives, likeliest first.
	alts []Alternative
	// at is the token's byte offset in the reply as the wire says it, or
	// -1 on a wire that does not say.
	at int
}

// scoredFrame is one frame of a stream, or a whole reply, as read.
type scoredFrame struct {
	raw    string
	text   string      // the reply text it carries
	last   bool        // it ends the reply (finish_reason, stop)
	scored bool        // it carries the wire's score field
	scores []httpScore // the scores in that field
}

// httpEntry is a chat or llama.cpp logprobs entry as a client decodes it.
type httpEntry struct {
	ID          *int    `json:"id"`
	Token       string  `json:"token"`
	Logprob     float64 `json:"logprob"`
	Bytes       []int   `json:"bytes"`
	TopLogprobs []struct {
		ID      *int    `json:"id"`
		Token   string  `json:"token"`
		Logprob float64 `json:"logprob"`
		Bytes   []int   `json:"bytes"`
	} `json:"top_logprobs"`
}

// entryScores checks what chat and llama.cpp entries share (bytes that
// spell each token, top_logprobs an array, ids on llama.cpp's wire only,
// the same string the same id) and returns the scores.
func entryScores(t *testing.T, entries []httpEntry, ids bool) []httpScore {
	t.Helper()
	spells := func(b []int, s string) bool {
		return b != nil && slices.Equal(b, bytesOf(s))
	}
	var out []httpScore
	for _, e := range entries {
		if !spells(e.Bytes, e.Token) || e.TopLogprobs == nil || (e.ID != nil) != ids {
			t.Fatalf("entry %+v: want bytes, a top_logprobs array, ids %v", e, ids)
		}
		s := httpScore{token: e.Token, logprob: e.Logprob, at: -1}
		for _, a := range e.TopLogprobs {
			if !spells(a.Bytes, a.Token) || (a.ID != nil) != ids {
				t.Fatalf("alternative %+v of %q: want bytes, ids %v", a, e.Token, ids)
			}
			if ids && a.Token == e.Token && *a.ID != *e.ID {
				t.Fatalf("%q has ids %d and %d", e.Token, *e.ID, *a.ID)
			}
			s.alts = append(s.alts, Alternative{a.Token, a.Logprob})
		}
		out = append(out, s)
	}
	return out
}

// bytesOf is s's bytes as the wires list them.
func bytesOf(s string) []int {
	b := []int{}
	for i := range len(s) {
		b = append(b, int(s[i]))
	}
	return b
}

func parseChat(t *testing.T, raw string) scoredFrame {
	t.Helper()
	var f struct {
		Choices []struct {
			Delta        *chatText `json:"delta"`
			Message      *chatText `json:"message"`
			FinishReason *string   `json:"finish_reason"`
			Logprobs     *struct {
				Content []httpEntry `json:"content"`
			} `json:"logprobs"`
		} `json:"choices"`
	}
	if err := json.Unmarshal([]byte(raw), &f); err != nil || len(f.Choices) != 1 {
		t.Fatalf("frame %s: %v", raw, err)
	}
	c := f.Choices[0]
	sf := scoredFrame{raw: raw, last: c.FinishReason != nil, scored: c.Logprobs != nil}
	if c.Delta != nil {
		sf.text = c.Delta.Content
	} else if c.Message != nil {
		sf.text = c.Message.Content
	}
	if c.Logprobs != nil {
		if c.Logprobs.Content == nil {
			t.Fatalf("frame %s: logprobs without content", raw)
		}
		sf.scores = entryScores(t, c.Logprobs.Content, false)
	}
	return sf
}

func parseText(t *testing.T, raw string) scoredFrame {
	t.Helper()
	var f struct {
		Choices []struct {
			Text         string  `json:"text"`
			FinishReason *string `json:"finish_reason"`
			Logprobs     *struct {
				Tokens        []string             `json:"tokens"`
				TokenLogprobs []float64            `json:"token_logprobs"`
				TopLogprobs   []map[string]float64 `json:"top_logprobs"`
				TextOffset    []int                `json:"text_offset"`
			} `json:"logprobs"`
		} `json:"choices"`
	}
	if err := json.Unmarshal([]byte(raw), &f); err != nil || len(f.Choices) != 1 {
		t.Fatalf("frame %s: %v", raw, err)
	}
	c := f.Choices[0]
	sf := scoredFrame{raw: raw, text: c.Text, last: c.FinishReason != nil, scored: c.Logprobs != nil}
	if lp := c.Logprobs; lp != nil {
		n := len(lp.Tokens)
		if len(lp.TokenLogprobs) != n || len(lp.TopLogprobs) != n || len(lp.TextOffset) != n {
			t.Fatalf("frame %s: lists of unequal length", raw)
		}
		for i, tok := range lp.Tokens {
			if lp.TopLogprobs[i] == nil {
				t.Fatalf("frame %s: top_logprobs entry %d is not a map", raw, i)
			}
			s := httpScore{token: tok, logprob: lp.TokenLogprobs[i], at: lp.TextOffset[i]}
			for a, l := range lp.TopLogprobs[i] {
				s.alts = append(s.alts, Alternative{a, l})
			}
			slices.SortFunc(s.alts, func(a, b Alternative) int { return cmp.Compare(b.Logprob, a.Logprob) })
			sf.scores = append(sf.scores, s)
		}
	}
	return sf
}

func parseLlama(t *testing.T, raw string) scoredFrame {
	t.Helper()
	var f struct {
		Content                 string      `json:"content"`
		Stop                    bool        `json:"stop"`
		CompletionProbabilities []httpEntry `json:"completion_probabilities"`
	}
	if err := json.Unmarshal([]byte(raw), &f); err != nil {
		t.Fatalf("frame %s: %v", raw, err)
	}
	sf := scoredFrame{raw: raw, text: f.Content, last: f.Stop, scored: f.CompletionProbabilities != nil}
	sf.scores = entryScores(t, f.CompletionProbabilities, true)
	return sf
}

// scoringWire is an HTTP wire that can report token scores.
type scoringWire struct {
	name, path string
	// body is a request for a completion; k < 0 asks for no scores.
	body  func(stream bool, k int) map[string]any
	parse func(t *testing.T, raw string) scoredFrame
}

func scoringWires() []scoringWire {
	chat := func(stream bool, k int) map[string]any {
		b := chatBody("func f() {\n", "", stream)
		if k >= 0 {
			b["logprobs"], b["top_logprobs"] = true, k
		}
		return b
	}
	text := func(stream bool, k int) map[string]any {
		b := map[string]any{"prompt": "func f() {\n", "stream": stream}
		if k >= 0 {
			b["logprobs"] = k
		}
		return b
	}
	infill := func(stream bool, k int) map[string]any {
		b := map[string]any{"input_prefix": "func f() {\n", "stream": stream}
		if k >= 0 {
			b["n_probs"] = k
		}
		return b
	}
	return []scoringWire{
		{"chat", "/v1/chat/completions", chat, parseChat},
		{"completions", "/v1/completions", text, parseText},
		{"deepseek", "/beta/completions", text, parseText},
		{"llama.cpp infill", "/infill", infill, parseLlama},
	}
}

// replyFrames posts body and returns the reply's frames: each data line
// of a stream but [DONE], each line of NDJSON, or the whole body.
func replyFrames(t *testing.T, url string, body map[string]any) []string {
	t.Helper()
	resp := post(t, url, body)
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	switch resp.Header.Get("Content-Type") {
	case "text/event-stream":
		data, err := sseData(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return slices.DeleteFunc(data, func(d string) bool { return d == "[DONE]" })
	case "application/x-ndjson":
		var lines []string
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		return lines
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return []string{string(b)}
}

// checkScoredReply fails the test unless every frame that carries text is
// scored by tokens that spell its text, at their offsets where the wire
// says them, each a log probability with at most k alternatives, and the
// frame ending a stream carries no scores. It returns the reply's text
// and scores.
func checkScoredReply(t *testing.T, frames []scoredFrame, stream bool, k int) (string, []httpScore) {
	t.Helper()
	var text strings.Builder
	var all []httpScore
	for _, f := range frames {
		if stream && f.last {
			if f.scored || f.text != "" {
				t.Fatalf("the last frame %s carries text or scores", f.raw)
			}
			continue
		}
		if !f.scored {
			t.Fatalf("frame %s is not scored", f.raw)
		}
		var spelled strings.Builder
		for _, s := range f.scores {
			if s.at >= 0 && s.at != text.Len()+spelled.Len() {
				t.Fatalf("%q said at %d, is at %d", s.token, s.at, text.Len()+spelled.Len())
			}
			spelled.WriteString(s.token)
			if s.logprob > 0 || len(s.alts) > k {
				t.Fatalf("score %+v: want a log probability with at most %d alternatives", s, k)
			}
		}
		if spelled.String() != f.text {
			t.Fatalf("scores spell %q, the frame says %q", spelled.String(), f.text)
		}
		text.WriteString(f.text)
		all = append(all, f.scores...)
	}
	return text.String(), all
}

// checkDoubts fails the test unless some token is doubted (probability
// below one half) and every doubt is on a line of got that is not the
// true one; with k of 2 or more, the doubt lists the true line's token at
// the same place as its runner-up.
func checkDoubts(t *testing.T, got, want string, scores []httpScore, k int) {
	t.Helper()
	gotLines, wantLines := strings.SplitAfter(got, "\n"), strings.SplitAfter(want, "\n")
	if len(gotLines) != len(wantLines) || got == want {
		t.Fatalf("reply of %d lines, want %d, some wrong: %q", len(gotLines), len(wantLines), got)
	}
	doubts, at := 0, 0
	for _, s := range scores {
		line := strings.Count(got[:at], "\n")
		col := at - strings.LastIndex(got[:at], "\n") - 1
		at += len(s.token)
		if s.logprob >= math.Log(0.5) {
			continue
		}
		doubts++
		if gotLines[line] == wantLines[line] {
			t.Errorf("%q doubted on true line %d %q", s.token, line, gotLines[line])
		}
		if k >= 2 && (len(s.alts) != 2 || !strings.HasPrefix(wantLines[line][col:], s.alts[1].Token)) {
			t.Errorf("%q doubted on line %q lists %+v, want the true %q's token runner-up", s.token, gotLines[line], s.alts, wantLines[line])
		}
	}
	if doubts == 0 {
		t.Error("some lines wrong, all calibrated, and no token doubted")
	}
}

// TestHTTPLogprobsScoreEveryToken: each HTTP wire that can score tokens,
// asked to, scores every token it sends, streamed or whole, in its own
// spelling, with the calibrated model's doubts on its wrong lines and no
// more alternatives than asked.
func TestHTTPLogprobsScoreEveryToken(t *testing.T) {
	want := variedText(40)
	_, base := start(t, Options{Backend: TextBackend(want), Accuracy: 0.8, Seed: 2, Calibration: 1})
	for _, w := range scoringWires() {
		for _, stream := range []bool{true, false} {
			for _, k := range []int{1, 3} {
				var frames []scoredFrame
				for _, raw := range replyFrames(t, base+w.path, w.body(stream, k)) {
					frames = append(frames, w.parse(t, raw))
				}
				if !stream && (len(frames) != 1 || !frames[0].last) {
					t.Fatalf("%s: whole reply of %d frames", w.name, len(frames))
				}
				got, scores := checkScoredReply(t, frames, stream, k)
				checkDoubts(t, got, want, scores, k)
			}
		}
	}
}

// TestHTTPLogprobsNoAlternatives: chat's top_logprobs 0 and the legacy
// logprobs 0 still score each token, with an empty array or map.
func TestHTTPLogprobsNoAlternatives(t *testing.T) {
	_, base := start(t, Options{Backend: TextBackend("x := 1\nreturn x")})
	for _, w := range scoringWires()[:2] {
		raw := replyFrames(t, base+w.path, w.body(true, 0))
		var frames []scoredFrame
		for _, r := range raw {
			frames = append(frames, w.parse(t, r))
		}
		checkScoredReply(t, frames, true, 0)
		if !strings.Contains(raw[0], `"top_logprobs":[]`) && !strings.Contains(raw[0], `"top_logprobs":[{}]`) {
			t.Errorf("%s: frame %s, want an empty top_logprobs entry", w.name, raw[0])
		}
	}
}

// TestHTTPLogprobsOnlyWhenAsked: a request that does not ask, and one to a
// wire that cannot score (Codestral's FIM, Ollama) whatever it asks, gets
// frames without any score field.
func TestHTTPLogprobsOnlyWhenAsked(t *testing.T) {
	_, base := start(t, Options{Backend: TextBackend(variedText(10)), Accuracy: 0.5, Seed: 2, Calibration: 1})
	type request struct {
		name, path string
		body       func(stream bool) map[string]any
	}
	var reqs []request
	for _, w := range scoringWires() {
		reqs = append(reqs, request{w.name, w.path, func(stream bool) map[string]any { return w.body(stream, -1) }})
	}
	reqs = append(reqs,
		request{"codestral", "/v1/fim/completions", func(stream bool) map[string]any {
			return map[string]any{"prompt": "p", "stream": stream, "logprobs": 3, "top_logprobs": 3}
		}},
		request{"codestral, chat's words", "/v1/fim/completions", func(stream bool) map[string]any {
			return map[string]any{"prompt": "p", "stream": stream, "logprobs": true}
		}},
		request{"ollama", "/api/generate", func(stream bool) map[string]any {
			return map[string]any{"prompt": "p", "stream": stream, "logprobs": true, "top_logprobs": 3}
		}},
	)
	for _, r := range reqs {
		for _, stream := range []bool{true, false} {
			frames := replyFrames(t, base+r.path, r.body(stream))
			if len(frames) == 0 {
				t.Fatalf("%s: no frames", r.name)
			}
			for _, f := range frames {
				if strings.Contains(f, "logprob") || strings.Contains(f, "completion_probabilities") {
					t.Fatalf("%s (stream %v): frame %s carries scores nobody asked for", r.name, stream, f)
				}
			}
		}
	}
}

// TestHTTPLogprobsOutOfRange: a top_logprobs (chat) or logprobs (legacy
// completions) outside 0–20, or a legacy logprobs that is not an integer,
// is refused with 400, as the real API does.
func TestHTTPLogprobsOutOfRange(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	chat := func(k any) map[string]any {
		b := chatBody("// long", "", true)
		b["logprobs"], b["top_logprobs"] = true, k
		return b
	}
	for _, tc := range []struct {
		path string
		body map[string]any
		code string
	}{
		{"/v1/chat/completions", chat(21), "integer_above_max_value"},
		{"/v1/chat/completions", chat(-1), "integer_below_min_value"},
		{"/v1/completions", map[string]any{"prompt": "// long", "logprobs": 21}, "integer_above_max_value"},
		{"/beta/completions", map[string]any{"prompt": "// long", "logprobs": -1}, "integer_below_min_value"},
		{"/v1/completions", map[string]any{"prompt": "// long", "logprobs": true}, "invalid_type"},
	} {
		resp := post(t, base+tc.path, tc.body)
		var e struct {
			Error apiError `json:"error"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusBadRequest || e.Error.Type != "invalid_request_error" || e.Error.Code != tc.code {
			t.Errorf("%s %v: %d %+v, want 400 %s", tc.path, tc.body["logprobs"], resp.StatusCode, e.Error, tc.code)
		}
	}
	if frames := replyFrames(t, base+"/v1/chat/completions", chat(20)); len(frames) == 0 {
		t.Error("top_logprobs 20 got no reply")
	}
}

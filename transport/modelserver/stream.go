package modelserver

import (
	"context"
	"strings"
	"time"
)

// Why a generation ended.
const (
	endStop      = "stop"      // the reply is complete
	endLength    = "length"    // MaxTokens reached
	endCancelled = "cancelled" // the context ended: client cancel, client gone, or Close
	endDrop      = "drop"      // FaultDrop fired; the wire must cut the connection
	endGone      = "gone"      // a write failed: the client is unreachable
)

// generation is one request's reply in progress.
type generation struct {
	q     Query
	fault FaultKind // the fault this request gets
	after int       // tokens before a mid-stream fault
	// arrival is when the request reached the server; token n is sent at
	// arrival + ttft + n/Rate + Delay.
	arrival time.Time
	// ttft is Options.TTFT plus the prefill of the prompt's uncached
	// tokens.
	ttft time.Duration
	// cancelled reports whether the client has cancelled this generation;
	// it separates client cancels from Close.
	cancelled func() bool
	// stopping, when set, reports whether the generation is to stop for
	// a cancel the server honours: set a moment before its context ends,
	// so no token goes out in between.
	stopping func() bool
	// scored asks for each token's score (the logprobs or n_probs a
	// request asks for; logprobs.go): from the backend if it is a
	// ScoredBackend, else certain. Unscored tokens carry no Top.
	scored bool
}

// sink is how a wire sends a generation's frames.
type sink struct {
	// token sends one token; its score is set only if the generation
	// asked for scores.
	token func(tok Scored) error
	// malformed sends a frame that is not valid JSON.
	malformed func() error
}

// outcome is how a generation ended.
type outcome struct {
	text   string // the tokens sent, concatenated
	tokens int    // how many tokens were sent
	end    string // one of the end* constants
	err    error  // the backend's error, if it failed
}

// newGeneration starts the accounting for a request: it takes the next
// request number and decides the request's fault.
func (s *Server) newGeneration(q Query, arrival time.Time, cancelled func() bool) *generation {
	n := s.counts.requests.Add(1)
	return &generation{
		q:         q,
		fault:     s.opts.Fault.forRequest(n),
		after:     s.opts.Fault.after(),
		arrival:   arrival,
		ttft:      s.opts.TTFT + s.prefill(q),
		cancelled: cancelled,
	}
}

// interval is the time between tokens.
func (s *Server) interval() time.Duration {
	if s.opts.Rate <= 0 {
		return 0
	}
	return time.Duration(float64(time.Second) / s.opts.Rate)
}

// run pulls tokens from the backend and hands them to out, paced by the
// knobs, until the reply ends, ctx is done, MaxTokens is reached or a fault
// fires. A stall fault blocks until ctx is done. Tokens the backend offers
// after the client cancelled are counted, never sent. Scored or not, the
// tokens take the same path.
func (s *Server) run(ctx context.Context, g *generation, out sink) outcome {
	var (
		text   strings.Builder
		n      int
		end    string
		fired  bool
		period = s.interval()
		start  = g.arrival.Add(g.ttft + s.opts.Delay)
	)
	midFault := g.fault == FaultDrop || g.fault == FaultStall
	err := generateScored(ctx, s.backend, g.q, g.scored, func(tok Scored) bool {
		if g.cancelled() {
			s.counts.tokensAfterCancel.Add(1)
		}
		switch {
		case end != "":
			return false
		case ctx.Err() != nil, g.stopping != nil && g.stopping():
			end = endCancelled
			return false
		case g.q.MaxTokens > 0 && n >= g.q.MaxTokens:
			end = endLength
			return false
		case midFault && n >= g.after:
			end = string(g.fault)
			return false
		}
		if sleepUntil(ctx, s.clock, start.Add(time.Duration(n)*period)) != nil {
			end = endCancelled
			return false
		}
		if out.token(tok) != nil {
			end = endGone
			return false
		}
		text.WriteString(tok.Token)
		n++
		s.counts.tokens.Add(1)
		if g.fault == FaultMalformed && !fired && n >= g.after {
			fired = true
			if out.malformed() != nil {
				end = endGone
				return false
			}
		}
		return true
	})
	o := outcome{text: text.String(), tokens: n, end: end, err: err}
	if o.end == "" {
		o.end = endStop
		if ctx.Err() != nil {
			o.end = endCancelled
		}
	}
	// A reply shorter than g.after still gets its fault, before its end.
	if o.end == endStop && err == nil {
		switch {
		case midFault:
			o.end = string(g.fault)
		case g.fault == FaultMalformed && !fired:
			if out.malformed() != nil {
				o.end = endGone
			}
		}
	}
	if o.end == string(FaultStall) {
		<-ctx.Done()
		o.end = endCancelled
	}
	return o
}

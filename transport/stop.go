package transport

import (
	"strings"
	"time"
)

// stopper applies stop sequences on our side of the wire. It holds back
// any tail of the stream that could be the start of a stop string, so a
// stop split across deltas is still caught and its text never emitted.
type stopper struct {
	stops []string // non-empty strings only
	held  string   // text not yet emitted: a prefix of some stop string
}

func newStopper(stops []string) stopper {
	var s stopper
	for _, x := range stops {
		if x != "" {
			s.stops = append(s.stops, x)
		}
	}
	return s
}

// feed takes the next delta and returns the text that is safe to emit.
// stopped reports that a stop string appeared: emit is the text before it
// and the generation is over.
func (s *stopper) feed(delta string) (emit string, stopped bool) {
	if len(s.stops) == 0 {
		return delta, false
	}
	buf := s.held + delta
	cut := -1
	for _, x := range s.stops {
		if i := strings.Index(buf, x); i >= 0 && (cut < 0 || i < cut) {
			cut = i
		}
	}
	if cut >= 0 {
		s.held = ""
		return buf[:cut], true
	}
	keep := 0
	for _, x := range s.stops {
		for n := min(len(x)-1, len(buf)); n > keep; n-- {
			if strings.HasSuffix(buf, x[:n]) {
				keep = n
				break
			}
		}
	}
	s.held = buf[len(buf)-keep:]
	return buf[:len(buf)-keep], false
}

// flush returns the held-back text at the end of a generation that no
// stop string ended.
func (s *stopper) flush() string {
	h := s.held
	s.held = ""
	return h
}

// sink is one generation's receiving end: it applies stop sequences,
// accumulates the text, times the first delta and calls onDelta. It is
// used by one goroutine at a time.
type sink struct {
	onDelta func(string)
	stop    stopper
	text    strings.Builder
	start   time.Time
	ttft    time.Duration // 0 until the first non-empty delta
	stopped bool          // a stop string ended the generation
	// received counts the bytes of model text received, stop strings and
	// held text included: where the next delta starts (doubts).
	received   int
	onDoubt    func(Doubt)
	doubtBelow float64
}

func newSink(req Request, onDelta func(string)) *sink {
	if onDelta == nil {
		onDelta = func(string) {}
	}
	return &sink{onDelta: onDelta, stop: newStopper(req.Stop), start: time.Now(),
		onDoubt: req.OnDoubt, doubtBelow: req.DoubtBelow}
}

// deliver passes one delta on; it reports true when a stop string ended
// the generation (the caller then stops the model and finishes).
func (s *sink) deliver(delta string) bool {
	if s.stopped {
		return true
	}
	s.received += len(delta)
	emit, stopped := s.stop.feed(delta)
	s.emit(emit)
	s.stopped = stopped
	return stopped
}

func (s *sink) emit(t string) {
	if t == "" {
		return
	}
	if s.ttft == 0 {
		s.ttft = max(time.Since(s.start), 1)
	}
	s.text.WriteString(t)
	s.onDelta(t)
}

// finish flushes held text (unless a stop string ended the generation)
// and builds the Result.
func (s *sink) finish(reason string, outputTokens int) Result {
	if s.stopped {
		reason = "stop"
	} else {
		s.emit(s.stop.flush())
	}
	return Result{Text: s.text.String(), FinishReason: reason, TTFT: s.ttft,
		Total: time.Since(s.start), OutputTokens: outputTokens}
}

// partial builds the Result of a generation that failed or was cut off:
// the text delivered so far, without held-back text.
func (s *sink) partial(reason string) Result {
	return Result{Text: s.text.String(), FinishReason: reason, TTFT: s.ttft, Total: time.Since(s.start)}
}

// restart forgets held-back text before the request is sent again; only
// valid while nothing has been emitted.
func (s *sink) restart() { s.stop.held = ""; s.stopped = false; s.received = 0 }

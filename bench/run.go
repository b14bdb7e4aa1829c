package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/wisp-lsp/wisp/client"
	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// verbose prints every keystroke to stderr (--verbose).
var verbose bool

// keystroke is what the client saw for one key.
type keystroke struct {
	// FirstGhost is the time from the request to the first ghost text
	// (first partial notification or the response); 0 if none came before
	// the next key.
	FirstGhost time.Duration
	// Complete is the time to the response with a suggestion; 0 if none
	// came before the next key.
	Complete time.Duration
	// Shown is the ghost text on screen when the next key came.
	Shown string
	// Correct: Shown is non-empty and agrees with what the user types next;
	// LineCorrect: its first line (past a leading line break) does.
	Correct, LineCorrect bool
	// Fresh: a model request started for this key (wisp/stats);
	// Asked: one of them was the user's own, not a speculation.
	Fresh, Asked bool
	// Key is the text the key typed.
	Key string
	// Tokens is the response's token count, as the model server counts.
	Tokens int
	// UsedUp: the next key types the last of Shown, which was correct:
	// the suggestion runs out with it.
	UsedUp bool
	// ModelBound is, for the first ghost text a generation put on screen,
	// the time from the key that started the generation to that text; 0
	// otherwise.
	ModelBound time.Duration
}

// engineStats is the wisp/stats answer.
type engineStats struct {
	Queries        int64 `json:"queries"`
	ModelRequests  int64 `json:"modelRequests"`
	FromTypedAhead int64 `json:"fromTypedAhead"`
	FromCache      int64 `json:"fromCache"`
	Cancelled      int64 `json:"cancelled"`

	Speculative             int64 `json:"speculative"`
	SpeculativeUsed         int64 `json:"speculativeUsed"`
	SpeculativeCancelled    int64 `json:"speculativeCancelled"`
	Tokens                  int64 `json:"tokens"`
	SpeculativeWastedTokens int64 `json:"speculativeWastedTokens"`
	LookAheadUsed           int64 `json:"lookAheadUsed"`
	LookAheadWastedTokens   int64 `json:"lookAheadWastedTokens"`
	Warmups                 int64 `json:"warmups"`
	Branches                int64 `json:"branches"`
	BranchesUsed            int64 `json:"branchesUsed"`
	BranchWastedTokens      int64 `json:"branchWastedTokens"`
}

// session is one wisp process driven by one client.
type session struct {
	c    *client.Client
	proc *client.Process

	// genStart is when the key that started the current generation was
	// sent; genShown, whether that generation has shown text yet. Used by
	// the typing goroutine only.
	genStart time.Time
	genShown bool

	mu sync.Mutex // guards ghosts
	// ghosts maps "uri@version" to the ghost text seen for that version.
	ghosts map[string]*ghost
}

// ghost is what a version's request has put on screen so far.
type ghost struct {
	first time.Time // first non-empty text
	text  string    // latest text
	final bool      // the response arrived, with text
	done  time.Time // when the response arrived
}

type partial struct {
	TextDocument struct {
		URI string `json:"uri"`
	} `json:"textDocument"`
	Version int    `json:"version"`
	Text    string `json:"text"`
}

// openSession starts wisp serve with flags and initializes it with opts;
// it returns the time initialize took.
func openSession(ctx context.Context, bin, home string, opts any, flags ...string) (*session, time.Duration, error) {
	proc, err := startWisp(bin, home, flags...)
	if err != nil {
		return nil, 0, err
	}
	s := &session{proc: proc, ghosts: map[string]*ghost{}}
	s.c = client.New(proc, client.Options{OnNotification: s.onNote})
	start := time.Now()
	if _, err := s.c.Initialize(ctx, opts); err != nil {
		s.close(ctx)
		return nil, 0, fmt.Errorf("initialize: %w (stderr: %s)", err, proc.Stderr())
	}
	return s, time.Since(start), nil
}

func (s *session) onNote(method string, params json.RawMessage) {
	if method != "wisp/inlineCompletionPartial" {
		return
	}
	now := time.Now()
	var p partial
	if json.Unmarshal(params, &p) != nil || p.Text == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := fmt.Sprintf("%s@%d", p.TextDocument.URI, p.Version)
	g := s.ghosts[key]
	if g == nil {
		g = &ghost{first: now}
		s.ghosts[key] = g
	}
	if !g.final {
		g.text = p.Text
	}
}

// stats asks wisp/stats. A server that does not answer within 10 s is
// stuck: it is sent SIGQUIT so its goroutine dump lands in the error.
func (s *session) stats(ctx context.Context) (engineStats, error) {
	var st engineStats
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	err := s.c.Call(sctx, "wisp/stats", map[string]any{}, &st)
	if err != nil && ctx.Err() == nil {
		s.proc.Signal(syscall.SIGQUIT)
		s.proc.Wait(5 * time.Second)
		return st, fmt.Errorf("wisp did not answer wisp/stats: %w; stderr:\n%.20000s", err, s.proc.Stderr())
	}
	return st, err
}

func (s *session) close(ctx context.Context) {
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	s.c.Shutdown(sctx)
	s.c.Close()
	s.proc.Wait(5 * time.Second)
}

// typeTrace opens t's file with its tail removed and types t.Typed, one
// key every key. Each key is an incremental didChange and an inline
// completion request; a request still pending when the next key comes is
// cancelled with $/cancelRequest, as VS Code does. With accept, a key
// that comes while correct ghost text of more than one character is on
// screen takes it instead (one didChange inserting it, as an editor's
// Tab does), and typing goes on past t.Typed, into the file's rest, for
// t.Keys keys in all.
func (s *session) typeTrace(ctx context.Context, t trace, uri string, key, settle time.Duration, accept bool) ([]keystroke, error) {
	if err := s.c.Open(ctx, uri, t.Lang, t.Full[:t.Cut]); err != nil {
		return nil, err
	}
	defer func() {
		s.c.Notify(ctx, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
		s.mu.Lock()
		clear(s.ghosts)
		s.mu.Unlock()
		s.genStart, s.genShown = time.Time{}, false
	}()
	if err := sleepUntil(ctx, time.Now().Add(settle)); err != nil { // the user reads first; connections warm up
		return nil, err
	}
	var (
		out     []keystroke
		pending context.CancelFunc
		wg      sync.WaitGroup
		version int
		sent    time.Time
		lastKey int // where in t.Typed the last key typed starts
	)
	defer wg.Wait()
	prev, err := s.stats(ctx)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	typed := t.Typed
	if accept {
		typed = t.Full[t.Cut:]
	}
	for i, n := 0, 0; ; i++ {
		if err := sleepUntil(ctx, start.Add(time.Duration(i)*key)); err != nil {
			return out, err
		}
		if i > 0 {
			// The next key arrives: judge what the last one put on screen.
			pending()
			k, err := s.settle(ctx, uri, version, sent, t.remainder(n), &prev)
			if err != nil {
				return out, err
			}
			k.Key = typed[lastKey:n]
			out = append(out, k)
		}
		if n == len(typed) || accept && i == t.Keys {
			return out, nil // the last key was judged after a pause of one interval
		}
		_, size := utf8.DecodeRuneInString(typed[n:])
		if last := len(out) - 1; accept && last >= 0 && out[last].Correct && len(out[last].Shown) > size {
			// Tab: the suggestion, or as much of it as the file has left.
			size = min(len(out[last].Shown), len(typed)-n)
			out[last].UsedUp = true
		}
		lastKey = n
		off := t.Cut + n
		if version, err = s.c.Replace(ctx, uri, off, off, typed[n:n+size]); err != nil {
			return out, err
		}
		n += size
		rctx, cancel := context.WithCancel(ctx)
		pending = cancel
		sent = time.Now()
		wg.Add(1)
		go func(v, cursor int) {
			defer wg.Done()
			defer cancel()
			text, err := s.c.InlineCompletion(rctx, uri, cursor)
			if err != nil || text == "" {
				return
			}
			now := time.Now()
			s.mu.Lock()
			defer s.mu.Unlock()
			g := s.ghostLocked(uri, v, now)
			g.text, g.final, g.done = text, true, now
		}(version, off+size)
	}
}

// ghostLocked returns the record for uri at version v, creating it with
// its first ghost text seen at now. Called with s.mu held.
func (s *session) ghostLocked(uri string, v int, now time.Time) *ghost {
	key := fmt.Sprintf("%s@%d", uri, v)
	g := s.ghosts[key]
	if g == nil {
		g = &ghost{first: now}
		s.ghosts[key] = g
	}
	return g
}

// settle judges the keystroke that produced version v, sent at sent, at
// the moment the next key comes: what was on screen, how fast it came,
// whether it was right, and whether it cost a model request.
func (s *session) settle(ctx context.Context, uri string, v int, sent time.Time, next string, prev *engineStats) (keystroke, error) {
	var k keystroke
	s.mu.Lock()
	key := fmt.Sprintf("%s@%d", uri, v)
	if g := s.ghosts[key]; g != nil {
		k.FirstGhost = g.first.Sub(sent)
		k.Shown = g.text
		if g.final {
			k.Complete = g.done.Sub(sent)
			k.Tokens = len(modelserver.Tokenize(g.text))
		}
		delete(s.ghosts, key)
	}
	s.mu.Unlock()
	k.Correct = correct(k.Shown, next)
	k.LineCorrect = correct(firstLine(k.Shown), next)
	_, size := utf8.DecodeRuneInString(next)
	k.UsedUp = k.Correct && len(k.Shown) <= size
	st, err := s.stats(ctx)
	if err != nil {
		return k, err
	}
	// A branch starts when its doubt arrives, not at a key, and serves
	// only once typing takes it: neither a fresh generation nor one the
	// key asked for.
	k.Fresh = st.ModelRequests-st.Branches > prev.ModelRequests-prev.Branches
	k.Asked = st.ModelRequests-st.Speculative-st.Branches > prev.ModelRequests-prev.Speculative-prev.Branches
	if verbose {
		fmt.Fprintf(os.Stderr, "v%-4d next %-12.12q shown %-24.24q correct %-5v first %-8s asked %v\n",
			v, next, k.Shown, k.Correct, k.FirstGhost.Round(time.Millisecond/10), k.Asked)
		if !k.Correct && k.Shown != "" {
			fmt.Fprintf(os.Stderr, "WRONG shown %q\n      next  %.200q\n", k.Shown, next)
		}
	}
	*prev = st
	if k.Fresh {
		s.genStart, s.genShown = sent, false
	}
	if k.FirstGhost > 0 && !s.genShown && !s.genStart.IsZero() {
		k.ModelBound = sent.Add(k.FirstGhost).Sub(s.genStart)
		s.genShown = true
	}
	return k, nil
}

// firstLine returns s up to its first line break, or, when s starts with
// one, up to its second.
func firstLine(s string) string {
	if i := strings.IndexByte(s[min(1, len(s)):], '\n'); i >= 0 {
		return s[:i+1]
	}
	return s
}

// correct reports whether ghost text shown is right: non-empty, and a
// prefix of what the user types next (or what they type is its prefix).
func correct(shown, next string) bool {
	return shown != "" && (strings.HasPrefix(next, shown) || strings.HasPrefix(shown, next))
}

func sleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

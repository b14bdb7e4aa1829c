package lsp_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/edits"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// editSequence is one scripted next-edit case over a real file: the user
// makes edit (the first occurrence of its old text in the scope [from,
// until)), and what should follow is the rest of the change: every other
// occurrence in the scope (all), then every occurrence of each of then.
// A silent sequence expects nothing to follow.
type editSequence struct {
	kind, file  string
	from, until string
	edit        [2]string
	word, all   bool // edit matches whole words; all occurrences follow
	then        [][2]string
}

// goRing is a real file outside wisp: the standard library's ring, under
// the GOROOT the go command reports.
const goRing = "$GOROOT/src/container/ring/ring.go"

// goroot is GOROOT as the go command reports it.
var goroot = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	return strings.TrimSpace(string(out)), err
})

const (
	lruPy     = "../bench/testdata/lru.py"
	ringRs    = "../bench/testdata/ring.rs"
	emitterTs = "../bench/testdata/emitter.ts"
)

var editSequences = []editSequence{
	{kind: "rename", file: goRing, from: "func New(n int) *Ring {", until: "\n}\n", edit: [2]string{"p", "last"}, word: true, all: true},
	{kind: "rename", file: goRing, from: "func (r *Ring) Link(", until: "\n}\n", edit: [2]string{"n", "next"}, word: true, all: true},
	{kind: "rename", file: goRing, from: "func (r *Ring) Len(", until: "\n}\n", edit: [2]string{"n", "count"}, word: true, all: true},
	{kind: "rename", file: goRing, from: "func (r *Ring) Do(", until: "\n}\n", edit: [2]string{"f", "fn"}, word: true, all: true},
	{kind: "rename", file: goRing, from: "func (r *Ring) Move(", until: "\n}\n", edit: [2]string{"n", "steps"}, word: true, all: true},
	{kind: "pattern-far", file: goRing, from: "func (r *Ring) Len(", until: "@@end", edit: [2]string{"p = p.next", "p = p.Next()"}, all: true},
	{kind: "silent", file: goRing, from: "// Len computes", until: "\n}\n", edit: [2]string{"proportional", "linear"}},
	{kind: "silent", file: goRing, from: "func (r *Ring) Unlink(", until: "\n}\n", edit: [2]string{"n <= 0", "n < 1"}},
	{kind: "rename", file: lruPy, from: "    def get(self", until: "\n\n    def put", edit: [2]string{"entry", "item"}, word: true, all: true},
	{kind: "pattern", file: lruPy, from: "    def get(self", until: "\n\n    def put", edit: [2]string{"self.stats.misses += 1", "self._miss()"}, all: true},
	{kind: "rename", file: lruPy, from: "    def hit_rate", until: "\n\n\n@dataclass", edit: [2]string{"total", "lookups"}, word: true, all: true},
	{kind: "rename", file: lruPy, from: "    def put(", until: "\n\n    def pop", edit: [2]string{"expires_at", "deadline"}, word: true, all: true},
	{kind: "rename", file: lruPy, from: "    def purge_expired", until: "\n\n    def _expired", edit: [2]string{"stale", "expired"}, word: true, all: true},
	{kind: "rename", file: lruPy, from: "        def wrapper", until: "            return value\n", edit: [2]string{"sentinel", "missing"}, word: true, all: true},
	{kind: "field", file: lruPy, from: "    _items: ", until: "\n\n\ndef memoize", edit: [2]string{"_items", "_entries"}, word: true, all: true},
	{kind: "param", file: lruPy, from: "    def __contains__", until: "@@end", edit: [2]string{"entry: _Entry[V])", "entry: _Entry[V], now: float)"},
		then: [][2]string{{"self._expired(entry)", "self._expired(entry, self.clock())"}}},
	{kind: "silent", file: lruPy, from: "class Stats:", until: "\n\n", edit: [2]string{"Counters", "Tallies"}},
	{kind: "silent", file: lruPy, from: "def memoize(", until: ":\n", edit: [2]string{"128", "256"}},
	{kind: "rename", file: ringRs, from: "    pub fn push(", until: "\n    }\n\n", edit: [2]string{"tail", "slot"}, word: true, all: true},
	{kind: "rename", file: ringRs, from: "    pub fn pop(", until: "\n    }\n", edit: [2]string{"value", "oldest"}, word: true, all: true},
	{kind: "pattern", file: ringRs, from: "    pub fn push(", until: "\n    }\n\n", edit: [2]string{"% self.capacity()", "% self.slots.len()"}, all: true},
	{kind: "field", file: ringRs, from: "    head: usize,", until: "@@end", edit: [2]string{"head", "start"}, word: true, all: true},
	{kind: "silent", file: ringRs, from: "    /// Removes and returns", until: "\n", edit: [2]string{"oldest", "earliest"}},
	{kind: "rename", file: emitterTs, from: "  off<K", until: "\n  }\n", edit: [2]string{"regs", "registrations"}, word: true, all: true},
	{kind: "rename", file: emitterTs, from: "  emit<K", until: "\n  }\n", edit: [2]string{"snapshot", "copy"}, word: true, all: true},
	{kind: "param", file: emitterTs, from: "  on<K", until: "\n  }\n", edit: [2]string{"listener: Listener<Events[K]>)", "listener: Listener<Events[K]>, signal?: AbortSignal)"},
		then: [][2]string{{"listener, false)", "listener, false, signal)"}}},
	{kind: "pattern", file: emitterTs, from: "  emit<K", until: "\n  }\n", edit: [2]string{"String(event)", "this.describe(event)"}, all: true},
	{kind: "silent", file: emitterTs, from: "  emit<K", until: "\n  }\n", edit: [2]string{"after dispose", "after disposal"}},
}

// script returns the text before, after the user's edit, and as it
// should end up, with the user's edit as a byte range of before.
func (s editSequence) script(t testing.TB) (before, edited, after string, start, end int) {
	file := s.file
	if rest, ok := strings.CutPrefix(file, "$GOROOT/"); ok {
		root, err := goroot()
		if err != nil {
			t.Fatalf("go env GOROOT: %v", err)
		}
		file = filepath.Join(root, rest)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	before = string(data)
	from := strings.Index(before, s.from)
	if from < 0 {
		t.Fatalf("%s: no %q", s.file, s.from)
	}
	until := len(before)
	if i := strings.Index(before[from:], s.until); i >= 0 {
		until = from + i + len(s.until)
	}
	pattern := regexp.QuoteMeta(s.edit[0])
	if s.word {
		pattern = `\b` + pattern + `\b`
	}
	re := regexp.MustCompile(pattern)
	scope := before[from:until]
	loc := re.FindStringIndex(scope)
	if loc == nil {
		t.Fatalf("%s: no %q after %q", s.file, s.edit[0], s.from)
	}
	start, end = from+loc[0], from+loc[1]
	edited = before[:start] + s.edit[1] + before[end:]
	if !s.all && len(s.then) == 0 {
		return before, edited, edited, start, end
	}
	newScope := edited[from : until+len(s.edit[1])-len(s.edit[0])]
	if s.all {
		newScope = re.ReplaceAllLiteralString(newScope, s.edit[1])
	}
	for _, r := range s.then {
		newScope = strings.ReplaceAll(newScope, r[0], r[1])
	}
	after = edited[:from] + newScope + edited[until+len(s.edit[1])-len(s.edit[0]):]
	return before, edited, after, start, end
}

// changedChars is how many characters edits of old delete and insert.
func changedChars(es []edits.Edit) int {
	n := 0
	for _, e := range es {
		n += e.End - e.Start + len(e.Text)
	}
	return n
}

// outcome is how one replayed sequence went.
type outcome struct {
	// latency is from sending the user's edit to the first answer;
	// model is how long the model server took to generate it (its time
	// to first token plus its tokens at its rate).
	latency, model time.Duration
	exact, silent  bool
	// suggested and truth count the characters the suggested edits and
	// the true diff (the user's edit to the end state) change.
	suggested, truth int
	// rounds counts the suggestions accepted in a row.
	rounds int
}

// BenchmarkNextEdit replays the scripted edit sequences through the real
// server (a pipe, as an editor) against the model server's oracle over
// the Responses WebSocket: each user edit, then wisp/nextEdit, its edits
// applied as the editor would, asked again after each accepted one (up
// to maxRounds). The oracle answers at once (no time to first token,
// no pacing), so the latency is wisp's own time plus a loopback round
// trip and the oracle's alignment; paced like a fast hosted model
// (100 ms to the first token, 1,000 tokens/s), the latency less the
// model's own time is wisp's. Run with -benchtime 1x.
func BenchmarkNextEdit(b *testing.B) {
	b.Run("instant", func(b *testing.B) { benchNextEdit(b, modelserver.Options{}) })
	b.Run("ttft100ms-1000tps", func(b *testing.B) {
		benchNextEdit(b, modelserver.Options{TTFT: 100 * time.Millisecond, Rate: 1000})
	})
}

func benchNextEdit(b *testing.B, opts modelserver.Options) {
	dir := b.TempDir()
	type scripted struct {
		uri, lang             string
		before, edited, after string
		start, end            int
	}
	var seqs []scripted
	for i, s := range editSequences {
		before, edited, after, start, end := s.script(b)
		name := fmt.Sprintf("seq%02d%s", i, filepath.Ext(s.file))
		if err := os.WriteFile(filepath.Join(dir, name), []byte(after), 0o644); err != nil {
			b.Fatal(err)
		}
		lang := map[string]string{".go": "go", ".py": "python", ".rs": "rust", ".ts": "typescript"}[filepath.Ext(s.file)]
		seqs = append(seqs, scripted{"file:///bench/" + name, lang, before, edited, after, start, end})
	}
	results := make([]outcome, len(seqs))
	for b.Loop() {
		opts.Backend = modelserver.Oracle{Root: dir}
		ms := modelserver.New(opts)
		e, enc := benchSession(b, serveModel(b, ms))
		for i, s := range seqs {
			tokens := ms.Stats().Tokens
			results[i] = replay(b, e, enc, s.uri, s.lang, s.before, s.edited, s.after, s.start, s.end, func() time.Duration {
				n := ms.Stats().Tokens - tokens
				if n == 0 {
					return 0
				}
				model := opts.TTFT
				if opts.Rate > 0 {
					model += time.Duration(float64(n-1) / opts.Rate * float64(time.Second))
				}
				return model
			})
		}
	}
	var lat, over []time.Duration
	exact, moving, silent, quiet, sugg, truth := 0, 0, 0, 0, 0, 0
	for i, r := range results {
		lat = append(lat, r.latency)
		over = append(over, r.latency-r.model)
		if editSequences[i].kind == "silent" {
			quiet++
			if r.silent {
				silent++
			}
		} else {
			moving++
			if r.exact {
				exact++
				sugg += r.suggested
				truth += r.truth
			}
		}
		b.Logf("%2d %-11s %-10s first answer %7.2f ms (model %7.2f ms)  exact=%-5v silent=%-5v chars %d/%d in %d", i, editSequences[i].kind,
			filepath.Base(editSequences[i].file), ms(r.latency), ms(r.model), r.exact, r.silent, r.suggested, r.truth, r.rounds)
	}
	slices.Sort(lat)
	slices.Sort(over)
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[len(lat)*9/10]), "p90-ms")
	b.ReportMetric(ms(over[len(over)/2]), "p50-wisp-ms")
	b.ReportMetric(ms(over[len(over)*9/10]), "p90-wisp-ms")
	b.ReportMetric(ms(over[len(over)-1]), "max-wisp-ms")
	b.ReportMetric(float64(exact)/float64(moving), "exact-share")
	b.ReportMetric(float64(silent)/float64(quiet), "silent-share")
	if truth > 0 {
		b.ReportMetric(float64(sugg)/float64(truth), "chars/true-diff")
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// benchSession starts a server on model, with next edits on and no
// background asking, and returns the negotiated position encoding.
func benchSession(b *testing.B, model transport.Model) (*fakeEditor, text.Encoding) {
	e := startServer(b, model, config.Default())
	caps := e.initialize("initialize-nvim-0.12.4.json", map[string]any{"nextEdit": map[string]any{"enabled": true, "minPause": "1h"}})
	name, _ := caps["capabilities"].(map[string]any)["positionEncoding"].(string)
	enc, ok := text.ParseEncoding(name)
	if !ok {
		enc = text.UTF16
	}
	return e, enc
}

// maxRounds bounds the suggestions accepted in a row per sequence: the
// user pressing Tab again after each.
const maxRounds = 8

// replay runs one sequence: open, the user's edit, then rounds of asking
// and applying until nothing follows.
// firstAnswered, called once the first answer is in, returns the model's
// time for it.
func replay(b *testing.B, e *fakeEditor, enc text.Encoding, uri, lang, before, edited, after string, start, end int, firstAnswered func() time.Duration) outcome {
	b.Helper()
	e.open(uri, lang, before)
	defer e.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	cur := text.New(before)
	r, err := cur.RangeOf(start, end, enc)
	if err != nil {
		b.Fatal(err)
	}
	cur = text.New(edited)
	at, _ := cur.Position(start+len(edited)-len(before)+end-start, enc)
	version := 2
	t0 := time.Now()
	e.change(uri, version, r.Start.Line, r.Start.Character, r.End.Line, r.End.Character, edited[start:start+len(edited)-len(before)+end-start])
	res := e.nextEdit("wisp/nextEdit", uri, version, at.Line, at.Character)
	out := outcome{latency: time.Since(t0), silent: len(res.Edits) == 0}
	out.model = firstAnswered()
	for round := 0; round < maxRounds && len(res.Edits) > 0; round++ {
		var changes []any
		for i := len(res.Edits) - 1; i >= 0; i-- {
			ed := res.Edits[i]
			s, err1 := cur.Offset(text.Position{Line: ed.Range.Start.Line, Character: ed.Range.Start.Character}, enc)
			en, err2 := cur.Offset(text.Position{Line: ed.Range.End.Line, Character: ed.Range.End.Character}, enc)
			if err1 != nil || err2 != nil || ed.TextDocument.Version != int32(version) {
				b.Fatalf("%s: edit %+v does not fit version %d", uri, ed, version)
			}
			out.suggested += en - s + len(ed.Text)
			cur, _, _ = cur.Replace(s, en, ed.Text)
			changes = append(changes, map[string]any{"range": ed.Range, "text": ed.Text})
		}
		version++
		out.rounds++
		e.notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": uri, "version": version}, "contentChanges": changes})
		last := res.Edits[len(res.Edits)-1].Range.Start
		res = e.nextEdit("wisp/nextEdit", uri, version, last.Line, last.Character)
	}
	out.exact = cur.String() == after && after != edited
	out.truth = changedChars(edits.Diff(edited, after))
	return out
}

// Package history keeps a short log of the user's recent edits across
// files, each as a small unified-style diff: what the model should know
// the user has just done, and what next-edit prediction starts from.
// Keystrokes that continue one another (typing a word, a line, a few
// adjacent lines) merge into one entry, so the log holds edits as a
// person would name them, not one entry per key.
package history

import (
	"strconv"
	"strings"
	"sync"

	"github.com/wisp-lsp/wisp/text"
)

// Limits that keep the log small whatever the user does (a paste of a
// whole file, a formatter rewriting everything).
const (
	// DefaultSize is how many edits a History keeps.
	DefaultSize = 16
	// maxHunkLines bounds the lines of each side of a diff; longer sides
	// are cut with a "…" line.
	maxHunkLines = 8
	// maxSideBytes bounds the text each side of an entry keeps.
	maxSideBytes = 4 << 10
)

// Edit is one recent edit.
type Edit struct {
	// Path is the edited file.
	Path string `json:"path"`
	// Line is the 0-based first line of the edit in the file as it was
	// right after the edit; Lines is how many lines the new text spans.
	Line  int `json:"line"`
	Lines int `json:"lines"`
	// Diff is the edit as a unified-style hunk: "@@ -L,N +L,M @@", then
	// the removed lines ("-") and the added lines ("+").
	Diff string `json:"diff"`
}

// History is a bounded log of recent edits. It is safe for concurrent
// use.
type History struct {
	mu      sync.Mutex
	entries []entry // oldest first, at most size; guarded by mu
	size    int     // immutable
}

// entry is one edit region. Only the newest entry still grows: an edit
// next to it merges into it; any other edit starts a new one.
type entry struct {
	path        string
	first, last int    // lines of the region in the file's text after the edit (inclusive)
	old, now    string // the region's lines before the first merged edit and now
}

// New returns a History keeping the last size edits (DefaultSize when
// size <= 0).
func New(size int) *History {
	if size <= 0 {
		size = DefaultSize
	}
	return &History{size: size}
}

// Record notes that the file at path changed from before to after by
// edits (as text.Apply returns them, each against the text the previous
// one produced).
func (h *History) Record(path string, before, after *text.Text, edits []text.Edit) {
	if h == nil || len(edits) == 0 || before == nil || after == nil {
		return
	}
	bs, be, as, ae := changed(before, after, edits)
	if bs == be && as == ae {
		return
	}
	b0, b1 := before.LineOf(bs), before.LineOf(be)
	a1 := after.LineOf(ae)
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := len(h.entries); n > 0 {
		e := &h.entries[n-1]
		if e.path == path && b0 <= e.last+1 && b1+1 >= e.first {
			// The edit touches the newest entry: merge. Lines the entry
			// did not cover yet were unchanged until now, so their old
			// text is the text before this edit.
			u0, u1 := min(e.first, b0), max(e.last, b1)
			e.old = bound(lines(before, u0, e.first-1) + e.old + lines(before, e.last+1, u1))
			e.first, e.last = u0, u1+(a1-b1)
			e.now = bound(lines(after, e.first, e.last))
			if e.old == e.now {
				h.entries = h.entries[:n-1] // undone
			}
			return
		}
	}
	e := entry{path: path, first: b0, last: a1, old: bound(lines(before, b0, b1)), now: bound(lines(after, b0, a1))}
	if e.old == e.now {
		return
	}
	h.entries = append(h.entries, e)
	if len(h.entries) > h.size {
		h.entries = append(h.entries[:0], h.entries[len(h.entries)-h.size:]...)
	}
}

// Recent returns up to n edits, newest first.
func (h *History) Recent(n int) []Edit {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]Edit, 0, min(n, len(h.entries)))
	for i := len(h.entries) - 1; i >= 0 && len(out) < n; i-- {
		e := h.entries[i]
		out = append(out, Edit{Path: e.path, Line: e.first, Lines: e.last - e.first + 1, Diff: diff(e)})
	}
	return out
}

// changed returns the changed byte range in before [bs, be) and in after
// [as, ae). One edit (a keystroke) is read directly; several are compared
// by their common prefix and suffix.
func changed(before, after *text.Text, edits []text.Edit) (bs, be, as, ae int) {
	e := edits[0]
	if len(edits) > 1 {
		e = text.Between(before, after)
	}
	return e.Start, e.OldEnd, e.Start, e.NewEnd
}

// lines returns lines first..last of t (inclusive) with their line
// breaks; "" when last < first.
func lines(t *text.Text, first, last int) string {
	if last < first {
		return ""
	}
	first = max(0, first)
	last = min(last, t.LineCount()-1)
	end := t.Len()
	if last+1 < t.LineCount() {
		end = t.LineStart(last + 1)
	}
	return t.String()[t.LineStart(first):end]
}

// bound bounds s to maxSideBytes, cutting at a line break.
func bound(s string) string {
	if len(s) <= maxSideBytes {
		return s
	}
	if i := strings.LastIndexByte(s[:maxSideBytes], '\n'); i > 0 {
		return s[:i+1]
	}
	return s[:maxSideBytes]
}

// diff renders e as a hunk, leaving out the lines at either end that the
// edit did not change.
func diff(e entry) string {
	old, now := split(e.old), split(e.now)
	first := e.first
	for len(old) > 0 && len(now) > 0 && old[0] == now[0] {
		old, now, first = old[1:], now[1:], first+1
	}
	for len(old) > 0 && len(now) > 0 && old[len(old)-1] == now[len(now)-1] {
		old, now = old[:len(old)-1], now[:len(now)-1]
	}
	var b strings.Builder
	b.WriteString(hunkHeader(first, len(old), len(now)))
	side(&b, "-", old)
	side(&b, "+", now)
	return strings.TrimSuffix(b.String(), "\n")
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func side(b *strings.Builder, mark string, ls []string) {
	for i, l := range ls {
		if i == maxHunkLines {
			b.WriteString(mark + "…\n")
			return
		}
		b.WriteString(mark + strings.TrimSuffix(l, "\r") + "\n")
	}
}

func hunkHeader(first, nOld, nNew int) string {
	return "@@ -" + lineRange(first, nOld) + " +" + lineRange(first, nNew) + " @@\n"
}

func lineRange(first, n int) string {
	return strconv.Itoa(first+1) + "," + strconv.Itoa(n)
}

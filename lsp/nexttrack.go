package lsp

import (
	"context"
	"strconv"
	"sync"
	"time"

	"go.lsp.dev/uri"

	"github.com/wisp-lsp/wisp/edits"
	"github.com/wisp-lsp/wisp/nextedit"
	"github.com/wisp-lsp/wisp/text"
)

// nextEdits is the server's next-edit state: each document's recent
// edits, the prediction in flight and the suggestion for its current
// version. Its methods are safe for concurrent use.
type nextEdits struct {
	counters nextedit.Counters

	mu   sync.Mutex // guards the fields below and every nextDoc
	docs map[uri.URI]*nextDoc
	ids  int // numbers suggestions
	// outcome remembers how recent suggestions ended ("accepted",
	// "dismissed"), by id, so a client's accept command that comes after
	// its edit was seen as typing is counted once, as accepted.
	outcome map[string]string
	closed  bool
}

// nextDoc is one document's next-edit state.
type nextDoc struct {
	history *nextedit.History // never nil
	// gen is the prediction in flight; nil when none.
	gen *nextGen
	// sugg is the suggestion, its edits kept against the document's
	// current version; nil when there is none.
	sugg *nextSugg
	// timer asks in the background after a pause in typing; nil when
	// none is pending.
	timer *time.Timer
	// silent is the version a prediction found nothing follows for, so
	// it is not asked again; 0 when none.
	silent int32
}

// nextGen is one prediction in flight.
type nextGen struct {
	version int32        // the version it was asked for
	region  edits.Region // the region it rewrites, in the current text
	cancel  context.CancelFunc
	// changes are the changes made since version, in order.
	changes []text.Edit
	// diverged is set when a change touched region; the generation was
	// then cancelled.
	diverged bool
	done     chan struct{} // closed when the prediction ended
}

// nextSugg is a suggested next edit.
type nextSugg struct {
	id      string
	version int32        // the version edits are against
	edits   []edits.Edit // minimal, sorted, non-empty
	shown   bool
}

func newNextEdits() *nextEdits {
	return &nextEdits{docs: map[uri.URI]*nextDoc{}, outcome: map[string]string{}}
}

func (n *nextEdits) docLocked(u uri.URI) *nextDoc {
	d := n.docs[u]
	if d == nil {
		d = &nextDoc{history: nextedit.NewHistory()}
		n.docs[u] = d
	}
	return d
}

// didChange records a change of u (now at version) from before to after.
// ask is called once typing has paused for pause (when positive), or at
// once when the change applied the suggestion. A prediction whose region the change touches is cancelled at the model
// (the user diverged from it); the suggestion is rebased over the change,
// counted accepted when the change is exactly it, and dropped (dismissed,
// if shown) when the change conflicts with it.
func (n *nextEdits) didChange(u uri.URI, version int32, before, after *text.Text, changes []text.Edit, pause time.Duration, ask func()) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return
	}
	d := n.docLocked(u)
	d.history.Record(before, after, changes)
	if g := d.gen; g != nil && !g.diverged {
		for _, c := range changes {
			if c.Start <= g.region.End && c.OldEnd >= g.region.Start {
				g.diverged = true
				g.cancel()
				n.counters.Cancel()
				break
			}
			if c.OldEnd < g.region.Start {
				delta := c.NewEnd - c.OldEnd
				g.region.Start += delta
				g.region.End += delta
			}
		}
		g.changes = append(g.changes, changes...)
	}
	accepted := false
	if sg := d.sugg; sg != nil {
		if appliesExactly(before, after, sg.edits) {
			n.endLocked(sg, "accepted")
			d.sugg, accepted = nil, true
		} else if rebased, err := edits.Rebase(sg.edits, changes); err != nil {
			if sg.shown {
				n.endLocked(sg, "dismissed")
			}
			d.sugg = nil
		} else {
			sg.edits, sg.version = rebased, version
		}
	}
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	if accepted && ask != nil {
		// Right after an accepted suggestion: the next one may follow.
		d.timer = time.AfterFunc(0, ask)
	} else if pause > 0 && ask != nil {
		d.timer = time.AfterFunc(pause, ask)
	}
}

// appliesExactly reports whether after is before with es applied.
func appliesExactly(before, after *text.Text, es []edits.Edit) bool {
	delta := 0
	for _, e := range es {
		delta += len(e.Text) - (e.End - e.Start)
	}
	if after.Len()-before.Len() != delta {
		return false // most keystrokes: no need to build the text
	}
	applied, err := edits.Apply(before.String(), es)
	return err == nil && applied == after.String()
}

// endLocked counts how a suggestion ended and remembers it.
func (n *nextEdits) endLocked(sg *nextSugg, how string) {
	if len(n.outcome) > 256 {
		n.outcome = map[string]string{}
	}
	switch how {
	case "accepted":
		n.counters.Accept()
	case "dismissed":
		n.counters.Dismiss()
	}
	n.outcome[sg.id] = how
}

// accepted counts the client's accept command for suggestion id.
func (n *nextEdits) accepted(id string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch n.outcome[id] {
	case "accepted":
		return // its edit was already recognised as typed
	case "dismissed":
		n.counters.Undismiss()
	}
	n.counters.Accept()
	n.outcome[id] = "accepted"
	for _, d := range n.docs {
		if d.sugg != nil && d.sugg.id == id {
			d.sugg = nil
		}
	}
}

// shown marks suggestion id as shown, once.
func (n *nextEdits) shown(id string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, d := range n.docs {
		if sg := d.sugg; sg != nil && sg.id == id && !sg.shown {
			sg.shown = true
			n.counters.Show()
		}
	}
}

// begin registers a prediction of u at version for region. It returns
// nil and the prediction already in flight for that version, if any, to
// wait for; or nil, nil when the current suggestion is for version, or
// the document has moved past it.
func (n *nextEdits) begin(ctx context.Context, u uri.URI, version, current int32, region edits.Region) (context.Context, *nextGen, *nextGen) {
	n.mu.Lock()
	defer n.mu.Unlock()
	d := n.docLocked(u)
	if n.closed || version != current || d.silent == version || (d.sugg != nil && d.sugg.version == version) {
		return ctx, nil, nil
	}
	if g := d.gen; g != nil && !g.diverged && g.version == version {
		return ctx, nil, g
	}
	if g := d.gen; g != nil {
		g.cancel() // asked for an older version
	}
	ctx, cancel := context.WithCancel(ctx)
	g := &nextGen{version: version, region: region, cancel: cancel, done: make(chan struct{})}
	d.gen = g
	n.counters.Request()
	return ctx, g, nil
}

// finish ends prediction g of u with its suggestion: the edits, against
// g's version, are rebased over the changes made since and kept as u's
// suggestion; a conflict drops them. A failed or cancelled prediction
// (err) leaves no suggestion and counts as no answer.
func (n *nextEdits) finish(u uri.URI, g *nextGen, es []edits.Edit, err error, current int32) {
	n.mu.Lock()
	defer n.mu.Unlock()
	defer close(g.done)
	g.cancel()
	d := n.docLocked(u)
	if d.gen == g {
		d.gen = nil
	}
	if g.diverged || n.closed || err != nil {
		return
	}
	if len(es) == 0 {
		n.counters.Silence()
		if len(g.changes) == 0 {
			d.silent = g.version
		}
		return
	}
	rebased, err := edits.Rebase(es, g.changes)
	if err != nil {
		n.counters.Drop()
		return
	}
	n.counters.Suggest()
	n.ids++
	d.sugg = &nextSugg{id: strconv.Itoa(n.ids), version: current, edits: rebased}
}

// current returns a copy of u's suggestion for version, if any.
func (n *nextEdits) current(u uri.URI, version int32) (nextSugg, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if d := n.docs[u]; d != nil && d.sugg != nil && d.sugg.version == version {
		return *d.sugg, true
	}
	return nextSugg{}, false
}

// lastEdit returns where u's latest edit ended and its recent edits.
func (n *nextEdits) lastEdit(u uri.URI) (int, []nextedit.Hunk, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	d := n.docs[u]
	if d == nil {
		return 0, nil, false
	}
	off, ok := d.history.Last()
	return off, d.history.Hunks(), ok
}

// forget drops u's state (didClose).
func (n *nextEdits) forget(u uri.URI) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if d := n.docs[u]; d != nil {
		if d.gen != nil {
			d.gen.cancel()
		}
		if d.timer != nil {
			d.timer.Stop()
		}
		delete(n.docs, u)
	}
}

// close cancels every prediction and pending pause; nothing starts after.
func (n *nextEdits) close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.closed = true
	for u := range n.docs {
		d := n.docs[u]
		if d.gen != nil {
			d.gen.cancel()
		}
		if d.timer != nil {
			d.timer.Stop()
		}
	}
}

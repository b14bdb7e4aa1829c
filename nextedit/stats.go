package nextedit

import "sync/atomic"

// Stats are next-edit counters, as wisp/stats reports them.
type Stats struct {
	// Asked counts the clients' next-edit requests, answered from the
	// model or not (next edits off, a version the document has left).
	Asked int64 `json:"asked"`
	// Requests counts predictions asked of the model.
	Requests int64 `json:"requests"`
	// Suggested counts predictions that found an edit; Silent those
	// that found nothing follows.
	Suggested int64 `json:"suggested"`
	Silent    int64 `json:"silent"`
	// Cancelled counts predictions stopped at the model by a keystroke
	// that diverged from them (or by the client).
	Cancelled int64 `json:"cancelled"`
	// Dropped counts suggestions the user's typing made stale before
	// they were answered (a rebase conflict).
	Dropped int64 `json:"dropped"`
	// Shown, Accepted and Dismissed count what the user saw and did:
	// a suggestion shown (didShowInlineEdit) or offered as a code action,
	// applied, or left behind by typing elsewhere.
	Shown     int64 `json:"shown"`
	Accepted  int64 `json:"accepted"`
	Dismissed int64 `json:"dismissed"`
}

// Counters collect Stats; safe for concurrent use. The zero value is
// ready.
type Counters struct {
	asked, requests, suggested, silent, cancelled, dropped atomic.Int64
	shown, accepted, dismissed                             atomic.Int64
}

// Count functions, one per counter.
func (c *Counters) Ask()       { c.asked.Add(1) }
func (c *Counters) Request()   { c.requests.Add(1) }
func (c *Counters) Suggest()   { c.suggested.Add(1) }
func (c *Counters) Silence()   { c.silent.Add(1) }
func (c *Counters) Cancel()    { c.cancelled.Add(1) }
func (c *Counters) Drop()      { c.dropped.Add(1) }
func (c *Counters) Show()      { c.shown.Add(1) }
func (c *Counters) Accept()    { c.accepted.Add(1) }
func (c *Counters) Dismiss()   { c.dismissed.Add(1) }
func (c *Counters) Undismiss() { c.dismissed.Add(-1) }

// Stats returns the counters' values.
func (c *Counters) Stats() Stats {
	return Stats{
		Asked: c.asked.Load(), Requests: c.requests.Load(), Suggested: c.suggested.Load(), Silent: c.silent.Load(),
		Cancelled: c.cancelled.Load(), Dropped: c.dropped.Load(),
		Shown: c.shown.Load(), Accepted: c.accepted.Load(), Dismissed: c.dismissed.Load(),
	}
}

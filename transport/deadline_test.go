package transport

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// pacedModel sends its deltas with the given gaps before each (a gap < 0
// blocks until cancelled), and records how it ended.
type pacedModel struct {
	gaps      []time.Duration
	cancelled atomic.Bool
	checked   atomic.Int32
}

func (m *pacedModel) Generate(ctx context.Context, _ Request, onDelta func(string)) (Result, error) {
	for _, gap := range m.gaps {
		wait := make(<-chan time.Time)
		if gap >= 0 {
			wait = time.After(gap)
		}
		select {
		case <-wait:
			onDelta("x")
		case <-ctx.Done():
			m.cancelled.Store(true)
			return Result{}, cancelled(ctx)
		}
	}
	return Result{FinishReason: "stop"}, nil
}

func (m *pacedModel) Close() error { return nil }
func (m *pacedModel) CheckHealth() { m.checked.Add(1) }

func TestDeadlines(t *testing.T) {
	d := Deadlines{FirstToken: 3 * time.Second, Idle: time.Second}
	cases := []struct {
		name    string
		gaps    []time.Duration
		stalled bool
		took    time.Duration
	}{
		{"slow but within both", []time.Duration{2900 * time.Millisecond, 900 * time.Millisecond, 900 * time.Millisecond}, false, 4700 * time.Millisecond},
		{"no first token", []time.Duration{-1}, true, 3 * time.Second},
		{"first token late", []time.Duration{3100 * time.Millisecond}, true, 3 * time.Second},
		{"silent mid-stream", []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, -1}, true, 1300 * time.Millisecond},
		{"one gap too long", []time.Duration{0, 999 * time.Millisecond, 1001 * time.Millisecond}, true, 1999 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				inner := &pacedModel{gaps: c.gaps}
				m := WithDeadlines(inner, d)
				start := time.Now()
				res, err := m.Generate(context.Background(), Request{}, nil)
				if took := time.Since(start); took != c.took {
					t.Errorf("ended after %v (fake clock), want %v", took, c.took)
				}
				if !c.stalled {
					if err != nil || inner.cancelled.Load() || inner.checked.Load() != 0 {
						t.Fatalf("%+v, %v; cancelled %v, checked %d: want it to finish untouched", res, err, inner.cancelled.Load(), inner.checked.Load())
					}
					return
				}
				var e *Error
				if !asError(err, &e) || e.Kind != KindUnavailable || e.Code != "stalled" || res.FinishReason != "stalled" {
					t.Fatalf("%+v, %v: want a stalled Unavailable error", res, err)
				}
				if !inner.cancelled.Load() {
					t.Error("the stalled generation was not cancelled at the model")
				}
				if inner.checked.Load() != 1 {
					t.Error("the connection was not health-checked after the stall")
				}
			})
		})
	}
}

// A caller's own cancel stays a cancellation, not a stall.
func TestDeadlineCallerCancelIsNotAStall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := &pacedModel{gaps: []time.Duration{-1}}
		m := WithDeadlines(inner, Deadlines{})
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err := m.Generate(ctx, Request{}, nil)
		if !IsCancelled(err) || inner.checked.Load() != 0 {
			t.Fatalf("%v, checked %d: want a plain cancellation", err, inner.checked.Load())
		}
	})
}

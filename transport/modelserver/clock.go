package modelserver

import (
	"context"
	"time"
)

// Clock is the server's source of time: pacing, delays and the connection
// age cap go through it, so tests can control time instead of sleeping.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// Sleep waits for d or until ctx is done, whichever comes first, and
	// returns ctx.Err() in the second case.
	Sleep(ctx context.Context, d time.Duration) error
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sleepUntil waits until the clock reaches t (or ctx is done).
func sleepUntil(ctx context.Context, c Clock, t time.Time) error {
	return c.Sleep(ctx, t.Sub(c.Now()))
}

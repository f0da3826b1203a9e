package fetch

import (
	"context"
	"time"
)

// clock is the time source of pacing and retries; tests replace it so
// intervals can be checked without waiting or flaking.
type clock interface {
	Now() time.Time
	// SleepUntil returns at t, or with ctx's error when ctx ends first.
	SleepUntil(ctx context.Context, t time.Time) error
}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func (wallClock) SleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

package sec

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
)

var _ prospector.TokenBucket = (*LocalBucket)(nil)

// errBadRate is returned for a bucket that would never refill or hold a
// token.
var errBadRate = errors.New("sec: token bucket needs a positive rate and burst")

// LocalBucket is an in-process prospector.TokenBucket: it paces the
// requests of one process only, so a deployment of several nodes needs a
// shared bucket instead. Safe for concurrent use.
type LocalBucket struct {
	// Now returns the current time; tests replace it before first use.
	Now func() time.Time

	mu  sync.Mutex
	tat map[string]time.Time
}

// NewLocalBucket returns an empty in-process bucket on the wall clock.
func NewLocalBucket() *LocalBucket {
	return &LocalBucket{Now: time.Now, tat: map[string]time.Time{}}
}

// Reserve implements prospector.TokenBucket. It fails only for a rate or
// burst that is not positive.
func (b *LocalBucket) Reserve(_ context.Context, key string, ratePerSecond float64, burst int) (time.Duration, error) {
	if !(ratePerSecond > 0) || burst < 1 {
		return 0, errBadRate
	}
	interval := time.Duration(float64(time.Second) / ratePerSecond)
	now := b.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	tat := b.tat[key]
	if tat.Before(now) {
		tat = now
	}
	wait := tat.Add(-time.Duration(burst-1) * interval).Sub(now)
	if wait < 0 {
		wait = 0
	}
	b.tat[key] = tat.Add(interval)
	return wait, nil
}

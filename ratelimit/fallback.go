package ratelimit

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/prospectorhq/prospector"
)

var _ prospector.RateLimiter = (*Fallback)(nil)

const (
	defaultCooldown = time.Second
	warnEvery       = 30 * time.Second
)

// Fallback asks a primary limiter and, when it fails, a local one; see the
// package documentation for the policy.
type Fallback struct {
	primary  prospector.RateLimiter
	local    prospector.RateLimiter
	logger   *slog.Logger
	cooldown time.Duration
	epoch    time.Time // times below are monotonic offsets from here

	// retryAt is when the primary may be tried again; 0 means healthy.
	retryAt  atomic.Int64
	warnAt   atomic.Int64 // when the next warning may be logged
	failures atomic.Int64 // primary failures since the last warning
	warned   atomic.Bool  // a warning awaits its "recovered" message
}

// NewFallback returns a limiter that answers from primary and falls back
// to local while primary fails. A nil logger means slog.Default().
func NewFallback(primary, local prospector.RateLimiter, logger *slog.Logger) *Fallback {
	if logger == nil {
		logger = slog.Default()
	}
	return &Fallback{
		primary:  primary,
		local:    local,
		logger:   logger,
		cooldown: defaultCooldown,
		epoch:    time.Now(),
	}
}

// Degraded reports whether the primary failed and has not answered since,
// meaning limits are per node.
func (f *Fallback) Degraded() bool {
	return f.retryAt.Load() != 0
}

// Allow answers from the primary when it is healthy or due a retry, and
// from the local limiter otherwise. It returns an error only when the local
// limiter does, which for Memory means an invalid limit.
func (f *Fallback) Allow(ctx context.Context, key string, limit prospector.RateLimit) (prospector.RateResult, error) {
	if err := checkLimit(limit); err != nil {
		return prospector.RateResult{}, err
	}
	now := int64(time.Since(f.epoch))
	if !f.tryPrimary(now) {
		return f.local.Allow(ctx, key, limit)
	}
	res, err := f.primary.Allow(ctx, key, limit)
	if err == nil {
		f.recovered(ctx)
		return res, nil
	}
	// A caller that gave up says nothing about the primary's health.
	if ctx.Err() == nil {
		f.failed(ctx, now, err)
	}
	return f.local.Allow(ctx, key, limit)
}

// pinger is a primary that can be asked whether it answers without
// spending anyone's budget (Redis).
type pinger interface {
	Ping(ctx context.Context) error
}

// Check asks the primary whether it answers, for health checks: an idle
// node learns of an outage (or of the recovery) without waiting for a
// request to touch the limiter. A failure moves the node to local limits
// at once, as a failed request would; an answer restores the shared
// limits. A primary that cannot be pinged reports its last known state.
func (f *Fallback) Check(ctx context.Context) error {
	p, ok := f.primary.(pinger)
	if !ok {
		if f.Degraded() {
			return errors.New("ratelimit: primary failed")
		}
		return nil
	}
	if err := p.Ping(ctx); err != nil {
		// Unlike a request's, this deadline is the check's own: running
		// out of it is an answer about the primary.
		f.failed(ctx, int64(time.Since(f.epoch)), err)
		return err
	}
	f.recovered(ctx)
	return nil
}

// tryPrimary reports whether this call may use the primary. Once a
// cool-down ends, only the caller that wins the swap probes the primary;
// the rest stay local for another cool-down rather than all waiting on a
// Redis that may still be down.
func (f *Fallback) tryPrimary(now int64) bool {
	at := f.retryAt.Load()
	if at == 0 {
		return true
	}
	if now < at {
		return false
	}
	return f.retryAt.CompareAndSwap(at, now+int64(f.cooldown))
}

func (f *Fallback) failed(ctx context.Context, now int64, err error) {
	// +1 keeps retryAt non-zero (zero means healthy) even at offset 0.
	f.retryAt.Store(now + int64(f.cooldown) + 1)
	n := f.failures.Add(1)
	at := f.warnAt.Load()
	if now < at || !f.warnAt.CompareAndSwap(at, now+int64(warnEvery)) {
		return
	}
	f.failures.Add(-n)
	f.warned.Store(true)
	// The key stays out of the log; errors from Redis never carry it.
	f.logger.LogAttrs(ctx, slog.LevelWarn, "rate limiter: primary failed, enforcing per-node limits",
		slog.String("error", err.Error()), slog.Int64("failures", n), slog.Duration("retry_in", f.cooldown))
}

func (f *Fallback) recovered(ctx context.Context) {
	// Load first: the healthy path should not write a shared cache line.
	if f.retryAt.Load() == 0 || f.retryAt.Swap(0) == 0 {
		return
	}
	if f.warned.Swap(false) {
		f.logger.LogAttrs(ctx, slog.LevelInfo, "rate limiter: primary recovered, shared limits restored")
	}
}

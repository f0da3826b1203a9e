package prospector

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// RateLimit is an allowance: Requests per Window.
type RateLimit struct {
	Requests int
	Window   time.Duration
}

// String renders the contract's <n>/m form (or /s, /h for other windows).
func (r RateLimit) String() string {
	switch r.Window {
	case time.Second:
		return fmt.Sprintf("%d/s", r.Requests)
	case time.Hour:
		return fmt.Sprintf("%d/h", r.Requests)
	default:
		return fmt.Sprintf("%d/m", r.Requests)
	}
}

// WindowString renders the window as the contract's "1m".
func (r RateLimit) WindowString() string {
	switch r.Window {
	case time.Second:
		return "1s"
	case time.Hour:
		return "1h"
	default:
		return "1m"
	}
}

// ParseRateLimit reads "<n>/s", "<n>/m" or "<n>/h".
func ParseRateLimit(s string) (RateLimit, error) {
	n, unit, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return RateLimit{}, fmt.Errorf("rate %q: want <n>/m", s)
	}
	req, err := strconv.Atoi(n)
	if err != nil || req < 1 {
		return RateLimit{}, fmt.Errorf("rate %q: request count must be a positive integer", s)
	}
	var w time.Duration
	switch unit {
	case "s":
		w = time.Second
	case "m", "min":
		w = time.Minute
	case "h":
		w = time.Hour
	default:
		return RateLimit{}, fmt.Errorf("rate %q: unit must be s, m or h", s)
	}
	return RateLimit{Requests: req, Window: w}, nil
}

// TierRates maps a key tier to its allowance.
type TierRates map[string]RateLimit

// DefaultTierRates are the contract's rates.
func DefaultTierRates() TierRates {
	return TierRates{
		PlanDefault: {100, time.Minute},
		PlanStarter: {300, time.Minute},
		PlanGrowth:  {1000, time.Minute},
	}
}

// ParseTierRates applies "tier=<n>/m,tier=<n>/m" over the defaults.
func ParseTierRates(s string) (TierRates, error) {
	rates := DefaultTierRates()
	if strings.TrimSpace(s) == "" {
		return rates, nil
	}
	for _, part := range strings.Split(s, ",") {
		tier, rate, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || !ValidPlan(tier) {
			return nil, fmt.Errorf("tier rate %q: want default|starter|growth=<n>/m", part)
		}
		r, err := ParseRateLimit(rate)
		if err != nil {
			return nil, err
		}
		rates[tier] = r
	}
	return rates, nil
}

// RateResult is the outcome of one limiter decision, as the x-ratelimit-*
// headers report it.
type RateResult struct {
	Allowed   bool
	Limit     int
	Remaining int
	Reset     time.Duration
}

// RateLimiter counts requests per key in fixed windows that start with
// the key's first request.
type RateLimiter interface {
	// Allow counts one request for key against limit. An error means the
	// limiter could not decide; implementations that can fall back do so
	// and return no error.
	Allow(ctx context.Context, key string, limit RateLimit) (RateResult, error)
}

// Of returns the rate of tier, or the default tier's for a tier the
// configuration does not know (a key minted before its tier was removed).
func (t TierRates) Of(tier string) RateLimit {
	if rate, ok := t[tier]; ok {
		return rate
	}
	return t[PlanDefault]
}

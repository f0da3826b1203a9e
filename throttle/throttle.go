// Package throttle keeps repeated warnings from flooding a log: during an
// outage the same failure comes back every second (or every request), and
// one line with a count says as much as a thousand.
package throttle

import (
	"sync"
	"time"
)

// Gate lets the first of a run of events through, then at most one every
// Every, and counts the ones it held back in between. The zero value is
// not usable; a Gate is safe for concurrent use.
type Gate struct {
	every time.Duration
	now   func() time.Time

	mu   sync.Mutex
	next time.Time // zero until the first event
	held int
}

// New returns a gate that passes one event every every, on the clock now
// (nil means time.Now).
func New(every time.Duration, now func() time.Time) *Gate {
	if now == nil {
		now = time.Now
	}
	return &Gate{every: every, now: now}
}

// Pass records an event and reports whether to log it, and if so how many
// events were held back since the last one passed.
func (g *Gate) Pass() (ok bool, held int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	if !g.next.IsZero() && now.Before(g.next) {
		g.held++
		return false, 0
	}
	held, g.held = g.held, 0
	g.next = now.Add(g.every)
	return true, held
}

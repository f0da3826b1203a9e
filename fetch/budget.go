package fetch

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
)

// Limiter is a request budget wider than one host's politeness: several
// hosts together, or every node of a deployment together (SEC's fair
// access rule is fewer than 10 requests a second from one user, whatever
// machine sends them). The client calls Wait after the host's own pacing,
// before every request, robots.txt and retries included.
type Limiter interface {
	// Wait returns nil when one more request to host fits the budget
	// (at once for hosts outside every budget), or ctx's error when ctx
	// ends first, or the error of a shared limiter that cannot decide.
	Wait(ctx context.Context, host string) error
}

// BudgetRule is one budget: the hosts that spend it together and its
// rate.
type BudgetRule struct {
	// Key names the budget; SharedBudget counts it under "fetch:"+Key.
	Key string
	// Hosts are host names or "*.domain" patterns (lower case).
	Hosts []string
	// Rate is the budget's allowance. Budget spaces starts evenly
	// (Window/Requests apart); SharedBudget counts fixed windows, so keep
	// Requests at 1 there: a window of n requests can pass 2n in a
	// moment spanning two windows.
	Rate prospector.RateLimit
}

// DefaultBudgets returns the budgets a deployment starts with: SEC's
// hosts together at one request every 100 ms (SEC's 10 a second). It is
// a ceiling per node; the SEC source's own shared bucket (sec.Client,
// 9.5 a second for all nodes together) sets the pace, so this one must
// not be stricter: at 8 a second a day of 500 Form D notices took 63 s.
func DefaultBudgets() []BudgetRule {
	return []BudgetRule{{Key: "sec.gov", Hosts: []string{"www.sec.gov", "data.sec.gov", "efts.sec.gov"},
		Rate: prospector.RateLimit{Requests: 1, Window: 100 * time.Millisecond}}}
}

// budgetRules maps each host pattern to its rule.
func budgetRules(rules []BudgetRule) (map[string]*BudgetRule, error) {
	m := map[string]*BudgetRule{}
	for i := range rules {
		r := &rules[i]
		if r.Key == "" || r.Rate.Requests < 1 || r.Rate.Window <= 0 {
			return nil, fmt.Errorf("fetch: budget %q: needs a key, Requests >= 1 and Window > 0", r.Key)
		}
		for _, h := range r.Hosts {
			h = strings.ToLower(h)
			if !validHostPattern(h) {
				return nil, fmt.Errorf("fetch: budget %q: host %q: want a host name or *.domain", r.Key, h)
			}
			m[h] = r
		}
	}
	return m, nil
}

// Budget is the in-process Limiter: the hosts of each rule together
// start at most one request every Window/Requests. It suits one node;
// several nodes need a SharedBudget.
type Budget struct {
	clock clock
	rules map[string]*BudgetRule

	mu   sync.Mutex
	next map[string]time.Time // per rule key: earliest next start
}

var _ Limiter = (*Budget)(nil)

// NewBudget returns an in-process budget; an error names a rule without
// a key or rate, or a host that is not a host name or *.domain.
func NewBudget(rules []BudgetRule) (*Budget, error) {
	m, err := budgetRules(rules)
	if err != nil {
		return nil, err
	}
	return &Budget{clock: wallClock{}, rules: m, next: map[string]time.Time{}}, nil
}

// Wait reserves the rule's next start and sleeps until it.
func (b *Budget) Wait(ctx context.Context, host string) error {
	_, r, ok := hostRule(b.rules, host)
	if !ok {
		return nil
	}
	b.mu.Lock()
	now := b.clock.Now()
	at := b.next[r.Key]
	if at.Before(now) {
		at = now
	}
	b.next[r.Key] = at.Add(r.Rate.Window / time.Duration(r.Rate.Requests))
	b.mu.Unlock()
	return b.clock.SleepUntil(ctx, at)
}

// SharedBudget spends each rule's budget through a prospector.RateLimiter:
// with the Redis limiter, every node of a deployment draws from one
// budget.
type SharedBudget struct {
	clock   clock
	limiter prospector.RateLimiter
	rules   map[string]*BudgetRule
}

var _ Limiter = (*SharedBudget)(nil)

// NewSharedBudget returns a budget counted by l; errors as NewBudget.
func NewSharedBudget(l prospector.RateLimiter, rules []BudgetRule) (*SharedBudget, error) {
	m, err := budgetRules(rules)
	if err != nil {
		return nil, err
	}
	return &SharedBudget{clock: wallClock{}, limiter: l, rules: m}, nil
}

// Wait asks the limiter for one request and, while it says no, sleeps
// until its window resets and asks again.
func (b *SharedBudget) Wait(ctx context.Context, host string) error {
	_, r, ok := hostRule(b.rules, host)
	if !ok {
		return nil
	}
	for {
		res, err := b.limiter.Allow(ctx, "fetch:"+r.Key, r.Rate)
		if err != nil {
			return fmt.Errorf("fetch: budget %s: %w", r.Key, err)
		}
		if res.Allowed {
			return nil
		}
		wait := max(res.Reset, time.Millisecond)
		if err := b.clock.SleepUntil(ctx, b.clock.Now().Add(wait)); err != nil {
			return err
		}
	}
}

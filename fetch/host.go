package fetch

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
)

// HostPolicy is how politely one host is fetched.
type HostPolicy struct {
	// Concurrency is how many requests may be in flight to the host at
	// once; less than 1 means 1.
	Concurrency int
	// Interval is the minimum time between the starts of two requests to
	// the host.
	Interval time.Duration
}

// The default policies. A company's own website gets one request at a
// time, a second apart. A board vendor's API is built for machines and
// serves many companies, so it gets a few in parallel, 50 ms apart
// (20 requests a second at most): a cycle over 3,300 boards on one
// vendor takes under 3 minutes. SEC hosts stay below their 10 requests a
// second (see also DefaultBudgets, which holds them to 10 together).
// GDELT asks for one request every five seconds.
const (
	SiteConcurrency = 1
	SiteInterval    = time.Second
	APIConcurrency  = 4
	APIInterval     = 50 * time.Millisecond
	SECConcurrency  = 2
	// SECInterval is just over 1/sec.DefaultRate (105.3 ms): the SEC
	// client's shared bucket hands out slots on a fixed schedule, and a
	// request that leaves late (a slow bucket reservation, a busy
	// machine) would otherwise be followed by others on time, ten of them
	// within one second of it. Spacing each node's request starts by at
	// least one slot keeps any eleven of them over a second apart.
	SECInterval   = 106 * time.Millisecond
	GDELTInterval = 5 * time.Second
)

// SitePolicy is the policy of every host not named in the client's
// policies: a company's own website.
func SitePolicy() HostPolicy { return HostPolicy{Concurrency: SiteConcurrency, Interval: SiteInterval} }

// APIPolicy is the policy of a board vendor's API host. Give it to a
// base URL that replaces a vendor's (--source-base-url), so the fixture
// or mirror is paced like the API it stands for.
func APIPolicy() HostPolicy { return HostPolicy{Concurrency: APIConcurrency, Interval: APIInterval} }

// DefaultHostPolicies returns the hosts that get more than SitePolicy:
// the board vendors' APIs and SEC EDGAR. A "*.suffix" pattern covers
// every subdomain, and all of them share one policy (one vendor's
// servers), so Recruitee's and Personio's per-company hosts are paced
// together.
func DefaultHostPolicies() map[string]HostPolicy {
	m := map[string]HostPolicy{}
	for _, h := range []string{"boards-api.greenhouse.io", "api.lever.co", "api.eu.lever.co", "api.ashbyhq.com",
		"apply.workable.com", "api.smartrecruiters.com", "*.recruitee.com", "*.jobs.personio.de", "*.jobs.personio.com"} {
		m[h] = APIPolicy()
	}
	for _, h := range []string{"www.sec.gov", "data.sec.gov", "efts.sec.gov"} {
		m[h] = HostPolicy{Concurrency: SECConcurrency, Interval: SECInterval}
	}
	m["api.gdeltproject.org"] = HostPolicy{Concurrency: 1, Interval: GDELTInterval}
	return m
}

// validHostPattern reports whether p names a host (with an optional
// port) or, as "*.suffix", every subdomain of one.
func validHostPattern(p string) bool {
	if p == "" || p != strings.ToLower(p) || strings.ContainsAny(p, "/@?# ") {
		return false
	}
	if rest, ok := strings.CutPrefix(p, "*."); ok {
		return rest != "" && !strings.Contains(rest, "*")
	}
	return !strings.Contains(p, "*")
}

// hostRules finds the entry of a host in a map keyed by host patterns:
// the exact host (with its port, then without), then the longest
// "*.suffix" pattern that covers it.
func hostRule[V any](m map[string]V, host string) (key string, v V, ok bool) {
	if v, ok := m[host]; ok {
		return host, v, true
	}
	name := host
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		name = host[:i]
		if v, ok := m[name]; ok {
			return name, v, true
		}
	}
	for rest := name; ; {
		i := strings.IndexByte(rest, '.')
		if i < 0 {
			return "", v, false
		}
		rest = rest[i+1:]
		if v, ok := m["*."+rest]; ok {
			return "*." + rest, v, true
		}
	}
}

// pacer keeps each host's politeness: at most Concurrency requests in
// flight, starts at least Interval apart, nothing while the host has
// asked us to wait (Retry-After).
type pacer struct {
	clock    clock
	policies map[string]HostPolicy
	fallback HostPolicy
	// maxWait is the longest pause a request waits out; a longer one
	// fails at once with a *prospector.RetryLaterError.
	maxWait time.Duration

	mu      sync.Mutex
	hosts   map[string]*hostState
	sweepAt int
}

type hostState struct {
	key   string
	sem   chan struct{}
	users int // callers holding or waiting for the state; pacer.mu

	mu          sync.Mutex
	interval    time.Duration
	crawlDelay  time.Duration
	next        time.Time // earliest start of the next request
	pausedUntil time.Time
	pauseStatus int
}

const minSweep = 1024

func newPacer(c clock, policies map[string]HostPolicy, fallback HostPolicy, maxWait time.Duration) *pacer {
	return &pacer{clock: c, policies: policies, fallback: fallback, maxWait: maxWait,
		hosts: map[string]*hostState{}, sweepAt: minSweep}
}

// enter returns host's state, counted as in use until leave.
func (p *pacer) enter(host string) *hostState {
	key, pol, ok := hostRule(p.policies, host)
	if !ok {
		key, pol = host, p.fallback
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.hosts[key]
	if st == nil {
		if len(p.hosts) >= p.sweepAt {
			p.sweep()
		}
		st = &hostState{key: key, sem: make(chan struct{}, max(pol.Concurrency, 1)), interval: pol.Interval}
		p.hosts[key] = st
	}
	st.users++
	return st
}

func (p *pacer) leave(st *hostState) {
	p.mu.Lock()
	st.users--
	p.mu.Unlock()
}

// sweep forgets hosts nobody is using whose interval and pause are over,
// so a cycle over many websites does not keep a state per site forever.
// Called with p.mu held.
func (p *pacer) sweep() {
	now := p.clock.Now()
	for k, st := range p.hosts {
		st.mu.Lock()
		idle := st.users == 0 && !st.next.After(now) && !st.pausedUntil.After(now)
		st.mu.Unlock()
		if idle {
			delete(p.hosts, k)
		}
	}
	p.sweepAt = max(minSweep, 2*len(p.hosts))
}

// acquire waits until a request to host may start: a free slot, the
// interval since the previous start, the end of a pause. It returns the
// state to release and the time it waited; ctx's error if ctx ends
// first, or a *prospector.RetryLaterError when the host is paused for
// longer than maxWait.
func (p *pacer) acquire(ctx context.Context, host string) (*hostState, time.Duration, error) {
	st := p.enter(host)
	start := p.clock.Now()
	select {
	case st.sem <- struct{}{}:
	case <-ctx.Done():
		p.leave(st)
		return nil, 0, ctx.Err()
	}
	for {
		st.mu.Lock()
		now := p.clock.Now()
		if st.pausedUntil.Sub(now) > p.maxWait {
			err := &prospector.RetryLaterError{Host: host, Status: st.pauseStatus, Until: st.pausedUntil}
			st.mu.Unlock()
			p.release(st)
			return nil, 0, err
		}
		at := now
		if st.next.After(at) {
			at = st.next
		}
		if st.pausedUntil.After(at) {
			at = st.pausedUntil
		}
		st.next = at.Add(max(st.interval, st.crawlDelay))
		st.mu.Unlock()
		if err := p.clock.SleepUntil(ctx, at); err != nil {
			p.release(st)
			return nil, 0, err
		}
		// Another caller may have been told to wait while we slept.
		st.mu.Lock()
		paused := st.pausedUntil.After(p.clock.Now())
		st.mu.Unlock()
		if !paused {
			return st, p.clock.Now().Sub(start), nil
		}
	}
}

// release frees the slot acquire took.
func (p *pacer) release(st *hostState) {
	<-st.sem
	p.leave(st)
}

// pause holds every request to st's host until until.
func (p *pacer) pause(st *hostState, until time.Time, status int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if until.After(st.pausedUntil) {
		st.pausedUntil, st.pauseStatus = until, status
	}
}

// maxCrawlDelay bounds what a robots.txt Crawl-delay can impose.
const maxCrawlDelay = 30 * time.Second

// setCrawlDelay stretches host's interval to its robots.txt Crawl-delay
// (at most maxCrawlDelay); the policy's interval still applies if longer.
func (p *pacer) setCrawlDelay(host string, d time.Duration) {
	st := p.enter(host)
	st.mu.Lock()
	st.crawlDelay = min(d, maxCrawlDelay)
	st.mu.Unlock()
	p.leave(st)
}

// checkPolicies validates host patterns and policies from Config.
func checkPolicies(m map[string]HostPolicy) error {
	for k, pol := range m {
		if !validHostPattern(k) {
			return fmt.Errorf("fetch: host policy %q: want a lower-case host[:port] or *.domain", k)
		}
		if pol.Concurrency < 1 || pol.Interval < 0 {
			return fmt.Errorf("fetch: host policy %q: concurrency must be at least 1 and interval not negative", k)
		}
	}
	return nil
}

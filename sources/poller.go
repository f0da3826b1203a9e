package sources

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/prospectorhq/prospector"
)

// Poller polls source targets and stores what they say. Zero fields get
// the defaults documented on them. It is safe for concurrent use.
type Poller struct {
	Store   Store
	Fetcher prospector.Fetcher
	Boards  Boards
	Sites   Sites
	// News, when set, polls the watched companies' feeds (and GDELT
	// targets); nil leaves them unpolled.
	News *News
	// SEC, when set, is the SEC EDGAR source (RunSEC, and serve's SEC
	// job); it reads daily indexes, not targets.
	SEC *SEC
	// Intervals are the regular intervals between polls; zero fields
	// take prospector.DefaultPollIntervals'.
	Intervals prospector.PollIntervals
	// Parallel bounds the targets a cycle polls at once; default 32.
	// However many, a board vendor gets at most BoardsPerVendor and a
	// company's site one at a time (the fetcher paces each host too).
	Parallel int
	// Queue, when set, gets a poll job for each board a website crawl
	// discovers, so the job path polls it at once rather than at the
	// scheduler's next tick.
	Queue Enqueuer
	// Now is the clock of polls; default time.Now. Jitter spreads next
	// polls (prospector.PollOutcome.Jitter); default rand.Float64.
	Now    func() time.Time
	Jitter func() float64
	Logger *slog.Logger // default slog.Default()
}

// BoardsPerVendor is how many boards of one vendor a cycle polls at once:
// the vendors' API hosts take 4 requests in flight (fetch.APIConcurrency).
const BoardsPerVendor = 4

func (p *Poller) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return timeNow()
}

func (p *Poller) jitter() float64 {
	if p.Jitter != nil {
		return p.Jitter()
	}
	return rand.Float64()
}

func (p *Poller) logger() *slog.Logger {
	if p.Logger != nil {
		return p.Logger
	}
	return slog.Default()
}

func (p *Poller) interval(kind string) time.Duration {
	iv := p.Intervals
	def := prospector.DefaultPollIntervals
	if iv.Board <= 0 {
		iv.Board = def.Board
	}
	if iv.Website <= 0 {
		iv.Website = def.Website
	}
	if iv.Feed <= 0 {
		iv.Feed = def.Feed
	}
	return iv.For(kind)
}

// Result is what one poll of one target came to.
type Result struct {
	Target *prospector.SourceTarget // as it was before the poll
	// Status is a prospector.Poll* result, or StatusSkipped.
	Status string
	Error  string // why it failed or was skipped
	// RetryAt is when a host that asked to be left alone wants us back.
	RetryAt   time.Time
	NameCheck string // of a board whose API names its company
	Openings  prospector.BoardPollResult
	Tech      prospector.TechCrawlResult
	// Discovered are the board targets a website crawl found (stored,
	// with their ids); NewTargets counts the targets it added.
	Discovered []*prospector.SourceTarget
	NewTargets int
	Pages      int // pages a website crawl fetched
	// Items counts the items a feed or GDELT poll read, and News what
	// storing its stories did.
	Items    int
	News     prospector.NewsResult
	Duration time.Duration

	// deferred: the poll waits in a cycle's batch to be stored; flushed
	// are the results of the batch this poll filled and stored.
	deferred bool
	flushed  []*Result
}

// StatusSkipped is a target whose poll was not taken (a board found on a
// page that names another company), or that was not polled (a feed, a
// careers page on its own).
const StatusSkipped = "skipped"

// Label names a target for people: "greenhouse:acme" or its URL.
func Label(t *prospector.SourceTarget) string {
	switch t.Kind {
	case prospector.TargetBoard:
		return t.Board + ":" + t.Ref
	case prospector.TargetGDELT:
		return "gdelt:" + t.Ref
	}
	return t.Ref
}

// Poll polls one target now and records the outcome: a board through
// its adapter, a homepage as a crawl of the company's site (with its
// careers page). Failures of the source are recorded on the target and
// reported in the Result, not returned; the error is the store's.
// Feeds and GDELT targets are polled by the news source (when News is
// set); careers pages are not polled on their own but with their
// homepage.
func (p *Poller) Poll(ctx context.Context, t *prospector.SourceTarget) (*Result, error) {
	if !slices.Contains(p.polledKinds(), t.Kind) {
		return &Result{Target: t, Status: StatusSkipped, Error: t.Kind + " targets are not polled on their own"}, nil
	}
	return p.pollIn(ctx, t, nil, nil)
}

// outcome is the schedule part of a poll at at of a target of kind.
func (p *Poller) outcome(kind string, at time.Time, result string) prospector.PollOutcome {
	return prospector.PollOutcome{At: at, Result: result, Interval: p.interval(kind), Jitter: p.jitter()}
}

// fail records a failed poll of t at at and returns its Result. A host's
// Retry-After (a *prospector.RetryLaterError in cause) is kept, so the
// target is not polled before it.
func (p *Poller) fail(ctx context.Context, t *prospector.SourceTarget, at time.Time, cause error) (*Result, error) {
	o := p.outcome(t.Kind, at, prospector.PollFailed)
	o.Error = prospector.CleanText(cause.Error())
	var rl *prospector.RetryLaterError
	if errors.As(cause, &rl) {
		o.RetryAt = rl.Until
	}
	if _, err := p.Store.RecordPoll(ctx, t.ID, o); err != nil {
		return nil, fmt.Errorf("sources: record poll of %s: %w", Label(t), err)
	}
	return &Result{Target: t, Status: prospector.PollFailed, Error: o.Error, RetryAt: o.RetryAt}, nil
}

// storeError tells the store's own failures (returned, so a job is
// retried) from its refusal of what a source said (recorded on the
// target as a failed poll).
func storeError(err error) bool {
	return prospector.ErrorCode(err) != prospector.EINVALID
}

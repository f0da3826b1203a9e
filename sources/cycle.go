package sources

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
)

// Source names a cycle may be limited to, besides a board endpoint
// ("greenhouse", "lever-eu", ...): every board, or every website; the
// news source's feeds and GDELT targets (both, or one kind); SEC EDGAR,
// which reads daily indexes rather than targets (RunSEC).
const (
	SourceBoards  = "boards"
	SourceWebsite = "website"
	SourceNews    = "news"
	SourceFeed    = prospector.TargetFeed
	SourceGDELT   = prospector.TargetGDELT
	SourceSEC     = "sec"
)

// polledKinds are the kinds a cycle polls: boards and homepages, feeds
// when the news source is on, GDELT targets when its GDELT is; careers
// pages are fetched with their homepage.
func (p *Poller) polledKinds() []string {
	ks := []string{prospector.TargetBoard, prospector.TargetHomepage}
	if p.News != nil {
		ks = append(ks, prospector.TargetFeed)
		if p.News.GDELT {
			ks = append(ks, prospector.TargetGDELT)
		}
	}
	return ks
}

// CycleOptions select what a cycle polls.
type CycleOptions struct {
	// All polls every matching target of a watched company now, whatever
	// its next poll time (sources run --once); otherwise only the due
	// ones.
	All bool
	// Source limits the cycle to SourceBoards, SourceWebsite or one board
	// endpoint; "" polls every source.
	Source string
	// Domain limits the cycle to one company (normalised domain).
	Domain string
	// RetryPaused makes All poll targets paused after failing too; they
	// wait out their backoff otherwise.
	RetryPaused bool
	// Progress, when set, is told each target's result as it is done,
	// from the goroutine that polled it (one call at a time).
	Progress func(done, total int, r *Result)
}

// Cycle runs one poll cycle: it brings the radars' watches up to date
// (SyncWatches, which also makes sure every watched domain has a company
// and a homepage target), selects the targets, and polls them with at
// most Parallel at once, BoardsPerVendor per board vendor and one per
// company site. A board a website crawl discovers is polled in the same
// cycle. A source's failure is recorded on its target and counted; the
// error is the store's (or ctx's), and the cycle stops at the first.
func (p *Poller) Cycle(ctx context.Context, o CycleOptions) (*Summary, error) {
	start := time.Now()
	now := p.now()
	ws, err := p.Store.SyncWatches(ctx, now)
	if err != nil {
		return nil, fmt.Errorf("sources: sync watches: %w", err)
	}
	if o.Source == "" || o.Source == SourceNews || o.Source == SourceGDELT {
		if err := p.syncGDELT(ctx, true); err != nil {
			return nil, err
		}
	}
	targets, skipped, err := p.selectTargets(ctx, o, now)
	if err != nil {
		return nil, err
	}
	sum := &Summary{Skipped: skipped, Suppressed: ws.Suppressed}
	co := newCompanies(p.Store)
	ids := make([]int64, 0, len(targets))
	for _, t := range targets {
		ids = append(ids, t.CompanyID)
	}
	if err := co.load(ctx, ids); err != nil {
		return nil, fmt.Errorf("sources: companies: %w", err)
	}
	q := newDispatch(targets)
	bt := &batch{}
	parallel := p.Parallel
	if parallel <= 0 {
		parallel = 32
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	// report counts results as they are stored: a deferred poll when its
	// batch is (with the poll that filled it, or at the end); mu held.
	report := func(r *Result) {
		var rs []*Result
		if !r.deferred {
			rs = append(rs, r)
		}
		rs = append(rs, r.flushed...)
		for _, r := range rs {
			sum.add(r)
			if o.Progress != nil {
				o.Progress(sum.Targets, q.total(), r)
			}
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				t, ok := q.next()
				if !ok {
					return
				}
				r, err := p.pollIn(cctx, t, co, bt)
				var found []*prospector.SourceTarget
				if r != nil {
					found = r.Discovered
				}
				q.done(t, found)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
					}
					cancel()
				} else {
					report(r)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr == nil && ctx.Err() == nil {
		ps, rs := bt.rest()
		if err := p.storeBatch(ctx, ps, rs); err != nil {
			firstErr = err
		} else {
			report(&Result{deferred: true, flushed: rs})
		}
	}
	sum.Duration = time.Since(start)
	if firstErr != nil {
		return sum, firstErr
	}
	return sum, ctx.Err()
}

// pollIn polls a board or a homepage, with a cycle's company names and
// batch (both nil outside a cycle), and times it.
func (p *Poller) pollIn(ctx context.Context, t *prospector.SourceTarget, co *companies, bt *batch) (*Result, error) {
	start := time.Now()
	var (
		r   *Result
		err error
	)
	switch t.Kind {
	case prospector.TargetBoard:
		r, err = p.pollBoard(ctx, t, co, bt)
	case prospector.TargetFeed, prospector.TargetGDELT:
		r, err = p.pollNews(ctx, t, co)
	default:
		r, err = p.crawlSite(ctx, t, co)
	}
	if r != nil {
		r.Duration = time.Since(start)
	}
	return r, err
}

// selectTargets returns the targets a cycle polls, and how many
// matching ones it leaves out because they are paused.
func (p *Poller) selectTargets(ctx context.Context, o CycleOptions, now time.Time) ([]*prospector.SourceTarget, int, error) {
	kind, board := "", ""
	kinds := p.polledKinds()
	switch o.Source {
	case "":
	case SourceBoards:
		kind = prospector.TargetBoard
	case SourceWebsite:
		kind = prospector.TargetHomepage
	case SourceNews:
		kinds = []string{prospector.TargetFeed, prospector.TargetGDELT}
	case SourceFeed, SourceGDELT:
		kind = o.Source
	case SourceSEC:
		return nil, 0, nil // not targets: RunSEC
	default:
		kind, board = prospector.TargetBoard, o.Source
	}
	match := func(t *prospector.SourceTarget) bool {
		return (o.Domain == "" || t.Domain == o.Domain) && (kind == "" || t.Kind == kind) &&
			(board == "" || t.Board == board) && slices.Contains(kinds, t.Kind) && slices.Contains(p.polledKinds(), t.Kind)
	}
	var out []*prospector.SourceTarget
	if !o.All {
		due, err := p.Store.DueTargets(ctx, prospector.DueFilter{Now: now, Kinds: p.polledKinds()})
		if err != nil {
			return nil, 0, fmt.Errorf("sources: due targets: %w", err)
		}
		for _, t := range due {
			if match(t) {
				out = append(out, t)
			}
		}
		return out, 0, nil
	}
	ws, err := p.Store.Watches(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("sources: watches: %w", err)
	}
	watched := make(map[string]bool, len(ws))
	for _, w := range ws {
		watched[w.Domain] = true
	}
	paused := 0
	f := prospector.TargetFilter{Domain: o.Domain, Kind: kind, Board: board, Limit: 1000}
	for {
		page, err := p.Store.ListTargets(ctx, f)
		if err != nil {
			return nil, 0, fmt.Errorf("sources: targets: %w", err)
		}
		for _, t := range page {
			if !watched[t.Domain] || !match(t) {
				continue
			}
			if !o.RetryPaused && t.Health(now) == prospector.HealthPaused {
				paused++
				continue
			}
			out = append(out, t)
		}
		if len(page) < f.Limit {
			return out, paused, nil
		}
		f.AfterID = page[len(page)-1].ID
	}
}

package jobs

import (
	"context"
	"errors"
	"log/slog"
	"time"
)

// How long finished jobs are kept by default: long enough to look into
// what ran last week, or why something failed last month, and short
// enough that the table holds days of work rather than all of it.
const (
	DefaultKeepDone   = 7 * 24 * time.Hour
	DefaultKeepFailed = 30 * 24 * time.Hour
)

// Pruning is what a Pruner calls: one bounded delete of finished jobs.
type Pruning interface {
	PruneJobs(ctx context.Context, doneBefore, failedBefore time.Time, limit int) (int64, error)
}

// Pruner deletes finished jobs once they are older than their retention,
// counted from when they finished. Zero fields get the defaults
// documented on them. Every node may run one: a pass deletes what is due
// whoever runs it.
type Pruner struct {
	Store Pruning
	// KeepDone and KeepFailed are how long done and failed jobs are kept;
	// default DefaultKeepDone and DefaultKeepFailed. A negative value keeps
	// them for ever.
	KeepDone, KeepFailed time.Duration
	// Every is the time between passes; default 1h. The first pass is
	// at once.
	Every time.Duration
	// Batch bounds the rows one statement deletes, so a large backlog is
	// cleared in short transactions; default 1,000.
	Batch  int
	Now    func() time.Time // default time.Now
	Logger *slog.Logger     // default slog.Default()
}

func (p *Pruner) bounds() (done, failed time.Time) {
	now := time.Now()
	if p.Now != nil {
		now = p.Now()
	}
	bound := func(keep, def time.Duration) time.Time {
		switch {
		case keep < 0:
			return time.Time{}
		case keep == 0:
			keep = def
		}
		return now.Add(-keep)
	}
	return bound(p.KeepDone, DefaultKeepDone), bound(p.KeepFailed, DefaultKeepFailed)
}

// Prune deletes every finished job past its retention, a batch at a
// time, and returns how many it deleted, with the store's error if one
// stopped it.
func (p *Pruner) Prune(ctx context.Context) (int64, error) {
	if p.Store == nil {
		return 0, errors.New("jobs: pruner without a store")
	}
	batch := p.Batch
	if batch <= 0 {
		batch = 1000
	}
	done, failed := p.bounds()
	var total int64
	for {
		n, err := p.Store.PruneJobs(ctx, done, failed, batch)
		total += n
		if err != nil || n < int64(batch) {
			return total, err
		}
	}
}

// Run prunes at once and then every Every until ctx ends. Failures are
// logged; the next pass tries again.
func (p *Pruner) Run(ctx context.Context) {
	every := p.Every
	if every <= 0 {
		every = time.Hour
	}
	log := p.Logger
	if log == nil {
		log = slog.Default()
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		n, err := p.Prune(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("jobs: prune finished jobs", "deleted", n, "err", err)
		case n > 0:
			log.Info("jobs: pruned finished jobs", "deleted", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

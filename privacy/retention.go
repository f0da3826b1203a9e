package privacy

import (
	"context"
	"log/slog"
	"time"

	"github.com/prospectorhq/prospector"
)

// Retainer deletes what is past its retention window, now and then every
// Every (default 1h), until its context ends. Every node may run one: a
// pass deletes what is due whoever runs it, and the windows are counted
// from timestamps in the store, so a restart loses nothing (the same
// shape as the job pruner, jobs.Pruner).
type Retainer struct {
	Store   prospector.RetentionStore
	Windows prospector.Retention
	Every   time.Duration
	// Batch bounds the rows one statement deletes, so a large backlog is
	// cleared in short transactions; default 1,000.
	Batch  int
	Now    func() time.Time
	Logger *slog.Logger
}

// Pass deletes everything past its window, a batch at a time, and
// returns the counts.
func (r *Retainer) Pass(ctx context.Context) (prospector.Purged, error) {
	batch := r.Batch
	if batch <= 0 {
		batch = 1000
	}
	now := time.Now()
	if r.Now != nil {
		now = r.Now()
	}
	var total prospector.Purged
	for {
		p, err := r.Store.PurgeExpired(ctx, r.Windows, now, batch)
		total.EmailLookups += p.EmailLookups
		total.FeedbackEvents += p.FeedbackEvents
		total.Deliveries += p.Deliveries
		total.ClosedOpenings += p.ClosedOpenings
		total.ConsoleSessions += p.ConsoleSessions
		if err != nil {
			return total, err
		}
		if max(p.EmailLookups, p.FeedbackEvents, p.Deliveries, p.ClosedOpenings, p.ConsoleSessions) < int64(batch) {
			return total, nil
		}
	}
}

// Run passes at once and then every Every until ctx ends; failures are
// logged and the next pass tries again.
func (r *Retainer) Run(ctx context.Context) {
	every := r.Every
	if every <= 0 {
		every = time.Hour
	}
	log := r.Logger
	if log == nil {
		log = slog.Default()
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		p, err := r.Pass(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("retention pass failed", "error", err.Error())
		case p.Total() > 0:
			log.Info("retention: deleted records past their window", "email_lookups", p.EmailLookups,
				"feedback_events", p.FeedbackEvents, "deliveries", p.Deliveries, "closed_job_openings", p.ClosedOpenings,
				"console_sessions", p.ConsoleSessions)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

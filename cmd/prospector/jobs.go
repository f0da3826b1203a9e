package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/jobs"
	"github.com/prospectorhq/prospector/privacy"
	"github.com/spf13/cobra"
)

// jobsOptions are serve's settings of the durable job queue.
type jobsOptions struct {
	keepDone, keepFailed time.Duration
	// retention is how long the records that pile up are kept
	// (docs/privacy.md#retention); 0 keeps a kind for ever.
	retention prospector.Retention
}

func (o *jobsOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.DurationVar(&o.keepDone, "keep-done-jobs", jobs.DefaultKeepDone, "how long finished background jobs are kept before they are deleted; 0 keeps them for ever")
	f.DurationVar(&o.keepFailed, "keep-failed-jobs", jobs.DefaultKeepFailed, "how long failed background jobs (and their last error) are kept; 0 keeps them for ever")
	d := prospector.DefaultRetention
	f.DurationVar(&o.retention.EmailLookups, "retain-email-lookups", d.EmailLookups, "how long enrich/email lookups (each holds an address) are kept; 0 keeps them for ever")
	f.DurationVar(&o.retention.FeedbackEvents, "retain-feedback-events", d.FeedbackEvents, "how long raw feedback events (reply text, meeting links) are kept; the per-lead summaries stay; 0 keeps them for ever")
	f.DurationVar(&o.retention.Deliveries, "retain-deliveries", d.Deliveries, "how long finished webhook and outreach deliveries (their payloads hold the lead) are kept; pending ones always stay; 0 keeps them for ever")
	f.DurationVar(&o.retention.ClosedOpenings, "retain-closed-openings", d.ClosedOpenings, "how long job openings are kept after they closed; 0 keeps them for ever")
}

// startRetention deletes what is past its retention window, now and
// every hour, until ctx ends; it returns a function that waits for it.
func (o jobsOptions) startRetention(ctx context.Context, st prospector.RetentionStore, logger *slog.Logger) (wait func()) {
	r := &privacy.Retainer{Store: st, Windows: o.retention, Logger: logger}
	var wg sync.WaitGroup
	wg.Go(func() { r.Run(ctx) })
	return wg.Wait
}

// startPruner deletes this deployment's finished jobs past their
// retention, now and every hour, until ctx ends. It returns a function
// that waits for it to stop.
func (o jobsOptions) startPruner(ctx context.Context, st jobs.Pruning, logger *slog.Logger) (wait func()) {
	forever := func(d time.Duration) time.Duration {
		if d == 0 {
			return -1 // the Pruner's "for ever"; its zero is the default
		}
		return d
	}
	p := &jobs.Pruner{Store: st, KeepDone: forever(o.keepDone), KeepFailed: forever(o.keepFailed), Logger: logger}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.Run(ctx)
	}()
	return wg.Wait
}

package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/prospectorhq/prospector/jobs"
	"github.com/spf13/cobra"
)

// jobsOptions are serve's settings of the durable job queue.
type jobsOptions struct {
	keepDone, keepFailed time.Duration
}

func (o *jobsOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.DurationVar(&o.keepDone, "keep-done-jobs", jobs.DefaultKeepDone, "how long finished background jobs are kept before they are deleted; 0 keeps them for ever")
	f.DurationVar(&o.keepFailed, "keep-failed-jobs", jobs.DefaultKeepFailed, "how long failed background jobs (and their last error) are kept; 0 keeps them for ever")
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

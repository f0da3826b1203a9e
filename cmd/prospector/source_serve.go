package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/jobs"
	"github.com/prospectorhq/prospector/sources"
	"github.com/prospectorhq/prospector/techdetect"
	"github.com/spf13/cobra"
)

// pollOptions are serve's settings of the sources' schedule.
type pollOptions struct {
	boardInterval   time.Duration
	websiteInterval time.Duration
	workers         int
	sec             bool
	secInterval     time.Duration
}

// minPollInterval is the shortest interval serve accepts: polling more
// often than this is not being a good citizen.
const minPollInterval = time.Minute

func (o *pollOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.DurationVar(&o.boardInterval, "board-interval", prospector.DefaultPollIntervals.Board, "how often each job board is polled (jittered by ±10%)")
	f.DurationVar(&o.websiteInterval, "website-interval", prospector.DefaultPollIntervals.Website, "how often each watched company's website is crawled (jittered by ±10%)")
	f.IntVar(&o.workers, "source-workers", 16, "source polls this node runs at once (per-host pacing still applies); 0 stops this node polling sources")
	f.BoolVar(&o.sec, "sec", false, "also read SEC EDGAR's daily indexes (Form D, 8-K Item 5.02); needs --contact-email")
	f.DurationVar(&o.secInterval, "sec-interval", sources.DefaultSECInterval, "how often SEC EDGAR's new daily indexes are read")
}

// check returns an error naming the flag whose value is out of bounds.
func (o pollOptions) check() error {
	if o.boardInterval < minPollInterval {
		return fmt.Errorf("--board-interval: %s is shorter than %s", o.boardInterval, minPollInterval)
	}
	if o.websiteInterval < minPollInterval {
		return fmt.Errorf("--website-interval: %s is shorter than %s", o.websiteInterval, minPollInterval)
	}
	if o.secInterval < minPollInterval {
		return fmt.Errorf("--sec-interval: %s is shorter than %s", o.secInterval, minPollInterval)
	}
	if o.workers < 0 {
		return fmt.Errorf("--source-workers: must not be negative")
	}
	return nil
}

// startSources runs the sources' scheduler and a job runner for their
// poll jobs until ctx ends (nothing with --source-workers 0). Every node
// runs both: the jobs' keys and leases make each due target polled once
// across nodes, and a poll interrupted by a shutdown is queued again. It
// returns a function that waits for them to stop.
func startSources(ctx context.Context, st prospector.Store, kit *sourceKit, o pollOptions, logger *slog.Logger) (wait func()) {
	if o.workers == 0 {
		logger.Info("source polling off on this node (--source-workers 0)")
		return func() {}
	}
	p, secErr := kit.poller(st)
	p.Logger = logger
	p.Intervals = prospector.PollIntervals{Board: o.boardInterval, Website: o.websiteInterval}
	handlers := map[string]jobs.Handler{prospector.JobSourcePoll: p.PollJob}
	switch {
	case !o.sec:
		p.SEC = nil
	case secErr != nil: // checked before serve started: not reached
		logger.Error("sec source off", "err", secErr)
	default:
		p.SEC.Interval = o.secInterval
		handlers[sources.JobSEC] = p.SECJob
	}
	runner := &jobs.Runner{Store: st, Logger: logger, Grace: jobsGrace, Concurrency: o.workers, Handlers: handlers}
	p.Queue = runner
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if err := runner.Run(ctx); err != nil {
			logger.Error("source jobs runner", "err", err)
		}
	}()
	go func() {
		defer wg.Done()
		p.Schedule(ctx, runner, 0)
	}()
	return func() {
		wg.Wait()
		s := kit.client.Stats()
		logger.Info("source polling stopped", "requests", s.Requests, "not_modified", s.NotModified, "bytes", s.Bytes)
	}
}

// logFingerprintStats logs what loading operator fingerprint files kept
// and skipped.
func logFingerprintStats(logger *slog.Logger, det *techdetect.Detector) {
	st := det.Stats()
	if len(st.Files) <= 1 {
		return
	}
	skipped := map[string]int{}
	for r, n := range st.SkippedBy() {
		skipped[string(r)] = n
	}
	logger.Info("fingerprints loaded", "files", st.Files, "technologies", st.Technologies, "patterns", st.Patterns,
		"skipped_patterns", len(st.Skipped), "skipped_by_reason", skipped, "unsupported_keys", st.Unsupported,
		"overridden", st.Overridden)
}

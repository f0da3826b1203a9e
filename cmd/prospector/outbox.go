package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/jobs"
	"github.com/prospectorhq/prospector/leads"
	"github.com/prospectorhq/prospector/webhook"
)

// The auto-sync outbox's share of a node (docs/webhooks.md): its
// deliveries run on a job runner of their own, so receivers that answer
// slowly never hold up radar jobs.
const (
	deliveryConcurrency = 8
	// resumeEvery is how often pending deliveries whose attempt jobs may
	// have been lost (a crash between recording and enqueuing) are queued
	// again; Outbox.Resume also runs at start.
	resumeEvery = 10 * time.Minute
)

// startDeliveries runs this node's webhook.KindDeliver jobs and the
// outbox's resume loop until ctx ends. It returns the auto-sync hook that
// queues a radar's new leads, and a function that waits for both loops
// to stop.
func startDeliveries(ctx context.Context, st prospector.Store, hooks *webhook.Client, logger *slog.Logger) (*leads.AutoSync, func()) {
	outbox := &webhook.Outbox{Store: st, Client: hooks, Logger: logger}
	runner := &jobs.Runner{Store: st, Logger: logger, Grace: jobsGrace, Poll: time.Second, Concurrency: deliveryConcurrency,
		Handlers: map[string]jobs.Handler{webhook.KindDeliver: outbox.Handle}}
	outbox.Enqueue = runner.Enqueue
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if err := runner.Run(ctx); err != nil {
			logger.Error("delivery jobs runner", "err", err)
		}
	}()
	go func() {
		defer wg.Done()
		resumeDeliveries(ctx, outbox, logger)
	}()
	return &leads.AutoSync{Outbox: outbox}, wg.Wait
}

// resumeDeliveries runs Outbox.Resume now and every resumeEvery.
func resumeDeliveries(ctx context.Context, outbox *webhook.Outbox, logger *slog.Logger) {
	t := time.NewTicker(resumeEvery)
	defer t.Stop()
	for {
		n, err := outbox.Resume(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			logger.Warn("resume webhook deliveries", "err", err)
		case n > 0:
			logger.Info("resumed webhook deliveries", "deliveries", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

package leads

import (
	"context"
	"log/slog"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/webhook"
)

// AutoSync queues the new leads a radar surfaces to their workspace's
// auto-sync destination, through the durable outbox. Outbox is required.
type AutoSync struct {
	Outbox *webhook.Outbox
	Logger *slog.Logger // default slog.Default()
}

// Queue adds a delivery of each lead to the outbox, which does nothing
// when the workspace's auto-sync is off and queues a lead at most once
// per destination. It returns the outbox's error.
func (a *AutoSync) Queue(ctx context.Context, workspaceID string, ls []prospector.Lead) error {
	if len(ls) == 0 {
		return nil
	}
	entries := make([]webhook.Lead, len(ls))
	for i := range ls {
		entries[i] = Entry(&ls[i])
	}
	_, err := a.Outbox.Queue(ctx, workspaceID, entries)
	return err
}

// OnLeads is Queue for a caller that cannot act on a failure (the radar
// engine, whose batch is committed by then): the error is logged.
func (a *AutoSync) OnLeads(ctx context.Context, workspaceID string, ls []prospector.Lead) {
	if err := a.Queue(ctx, workspaceID, ls); err != nil {
		log := a.Logger
		if log == nil {
			log = slog.Default()
		}
		log.Error("auto-sync: queue new leads", "workspace", workspaceID, "leads", len(ls), "err", err)
	}
}

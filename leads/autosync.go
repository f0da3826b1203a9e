package leads

import (
	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/webhook"
	"github.com/prospectorhq/prospector/wire"
)

// AutoSync queues the new leads a radar surfaces to their workspace's
// auto-sync destination, through the durable outbox. Outbox is required.
type AutoSync struct {
	Outbox *webhook.Outbox
}

var _ prospector.AutoSyncFunc = (*AutoSync)(nil).Deliveries

// Deliveries is the prospector.AutoSyncFunc of radar batches: the
// deliveries of a workspace's new leads to the destination of s, each
// with the job of its first attempt, for the batch to write in its own
// transaction.
func (a *AutoSync) Deliveries(s *prospector.WebhookSettings, ls []*prospector.Lead) ([]*prospector.Delivery, []*prospector.Job, error) {
	return a.Outbox.Deliveries(s, wire.NewLeads(ls))
}

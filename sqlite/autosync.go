package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/prospectorhq/prospector"
)

// The auto-sync deliveries of a lead batch, written in its transaction
// (prospector.LeadBatch.AutoSync).

const (
	qBatchWebhookSettings = `SELECT ` + webhookColumns + ` FROM webhook_settings WHERE workspace_id = ?`
	qBatchDelivery        = `INSERT INTO deliveries (` + deliveryColumns + `)
		VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, 0, '', NULL, ?, ?)
		ON CONFLICT (workspace_id, destination_kind, destination_url, lead_id) DO NOTHING`
)

// autoSyncQueries are the statements of queueAutoSync, prepared with the
// batch's own.
var autoSyncQueries = []string{qBatchWebhookSettings, qBatchDelivery, qEnqueueJob}

// queueAutoSync writes the deliveries, and the jobs of their first
// attempts, that b.AutoSync makes of the new leads of plan, created at
// stamp.
func queueAutoSync(ctx context.Context, st *txStmts, b *prospector.LeadBatch, plan []prospector.PlannedLead,
	stamp string) error {
	deliveries, jobs, err := prospector.PlanAutoSync(b, plan, parseTime(stamp), func(ws string) (*prospector.WebhookSettings, error) {
		s, err := scanWebhookSettings(st.queryRow(ctx, qBatchWebhookSettings, ws))
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil
		}
		return s, err
	})
	if err != nil {
		return err
	}
	for _, d := range deliveries {
		if _, err := st.exec(ctx, qBatchDelivery, d.ID, d.WorkspaceID, d.DestinationKind, d.DestinationURL, d.LeadID,
			string(d.Payload), formatTime(d.NextAttemptAt), stamp, stamp); err != nil {
			return fmt.Errorf("auto-sync delivery of lead %s: %w", d.LeadID, err)
		}
	}
	for _, j := range jobs {
		// ON CONFLICT DO NOTHING: a job whose key is active is skipped.
		if _, err := st.exec(ctx, qEnqueueJob, j.Kind, nullString(j.Key), string(j.Payload), formatTime(j.RunAt),
			j.MaxAttempts, stamp, stamp); err != nil {
			return fmt.Errorf("auto-sync job %s: %w", j.Key, err)
		}
	}
	return nil
}

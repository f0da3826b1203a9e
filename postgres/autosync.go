package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// queueAutoSync writes, in the batch's transaction, the deliveries and
// the jobs of their first attempts that b.AutoSync makes of the new leads
// of plan, created at now (prospector.LeadBatch.AutoSync). A planned new
// lead whose row another transaction had inserted (stored names another
// id) was not created by this batch and is left out.
func queueAutoSync(ctx context.Context, tx pgx.Tx, b *prospector.LeadBatch, plan []prospector.PlannedLead,
	stored map[prospector.LeadKey]string, now time.Time) error {
	if b.AutoSync == nil {
		return nil
	}
	created := make([]prospector.PlannedLead, 0, len(plan))
	for _, p := range plan {
		if p.New && stored[prospector.LeadKey{RadarID: p.Match.RadarID, PersonID: p.Match.Lead.PersonID}] == p.ID {
			created = append(created, p)
		}
	}
	deliveries, jobs, err := prospector.PlanAutoSync(b, created, now, func(ws string) (*prospector.WebhookSettings, error) {
		s, err := scanWebhookSettings(tx.QueryRow(ctx, `SELECT `+webhookColumns+` FROM webhook_settings WHERE workspace_id = $1`, ws))
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, nil
		}
		return s, err
	})
	if err != nil || (len(deliveries) == 0 && len(jobs) == 0) {
		return err
	}
	var ids, workspaces, kinds, urls, leads, payloads []string
	var next []time.Time
	for _, d := range deliveries {
		ids, workspaces, kinds = append(ids, d.ID), append(workspaces, d.WorkspaceID), append(kinds, d.DestinationKind)
		urls, leads, payloads = append(urls, d.DestinationURL), append(leads, d.LeadID), append(payloads, string(d.Payload))
		next = append(next, d.NextAttemptAt.UTC().Truncate(time.Microsecond))
	}
	if _, err := tx.Exec(ctx, `INSERT INTO deliveries (`+deliveryColumns+`)
		SELECT v.id, v.workspace_id, v.kind, v.url, v.lead_id, v.payload::jsonb, 'pending', 0, v.next, 0, '', NULL, $8, $8
		FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
			AS v(id, workspace_id, kind, url, lead_id, payload, next)
		ON CONFLICT ON CONSTRAINT deliveries_once DO NOTHING`,
		ids, workspaces, kinds, urls, leads, payloads, next, now); err != nil {
		return fmt.Errorf("auto-sync deliveries: %w", err)
	}
	var jobKinds, keys, jobPayloads []string
	var runAt []time.Time
	var maxAttempts []int32
	for _, j := range jobs {
		jobKinds, keys, jobPayloads = append(jobKinds, j.Kind), append(keys, j.Key), append(jobPayloads, string(j.Payload))
		runAt, maxAttempts = append(runAt, j.RunAt.UTC().Truncate(time.Microsecond)), append(maxAttempts, int32(j.MaxAttempts))
	}
	if _, err := tx.Exec(ctx, `INSERT INTO jobs (kind, dedupe_key, payload, state, run_at, attempts, max_attempts,
			last_error, created_at, updated_at)
		SELECT v.kind, nullif(v.key, ''), v.payload::jsonb, 'queued', v.run_at, 0, v.max_attempts, '', $6, $6
		FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::int[])
			AS v(kind, key, payload, run_at, max_attempts)
		ON CONFLICT DO NOTHING`, jobKinds, keys, jobPayloads, runAt, maxAttempts, now); err != nil {
		return fmt.Errorf("auto-sync jobs: %w", err)
	}
	return nil
}

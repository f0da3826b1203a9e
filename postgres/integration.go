package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// Webhook settings, outreach integrations and the delivery outbox.

const webhookColumns = `workspace_id, url, auth_header, auth_value, disabled_fields, custom_fields, template,
	auto_sync, signing_secret, disabled_reason, disabled_at, created_at, updated_at`

func scanWebhookSettings(row pgx.Row) (*prospector.WebhookSettings, error) {
	var (
		s              prospector.WebhookSettings
		fields, custom []byte
	)
	err := row.Scan(&s.WorkspaceID, &s.URL, &s.AuthHeader, &s.AuthValue, &fields, &custom, &s.Template,
		&s.AutoSync, &s.SigningSecret, &s.DisabledReason, &s.DisabledAt, &s.CreatedAt, &s.UpdatedAt)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(fields, &s.DisabledFields); err != nil {
		return nil, fmt.Errorf("disabled_fields: %w", err)
	}
	if err := json.Unmarshal(custom, &s.CustomFields); err != nil {
		return nil, fmt.Errorf("custom_fields: %w", err)
	}
	s.DisabledAt, s.CreatedAt, s.UpdatedAt = utcPtr(s.DisabledAt), s.CreatedAt.UTC(), s.UpdatedAt.UTC()
	return &s, nil
}

// fieldsJSON encodes a field list, [] for none. encoding/json cannot
// fail on a []string (it writes any bytes of a string, replacing invalid
// UTF-8), so the error it declares is the one left unchecked here.
func fieldsJSON(l []string) string {
	if len(l) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(l)
	return string(b)
}

// customJSON encodes custom fields, {} for none; an error for a value
// that is not JSON (Validate refuses those first).
func customJSON(m map[string]json.RawMessage) (string, error) {
	if len(m) == 0 {
		return "{}", nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("custom fields: %w", err)
	}
	return string(b), nil
}

// WebhookSettings returns ErrNotFound when the workspace has none.
func (db *DB) WebhookSettings(ctx context.Context, workspaceID string) (*prospector.WebhookSettings, error) {
	s, err := scanWebhookSettings(db.pool.QueryRow(ctx,
		`SELECT `+webhookColumns+` FROM webhook_settings WHERE workspace_id = $1`, workspaceID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: webhook settings of %s: %w", workspaceID, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: webhook settings of %s: %w", workspaceID, err)
	}
	return s, nil
}

// CreateWebhookSettings inserts s; ErrAlreadyExists when the workspace has some.
func (db *DB) CreateWebhookSettings(ctx context.Context, s *prospector.WebhookSettings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	custom, err := customJSON(s.CustomFields)
	if err != nil {
		return fmt.Errorf("postgres: create webhook settings: %w", err)
	}
	now := nowUTC()
	_, err = db.execTx(ctx, `INSERT INTO webhook_settings (`+webhookColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)`,
		s.WorkspaceID, s.URL, s.AuthHeader, s.AuthValue, fieldsJSON(s.DisabledFields), custom, s.Template,
		s.AutoSync, s.SigningSecret, s.DisabledReason, s.DisabledAt, now)
	switch {
	case isPgError(err, codeForeignKeyViolation, ""):
		return fmt.Errorf("postgres: create webhook settings: workspace %s: %w", s.WorkspaceID, prospector.ErrNotFound)
	case isPgError(err, codeUniqueViolation, ""):
		return fmt.Errorf("postgres: create webhook settings of %s: %w", s.WorkspaceID, prospector.ErrAlreadyExists)
	case err != nil:
		return fmt.Errorf("postgres: create webhook settings: %w", err)
	}
	s.CreatedAt, s.UpdatedAt = now, now
	return nil
}

// UpdateWebhookSettings replaces s; ErrNotFound when the workspace has none.
func (db *DB) UpdateWebhookSettings(ctx context.Context, s *prospector.WebhookSettings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	custom, err := customJSON(s.CustomFields)
	if err != nil {
		return fmt.Errorf("postgres: update webhook settings: %w", err)
	}
	now := nowUTC()
	tag, err := db.pool.Exec(ctx, `UPDATE webhook_settings SET url = $2, auth_header = $3, auth_value = $4,
		disabled_fields = $5, custom_fields = $6, template = $7, auto_sync = $8, signing_secret = $9,
		disabled_reason = $10, disabled_at = $11, updated_at = $12
		WHERE workspace_id = $1`,
		s.WorkspaceID, s.URL, s.AuthHeader, s.AuthValue, fieldsJSON(s.DisabledFields), custom, s.Template,
		s.AutoSync, s.SigningSecret, s.DisabledReason, s.DisabledAt, now)
	if err != nil {
		return fmt.Errorf("postgres: update webhook settings: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("postgres: update webhook settings of %s: %w", s.WorkspaceID, prospector.ErrNotFound)
	}
	s.UpdatedAt = now
	return nil
}

// DisableWebhookAutoSync switches auto-sync off if it still sends to url.
func (db *DB) DisableWebhookAutoSync(ctx context.Context, workspaceID, url, reason string, now time.Time) (bool, error) {
	tag, err := db.pool.Exec(ctx, `UPDATE webhook_settings SET auto_sync = false, disabled_reason = $3,
		disabled_at = $4, updated_at = $5 WHERE workspace_id = $1 AND url = $2 AND auto_sync`,
		workspaceID, url, reason, now.UTC().Truncate(time.Microsecond), nowUTC())
	if err != nil {
		return false, fmt.Errorf("postgres: disable auto-sync of %s: %w", workspaceID, err)
	}
	return tag.RowsAffected() > 0, nil
}

const outreachColumns = `workspace_id, tool, base_url, api_key, campaign_id, list_id, created_at, updated_at`

func scanOutreach(row pgx.Row) (*prospector.OutreachIntegration, error) {
	var o prospector.OutreachIntegration
	if err := row.Scan(&o.WorkspaceID, &o.Tool, &o.BaseURL, &o.APIKey, &o.CampaignID, &o.ListID, &o.CreatedAt, &o.UpdatedAt); err != nil {
		return nil, err
	}
	o.CreatedAt, o.UpdatedAt = o.CreatedAt.UTC(), o.UpdatedAt.UTC()
	return &o, nil
}

// OutreachIntegration returns ErrNotFound when the workspace has none for tool.
func (db *DB) OutreachIntegration(ctx context.Context, workspaceID, tool string) (*prospector.OutreachIntegration, error) {
	o, err := scanOutreach(db.pool.QueryRow(ctx,
		`SELECT `+outreachColumns+` FROM outreach_integrations WHERE workspace_id = $1 AND tool = $2`, workspaceID, tool))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: %s integration of %s: %w", tool, workspaceID, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: %s integration of %s: %w", tool, workspaceID, err)
	}
	return o, nil
}

// PutOutreachIntegration inserts or replaces, keeping created_at.
func (db *DB) PutOutreachIntegration(ctx context.Context, o *prospector.OutreachIntegration) error {
	if err := o.Validate(); err != nil {
		return err
	}
	err := db.pool.QueryRow(ctx, `INSERT INTO outreach_integrations (`+outreachColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
		ON CONFLICT (workspace_id, tool) DO UPDATE SET base_url = excluded.base_url, api_key = excluded.api_key,
			campaign_id = excluded.campaign_id, list_id = excluded.list_id, updated_at = excluded.updated_at
		RETURNING created_at, updated_at`,
		o.WorkspaceID, o.Tool, o.BaseURL, o.APIKey, o.CampaignID, o.ListID, nowUTC()).Scan(&o.CreatedAt, &o.UpdatedAt)
	if isPgError(err, codeForeignKeyViolation, "") {
		return fmt.Errorf("postgres: put %s integration: workspace %s: %w", o.Tool, o.WorkspaceID, prospector.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("postgres: put %s integration: %w", o.Tool, err)
	}
	o.CreatedAt, o.UpdatedAt = o.CreatedAt.UTC(), o.UpdatedAt.UTC()
	return nil
}

// ListOutreachIntegrations returns a workspace's integrations by tool.
func (db *DB) ListOutreachIntegrations(ctx context.Context, workspaceID string) ([]*prospector.OutreachIntegration, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+outreachColumns+` FROM outreach_integrations
		WHERE workspace_id = $1 ORDER BY tool`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("postgres: list integrations: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*prospector.OutreachIntegration, error) { return scanOutreach(r) })
	if err != nil {
		return nil, fmt.Errorf("postgres: list integrations: %w", err)
	}
	return out, nil
}

const deliveryColumns = `id, workspace_id, destination_kind, destination_url, lead_id, payload, status, attempts,
	next_attempt_at, last_status_code, last_error, delivered_at, created_at, updated_at`

func scanDelivery(row pgx.Row) (*prospector.Delivery, error) {
	var (
		d      prospector.Delivery
		status string
	)
	err := row.Scan(&d.ID, &d.WorkspaceID, &d.DestinationKind, &d.DestinationURL, &d.LeadID, &d.Payload, &status,
		&d.Attempts, &d.NextAttemptAt, &d.LastStatusCode, &d.LastError, &d.DeliveredAt, &d.CreatedAt, &d.UpdatedAt)
	if err != nil {
		return nil, err
	}
	d.Status = prospector.DeliveryStatus(status)
	d.NextAttemptAt, d.DeliveredAt = d.NextAttemptAt.UTC(), utcPtr(d.DeliveredAt)
	d.CreatedAt, d.UpdatedAt = d.CreatedAt.UTC(), d.UpdatedAt.UTC()
	return &d, nil
}

// AddDelivery queues d unless the lead already has a delivery to the
// same destination, which it then returns in d. A concurrent insert of
// the same lead and destination waits for the other transaction, then
// returns its row.
func (db *DB) AddDelivery(ctx context.Context, d *prospector.Delivery) (bool, error) {
	now := nowUTC()
	next, err := d.Prepare(now)
	if err != nil {
		return false, err
	}
	next = next.UTC().Truncate(time.Microsecond)
	tag, err := db.pool.Exec(ctx, `INSERT INTO deliveries (`+deliveryColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, 'pending', 0, $7, 0, '', NULL, $8, $8)
		ON CONFLICT ON CONSTRAINT deliveries_once DO NOTHING`,
		d.ID, d.WorkspaceID, d.DestinationKind, d.DestinationURL, d.LeadID, string(d.Payload), next, now)
	if isPgError(err, codeForeignKeyViolation, "") {
		return false, fmt.Errorf("postgres: add delivery: workspace %s: %w", d.WorkspaceID, prospector.ErrNotFound)
	}
	if err != nil {
		return false, fmt.Errorf("postgres: add delivery: %w", err)
	}
	if tag.RowsAffected() == 0 {
		existing, err := scanDelivery(db.pool.QueryRow(ctx, `SELECT `+deliveryColumns+` FROM deliveries
			WHERE workspace_id = $1 AND destination_kind = $2 AND destination_url = $3 AND lead_id = $4`,
			d.WorkspaceID, d.DestinationKind, d.DestinationURL, d.LeadID))
		if err != nil {
			return false, fmt.Errorf("postgres: add delivery: existing: %w", err)
		}
		*d = *existing
		return false, nil
	}
	d.Queued(next, now)
	return true, nil
}

// Delivery returns ErrNotFound when there is no such delivery.
func (db *DB) Delivery(ctx context.Context, id string) (*prospector.Delivery, error) {
	d, err := scanDelivery(db.pool.QueryRow(ctx, `SELECT `+deliveryColumns+` FROM deliveries WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: delivery %s: %w", id, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: delivery %s: %w", id, err)
	}
	return d, nil
}

// ListDeliveries lists newest first, or oldest due first with DueBefore.
func (db *DB) ListDeliveries(ctx context.Context, f prospector.DeliveryFilter) ([]*prospector.Delivery, error) {
	var (
		where []string
		args  []any
	)
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if f.WorkspaceID != "" {
		where = append(where, "workspace_id = "+arg(f.WorkspaceID))
	}
	if f.Status != "" {
		where = append(where, "status = "+arg(string(f.Status)))
	}
	order := "created_at DESC, id DESC"
	if !f.DueBefore.IsZero() {
		where = append(where, "next_attempt_at <= "+arg(f.DueBefore.UTC()))
		order = "next_attempt_at, id"
	}
	q := `SELECT ` + deliveryColumns + ` FROM deliveries`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, " AND ")
	}
	q += ` ORDER BY ` + order + ` LIMIT ` + arg(f.PageLimit())
	rows, err := db.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: list deliveries: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*prospector.Delivery, error) { return scanDelivery(r) })
	if err != nil {
		return nil, fmt.Errorf("postgres: list deliveries: %w", err)
	}
	return out, nil
}

// MarkDelivery records u if the delivery still has fromAttempts attempts.
func (db *DB) MarkDelivery(ctx context.Context, id string, fromAttempts int, u prospector.DeliveryUpdate, now time.Time) error {
	tag, err := db.pool.Exec(ctx, `UPDATE deliveries SET status = $3, attempts = $4, next_attempt_at = $5,
			last_status_code = $6, last_error = $7, delivered_at = $8, updated_at = $9
		WHERE id = $1 AND attempts = $2`,
		id, fromAttempts, string(u.Status), u.Attempts, u.NextAttemptAt.UTC(), u.LastStatusCode, u.LastError,
		u.DeliveredAt, now.UTC())
	if err != nil {
		return fmt.Errorf("postgres: mark delivery %s: %w", id, err)
	}
	if tag.RowsAffected() > 0 {
		return nil
	}
	var exists bool
	if err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM deliveries WHERE id = $1)`, id).Scan(&exists); err != nil {
		return fmt.Errorf("postgres: mark delivery %s: %w", id, err)
	}
	if !exists {
		return fmt.Errorf("postgres: mark delivery %s: %w", id, prospector.ErrNotFound)
	}
	return fmt.Errorf("postgres: mark delivery %s: %w", id, prospector.ErrConcurrentUpdate)
}

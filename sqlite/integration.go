package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

// Webhook settings, outreach integrations and the delivery outbox.

const webhookColumns = `workspace_id, url, auth_header, auth_value, disabled_fields, custom_fields, template,
	auto_sync, signing_secret, disabled_reason, disabled_at, created_at, updated_at`

func scanWebhookSettings(row rowScanner) (*prospector.WebhookSettings, error) {
	var (
		s                    prospector.WebhookSettings
		fields, custom       string
		disabledAt           sql.NullString
		createdAt, updatedAt string
	)
	err := row.Scan(&s.WorkspaceID, &s.URL, &s.AuthHeader, &s.AuthValue, &fields, &custom, &s.Template,
		&s.AutoSync, &s.SigningSecret, &s.DisabledReason, &disabledAt, &createdAt, &updatedAt)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(fields), &s.DisabledFields); err != nil {
		return nil, fmt.Errorf("disabled_fields: %w", err)
	}
	if err := json.Unmarshal([]byte(custom), &s.CustomFields); err != nil {
		return nil, fmt.Errorf("custom_fields: %w", err)
	}
	s.DisabledAt, s.CreatedAt, s.UpdatedAt = parseTimePtr(disabledAt), parseTime(createdAt), parseTime(updatedAt)
	return &s, nil
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
	s, err := scanWebhookSettings(db.read.QueryRowContext(ctx,
		`SELECT `+webhookColumns+` FROM webhook_settings WHERE workspace_id = ?`, workspaceID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sqlite: webhook settings of %s: %w", workspaceID, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: webhook settings of %s: %w", workspaceID, err)
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
		return fmt.Errorf("sqlite: create webhook settings: %w", err)
	}
	now := time.Now().UTC()
	_, err = db.write.ExecContext(ctx, `INSERT INTO webhook_settings (`+webhookColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.WorkspaceID, s.URL, s.AuthHeader, s.AuthValue, jsonList(s.DisabledFields), custom, s.Template,
		s.AutoSync, s.SigningSecret, s.DisabledReason, formatTimePtr(s.DisabledAt), formatTime(now), formatTime(now))
	switch {
	case isForeignKeyError(err):
		return fmt.Errorf("sqlite: create webhook settings: workspace %s: %w", s.WorkspaceID, prospector.ErrNotFound)
	case err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed"):
		return fmt.Errorf("sqlite: create webhook settings of %s: %w", s.WorkspaceID, prospector.ErrAlreadyExists)
	case err != nil:
		return fmt.Errorf("sqlite: create webhook settings: %w", err)
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
		return fmt.Errorf("sqlite: update webhook settings: %w", err)
	}
	now := time.Now().UTC()
	n, err := rowsAffected(db.write.ExecContext(ctx, `UPDATE webhook_settings SET url = ?, auth_header = ?, auth_value = ?,
		disabled_fields = ?, custom_fields = ?, template = ?, auto_sync = ?, signing_secret = ?,
		disabled_reason = ?, disabled_at = ?, updated_at = ?
		WHERE workspace_id = ?`,
		s.URL, s.AuthHeader, s.AuthValue, jsonList(s.DisabledFields), custom, s.Template,
		s.AutoSync, s.SigningSecret, s.DisabledReason, formatTimePtr(s.DisabledAt), formatTime(now), s.WorkspaceID))
	if err != nil {
		return fmt.Errorf("sqlite: update webhook settings: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("sqlite: update webhook settings of %s: %w", s.WorkspaceID, prospector.ErrNotFound)
	}
	s.UpdatedAt = now
	return nil
}

// DisableWebhookAutoSync switches auto-sync off if it still sends to url.
func (db *DB) DisableWebhookAutoSync(ctx context.Context, workspaceID, url, reason string, now time.Time) (bool, error) {
	n, err := rowsAffected(db.write.ExecContext(ctx, `UPDATE webhook_settings SET auto_sync = 0, disabled_reason = ?,
		disabled_at = ?, updated_at = ? WHERE workspace_id = ? AND url = ? AND auto_sync = 1`,
		reason, formatTime(now), formatTime(time.Now()), workspaceID, url))
	if err != nil {
		return false, fmt.Errorf("sqlite: disable auto-sync of %s: %w", workspaceID, err)
	}
	return n > 0, nil
}

const outreachColumns = `workspace_id, tool, base_url, api_key, campaign_id, list_id, created_at, updated_at`

func scanOutreach(row rowScanner) (*prospector.OutreachIntegration, error) {
	var (
		o                    prospector.OutreachIntegration
		createdAt, updatedAt string
	)
	if err := row.Scan(&o.WorkspaceID, &o.Tool, &o.BaseURL, &o.APIKey, &o.CampaignID, &o.ListID, &createdAt, &updatedAt); err != nil {
		return nil, err
	}
	o.CreatedAt, o.UpdatedAt = parseTime(createdAt), parseTime(updatedAt)
	return &o, nil
}

// OutreachIntegration returns ErrNotFound when the workspace has none for tool.
func (db *DB) OutreachIntegration(ctx context.Context, workspaceID, tool string) (*prospector.OutreachIntegration, error) {
	o, err := scanOutreach(db.read.QueryRowContext(ctx,
		`SELECT `+outreachColumns+` FROM outreach_integrations WHERE workspace_id = ? AND tool = ?`, workspaceID, tool))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sqlite: %s integration of %s: %w", tool, workspaceID, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: %s integration of %s: %w", tool, workspaceID, err)
	}
	return o, nil
}

// PutOutreachIntegration inserts or replaces, keeping created_at.
func (db *DB) PutOutreachIntegration(ctx context.Context, o *prospector.OutreachIntegration) error {
	if err := o.Validate(); err != nil {
		return err
	}
	now := formatTime(time.Now())
	var createdAt, updatedAt string
	err := db.write.QueryRowContext(ctx, `INSERT INTO outreach_integrations (`+outreachColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (workspace_id, tool) DO UPDATE SET base_url = excluded.base_url, api_key = excluded.api_key,
			campaign_id = excluded.campaign_id, list_id = excluded.list_id, updated_at = excluded.updated_at
		RETURNING created_at, updated_at`,
		o.WorkspaceID, o.Tool, o.BaseURL, o.APIKey, o.CampaignID, o.ListID, now, now).Scan(&createdAt, &updatedAt)
	if isForeignKeyError(err) {
		return fmt.Errorf("sqlite: put %s integration: workspace %s: %w", o.Tool, o.WorkspaceID, prospector.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("sqlite: put %s integration: %w", o.Tool, err)
	}
	o.CreatedAt, o.UpdatedAt = parseTime(createdAt), parseTime(updatedAt)
	return nil
}

// ListOutreachIntegrations returns a workspace's integrations by tool.
func (db *DB) ListOutreachIntegrations(ctx context.Context, workspaceID string) ([]*prospector.OutreachIntegration, error) {
	return queryList(ctx, db.read, `SELECT `+outreachColumns+` FROM outreach_integrations
		WHERE workspace_id = ? ORDER BY tool`, scanOutreach, workspaceID)
}

const deliveryColumns = `id, workspace_id, destination_kind, destination_url, lead_id, payload, status, attempts,
	next_attempt_at, last_status_code, last_error, delivered_at, created_at, updated_at`

func scanDelivery(row rowScanner) (*prospector.Delivery, error) {
	var (
		d                               prospector.Delivery
		payload, status, next, cAt, uAt string
		deliveredAt                     sql.NullString
	)
	err := row.Scan(&d.ID, &d.WorkspaceID, &d.DestinationKind, &d.DestinationURL, &d.LeadID, &payload, &status,
		&d.Attempts, &next, &d.LastStatusCode, &d.LastError, &deliveredAt, &cAt, &uAt)
	if err != nil {
		return nil, err
	}
	d.Payload, d.Status = []byte(payload), prospector.DeliveryStatus(status)
	d.NextAttemptAt, d.DeliveredAt = parseTime(next), parseTimePtr(deliveredAt)
	d.CreatedAt, d.UpdatedAt = parseTime(cAt), parseTime(uAt)
	return &d, nil
}

// AddDelivery queues d unless the lead already has a delivery to the
// same destination, which it then returns in d.
func (db *DB) AddDelivery(ctx context.Context, d *prospector.Delivery) (bool, error) {
	now := time.Now().UTC()
	next, err := d.Prepare(now)
	if err != nil {
		return false, err
	}
	var existing *prospector.Delivery
	err = db.grouped(ctx, func(ctx context.Context, tx *sql.Tx) error {
		n, err := rowsAffected(tx.ExecContext(ctx, `INSERT INTO deliveries (`+deliveryColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, 0, '', NULL, ?, ?)
			ON CONFLICT (workspace_id, destination_kind, destination_url, lead_id) DO NOTHING`,
			d.ID, d.WorkspaceID, d.DestinationKind, d.DestinationURL, d.LeadID, string(d.Payload),
			formatTime(next), formatTime(now), formatTime(now)))
		if err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		existing, err = scanDelivery(tx.QueryRowContext(ctx, `SELECT `+deliveryColumns+` FROM deliveries
			WHERE workspace_id = ? AND destination_kind = ? AND destination_url = ? AND lead_id = ?`,
			d.WorkspaceID, d.DestinationKind, d.DestinationURL, d.LeadID))
		return err
	})
	if isForeignKeyError(err) {
		return false, fmt.Errorf("sqlite: add delivery: workspace %s: %w", d.WorkspaceID, prospector.ErrNotFound)
	}
	if err != nil {
		return false, fmt.Errorf("sqlite: add delivery: %w", err)
	}
	if existing != nil {
		*d = *existing
		return false, nil
	}
	d.Queued(next.UTC(), now)
	return true, nil
}

// Delivery returns ErrNotFound when there is no such delivery.
func (db *DB) Delivery(ctx context.Context, id string) (*prospector.Delivery, error) {
	d, err := scanDelivery(db.row(ctx, `SELECT `+deliveryColumns+` FROM deliveries WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sqlite: delivery %s: %w", id, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: delivery %s: %w", id, err)
	}
	return d, nil
}

// ListDeliveries lists newest first, or oldest due first with DueBefore.
func (db *DB) ListDeliveries(ctx context.Context, f prospector.DeliveryFilter) ([]*prospector.Delivery, error) {
	var (
		where []string
		args  []any
	)
	if f.WorkspaceID != "" {
		where, args = append(where, "workspace_id = ?"), append(args, f.WorkspaceID)
	}
	if f.Status != "" {
		where, args = append(where, "status = ?"), append(args, string(f.Status))
	}
	order := "created_at DESC, id DESC"
	if !f.DueBefore.IsZero() {
		where, args = append(where, "next_attempt_at <= ?"), append(args, formatTime(f.DueBefore))
		order = "next_attempt_at, id"
	}
	q := `SELECT ` + deliveryColumns + ` FROM deliveries`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, " AND ")
	}
	q += ` ORDER BY ` + order + ` LIMIT ?`
	out, err := queryList(ctx, db.read, q, scanDelivery, append(args, f.PageLimit())...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list deliveries: %w", err)
	}
	return out, nil
}

// MarkDelivery records u if the delivery still has fromAttempts attempts.
func (db *DB) MarkDelivery(ctx context.Context, id string, fromAttempts int, u prospector.DeliveryUpdate, now time.Time) error {
	err := db.grouped(ctx, func(ctx context.Context, tx *sql.Tx) error {
		changed, err := rowsAffected(tx.ExecContext(ctx, `UPDATE deliveries SET status = ?, attempts = ?, next_attempt_at = ?,
			last_status_code = ?, last_error = ?, delivered_at = ?, updated_at = ?
			WHERE id = ? AND attempts = ?`,
			string(u.Status), u.Attempts, formatTime(u.NextAttemptAt), u.LastStatusCode, u.LastError,
			formatTimePtr(u.DeliveredAt), formatTime(now), id, fromAttempts))
		if err != nil {
			return err
		}
		if changed > 0 {
			return nil
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM deliveries WHERE id = ?`, id).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return prospector.ErrNotFound
		}
		return prospector.ErrConcurrentUpdate
	})
	if err != nil {
		return fmt.Errorf("sqlite: mark delivery %s: %w", id, err)
	}
	return nil
}

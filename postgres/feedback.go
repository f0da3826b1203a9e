package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

const (
	feedbackEventColumns = `id, workspace_id, lead_id, event_type, source, content, meeting_url, occurred_at,
		metadata::text, email, idempotency_key, request_hash, created_at`
	leadFeedbackColumns = `lead_id, workspace_id, title, company, signal_mask, status, email, email_domain, email_status,
		email_at, events, first_event_at, last_event_at, applied_at, last_reply_at, last_positive_at, last_meeting_at,
		last_bounce_at`
)

func scanLeadFeedback(row pgx.Row) (*prospector.LeadFeedback, error) {
	var f prospector.LeadFeedback
	err := row.Scan(&f.LeadID, &f.WorkspaceID, &f.Title, &f.Company, &f.SignalMask, &f.Status, &f.Email, &f.EmailDomain,
		&f.EmailStatus, &f.EmailAt, &f.Events, &f.FirstEventAt, &f.LastEventAt, &f.AppliedAt, &f.LastReplyAt,
		&f.LastPositiveAt, &f.LastMeetingAt, &f.LastBounceAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: scan lead feedback: %w", err)
	}
	f.FirstEventAt, f.LastEventAt = f.FirstEventAt.UTC(), f.LastEventAt.UTC()
	f.EmailAt, f.AppliedAt, f.LastReplyAt = utcPtr(f.EmailAt), utcPtr(f.AppliedAt), utcPtr(f.LastReplyAt)
	f.LastPositiveAt, f.LastMeetingAt, f.LastBounceAt = utcPtr(f.LastPositiveAt), utcPtr(f.LastMeetingAt), utcPtr(f.LastBounceAt)
	return &f, nil
}

// FeedbackLead reads the lead, its person's address and its signal
// types in one statement.
func (db *DB) FeedbackLead(ctx context.Context, workspaceID, leadID string) (*prospector.Lead, []string, error) {
	var (
		l     prospector.Lead
		types []string
	)
	err := db.pool.QueryRow(ctx, `SELECT l.id, l.full_name, l.first_name, l.last_name, l.title, l.company,
		coalesce(nullif(l.email, ''), p.email, ''),
		coalesce((SELECT array_agg(DISTINCT s.type ORDER BY s.type) FROM lead_signals ls
			JOIN signals s ON s.id = ls.signal_id WHERE ls.lead_id = l.id), '{}')
		FROM leads l LEFT JOIN people p ON p.id = l.person_id
		WHERE l.id = $1 AND l.workspace_id = $2`, leadID, workspaceID).Scan(&l.ID, &l.FullName, &l.FirstName, &l.LastName,
		&l.Title, &l.Company, &l.Email, &types)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, prospector.ErrLeadNotFound
	}
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: feedback lead: %w", err)
	}
	l.WorkspaceID = workspaceID
	return &l, types, nil
}

func scanFeedbackEvent(row pgx.Row) (*prospector.FeedbackEvent, error) {
	var (
		e   prospector.FeedbackEvent
		key *string
	)
	if err := row.Scan(&e.ID, &e.WorkspaceID, &e.LeadID, &e.Type, &e.Source, &e.Content, &e.MeetingURL, &e.OccurredAt,
		&e.Metadata, &e.Facts.Email, &key, &e.RequestHash, &e.CreatedAt); err != nil {
		return nil, fmt.Errorf("postgres: scan feedback event: %w", err)
	}
	if key != nil {
		e.IdempotencyKey = *key
	}
	e.OccurredAt, e.CreatedAt = e.OccurredAt.UTC(), e.CreatedAt.UTC()
	return &e, nil
}

// FeedbackEvents reads a lead's events through feedback_events_lead.
func (db *DB) FeedbackEvents(ctx context.Context, workspaceID, leadID string) ([]*prospector.FeedbackEvent, error) {
	return queryList(ctx, db, `SELECT `+feedbackEventColumns+` FROM feedback_events
		WHERE lead_id = $1 AND workspace_id = $2 ORDER BY seq`, scanFeedbackEvent, leadID, workspaceID)
}

// LeadFeedback returns a lead's feedback record.
func (db *DB) LeadFeedback(ctx context.Context, workspaceID, leadID string) (*prospector.LeadFeedback, error) {
	return scanLeadFeedback(db.pool.QueryRow(ctx, `SELECT `+leadFeedbackColumns+` FROM lead_feedback
		WHERE lead_id = $1 AND workspace_id = $2`, leadID, workspaceID))
}

// EmailOutcomes reads a domain's pattern rows and bounced addresses.
func (db *DB) EmailOutcomes(ctx context.Context, domain string) (*prospector.EmailOutcomes, error) {
	out := &prospector.EmailOutcomes{Patterns: map[string]prospector.PatternOutcome{}, Undeliverable: map[string]bool{}}
	rows, err := db.pool.Query(ctx, `SELECT pattern, bounces, replies, false FROM email_pattern_outcomes WHERE domain = $1
		UNION ALL SELECT address, 0, 0, true FROM email_address_outcomes WHERE domain = $1 AND last_outcome = 'bounce'`, domain)
	if err != nil {
		return nil, fmt.Errorf("postgres: email outcomes: %w", err)
	}
	var (
		name    string
		o       prospector.PatternOutcome
		address bool
	)
	if _, err := pgx.ForEachRow(rows, []any{&name, &o.Bounces, &o.Replies, &address}, func() error {
		if address {
			out.Undeliverable[name] = true
		} else {
			out.Patterns[name] = o
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("postgres: email outcomes: %w", err)
	}
	return out, nil
}

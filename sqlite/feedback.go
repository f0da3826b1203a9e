package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

const (
	feedbackEventColumns = `id, workspace_id, lead_id, event_type, source, content, meeting_url, occurred_at, metadata,
		email, idempotency_key, request_hash, created_at`
	leadFeedbackColumns = `lead_id, workspace_id, title, company, signal_mask, status, email, email_domain, email_status,
		email_at, events, first_event_at, last_event_at, applied_at, last_reply_at, last_positive_at, last_meeting_at,
		last_bounce_at`
)

// scanFunc lets a function stand for a row.
type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }

func scanLeadFeedback(row rowScanner) (*prospector.LeadFeedback, error) {
	var (
		f                                       prospector.LeadFeedback
		emailAt, applied, reply, pos, meet, bnc sql.NullInt64
		first, last                             int64
	)
	err := row.Scan(&f.LeadID, &f.WorkspaceID, &f.Title, &f.Company, &f.SignalMask, &f.Status, &f.Email, &f.EmailDomain,
		&f.EmailStatus, &emailAt, &f.Events, &first, &last, &applied, &reply, &pos, &meet, &bnc)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: scan lead feedback: %w", err)
	}
	f.FirstEventAt, f.LastEventAt = fromMicros(first), fromMicros(last)
	f.EmailAt, f.AppliedAt, f.LastReplyAt = microsPtr(emailAt), microsPtr(applied), microsPtr(reply)
	f.LastPositiveAt, f.LastMeetingAt, f.LastBounceAt = microsPtr(pos), microsPtr(meet), microsPtr(bnc)
	return &f, nil
}

// lead_feedback keeps its times as Unix microseconds (see its migration).
func fromMicros(n int64) time.Time { return time.UnixMicro(n).UTC() }

func microsPtr(n sql.NullInt64) *time.Time {
	if !n.Valid {
		return nil
	}
	t := fromMicros(n.Int64)
	return &t
}

func micros(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixMicro()
}

// FeedbackLead reads the lead, its person's address and its signal
// types with one prepared statement.
func (db *DB) FeedbackLead(ctx context.Context, workspaceID, leadID string) (*prospector.Lead, []string, error) {
	var (
		l     prospector.Lead
		types sql.NullString
	)
	err := db.row(ctx, `SELECT l.id, l.full_name, l.first_name, l.last_name, l.title, l.company,
		coalesce(nullif(l.email, ''), p.email, ''),
		(SELECT group_concat(DISTINCT s.type) FROM lead_signals ls JOIN signals s ON s.id = ls.signal_id
			WHERE ls.lead_id = l.id)
		FROM leads l LEFT JOIN people p ON p.id = l.person_id
		WHERE l.id = ? AND l.workspace_id = ?`, leadID, workspaceID).Scan(&l.ID, &l.FullName, &l.FirstName, &l.LastName,
		&l.Title, &l.Company, &l.Email, &types)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, prospector.ErrLeadNotFound
	}
	if err != nil {
		return nil, nil, fmt.Errorf("sqlite: feedback lead: %w", err)
	}
	l.WorkspaceID = workspaceID
	return &l, splitTypes(types.String), nil
}

func splitTypes(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func scanFeedbackEvent(row rowScanner) (*prospector.FeedbackEvent, error) {
	var (
		e                   prospector.FeedbackEvent
		key                 sql.NullString
		occurred, createdAt string
	)
	if err := row.Scan(&e.ID, &e.WorkspaceID, &e.LeadID, &e.Type, &e.Source, &e.Content, &e.MeetingURL, &occurred,
		&e.Metadata, &e.Facts.Email, &key, &e.RequestHash, &createdAt); err != nil {
		return nil, fmt.Errorf("sqlite: scan feedback event: %w", err)
	}
	e.IdempotencyKey, e.OccurredAt, e.CreatedAt = key.String, parseTime(occurred), parseTime(createdAt)
	return &e, nil
}

// FeedbackEvents reads a lead's events through feedback_events_lead.
func (db *DB) FeedbackEvents(ctx context.Context, workspaceID, leadID string) ([]*prospector.FeedbackEvent, error) {
	return queryPrepared(ctx, db, `SELECT `+feedbackEventColumns+` FROM feedback_events
		WHERE lead_id = ? AND workspace_id = ? ORDER BY seq`, scanFeedbackEvent, leadID, workspaceID)
}

// LeadFeedback returns a lead's feedback record.
func (db *DB) LeadFeedback(ctx context.Context, workspaceID, leadID string) (*prospector.LeadFeedback, error) {
	return scanLeadFeedback(db.row(ctx, `SELECT `+leadFeedbackColumns+` FROM lead_feedback
		WHERE lead_id = ? AND workspace_id = ?`, leadID, workspaceID))
}

// EmailOutcomes reads a domain's pattern rows (its primary key range) and
// its bounced addresses (a partial index).
func (db *DB) EmailOutcomes(ctx context.Context, domain string) (*prospector.EmailOutcomes, error) {
	out := &prospector.EmailOutcomes{Patterns: map[string]prospector.PatternOutcome{}, Undeliverable: map[string]bool{}}
	type outcomeRow struct {
		name    string
		o       prospector.PatternOutcome
		address bool
	}
	// One statement (as on PostgreSQL): every enrich/email call reads
	// this, and each statement was a read transaction of its own.
	rows, err := queryPrepared(uncancelled(ctx), db, `SELECT pattern, bounces, replies, 0 FROM email_pattern_outcomes WHERE domain = ?
		UNION ALL SELECT address, 0, 0, 1 FROM email_address_outcomes WHERE domain = ? AND last_outcome = 'bounce'`,
		func(row rowScanner) (outcomeRow, error) {
			var r outcomeRow
			err := row.Scan(&r.name, &r.o.Bounces, &r.o.Replies, &r.address)
			return r, err
		}, domain, domain)
	if err != nil {
		return nil, fmt.Errorf("sqlite: email outcomes: %w", err)
	}
	for _, r := range rows {
		if r.address {
			out.Undeliverable[r.name] = true
		} else {
			out.Patterns[r.name] = r.o
		}
	}
	return out, nil
}

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

// RecordFeedbackEvent applies ev in one transaction that first locks the
// lead's row. Events of one lead thus apply one after another, and under
// READ COMMITTED each reads the lead, its feedback record and the
// idempotency key after the previous holder of the lock committed. FOR
// NO KEY UPDATE is the lock the UPDATE of the lead's status takes; unlike
// FOR UPDATE it does not block the radar engine attaching signals (rows
// that reference the lead) meanwhile.
//
// Two events with one key but different leads do not share a lock: the
// unique (workspace_id, idempotency_key) index makes the second insert
// fail, and the second call then answers from the first's row.
func (db *DB) RecordFeedbackEvent(ctx context.Context, ev *prospector.FeedbackEvent, now time.Time) (*prospector.FeedbackResult, bool, error) {
	var (
		res      *prospector.FeedbackResult
		replayed bool
	)
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var cur prospector.LeadState
		err := tx.QueryRow(ctx, `SELECT status, replied_at, meeting_booked_at, coalesce(reply_content, ''),
			coalesce(feedback, ''), coalesce(feedback_reason, '') FROM leads
			WHERE id = $1 AND workspace_id = $2 FOR NO KEY UPDATE`, ev.LeadID, ev.WorkspaceID).Scan(&cur.Status,
			&cur.RepliedAt, &cur.MeetingBookedAt, &cur.ReplyContent, &cur.Feedback, &cur.FeedbackReason)
		if errors.Is(err, pgx.ErrNoRows) {
			return prospector.ErrLeadNotFound
		}
		if err != nil {
			return fmt.Errorf("postgres: lock lead: %w", err)
		}
		cur.RepliedAt, cur.MeetingBookedAt = utcPtr(cur.RepliedAt), utcPtr(cur.MeetingBookedAt)
		if ev.IdempotencyKey != "" {
			first, err := feedbackByKey(ctx, tx, ev, now)
			if err != nil || first != nil {
				res, replayed = first, first != nil
				return err
			}
		}
		prev, err := scanLeadFeedback(tx.QueryRow(ctx, `SELECT `+leadFeedbackColumns+` FROM lead_feedback
			WHERE lead_id = $1`, ev.LeadID))
		if err != nil && !errors.Is(err, prospector.ErrNotFound) {
			return err
		}
		r, next := prospector.DecideFeedback(cur, prev, ev)
		var result []byte
		if ev.IdempotencyKey != "" {
			result, _ = json.Marshal(r)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO feedback_events (id, workspace_id, lead_id, event_type, source, content,
			meeting_url, occurred_at, metadata, email, mutated_lead, idempotency_key, request_hash, result, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13, $14::jsonb, $15)`,
			ev.ID, ev.WorkspaceID, ev.LeadID, ev.Type, ev.Source, ev.Content, ev.MeetingURL, ev.OccurredAt, ev.Metadata,
			ev.Facts.Email, r.Mutated, nullString(ev.IdempotencyKey), ev.RequestHash, nullJSON(result), now); err != nil {
			return fmt.Errorf("postgres: write feedback event: %w", err)
		}
		if r.Mutated {
			a := r.After
			if _, err := tx.Exec(ctx, `UPDATE leads SET status = $1, replied_at = $2, meeting_booked_at = $3,
				reply_content = $4, feedback = $5, feedback_reason = $6, updated_at = $7 WHERE id = $8`,
				a.Status, a.RepliedAt, a.MeetingBookedAt, nullString(a.ReplyContent), nullString(a.Feedback),
				nullString(a.FeedbackReason), now, ev.LeadID); err != nil {
				return fmt.Errorf("postgres: update lead %s: %w", ev.LeadID, err)
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO lead_feedback (`+leadFeedbackColumns+`, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
			ON CONFLICT (lead_id) DO UPDATE SET title = excluded.title, company = excluded.company,
				signal_mask = excluded.signal_mask, status = excluded.status, email = excluded.email,
				email_domain = excluded.email_domain, email_status = excluded.email_status, email_at = excluded.email_at,
				events = excluded.events, first_event_at = excluded.first_event_at,
				last_event_at = excluded.last_event_at, applied_at = excluded.applied_at,
				last_reply_at = excluded.last_reply_at, last_positive_at = excluded.last_positive_at,
				last_meeting_at = excluded.last_meeting_at, last_bounce_at = excluded.last_bounce_at,
				updated_at = excluded.updated_at`,
			next.LeadID, next.WorkspaceID, next.Title, next.Company, next.SignalMask, next.Status, next.Email,
			next.EmailDomain, next.EmailStatus, next.EmailAt, next.Events, next.FirstEventAt, next.LastEventAt,
			next.AppliedAt, next.LastReplyAt, next.LastPositiveAt, next.LastMeetingAt, next.LastBounceAt, now); err != nil {
			return fmt.Errorf("postgres: write lead feedback: %w", err)
		}
		if err := recordEmailOutcome(ctx, tx, ev, now); err != nil {
			return err
		}
		res = &r
		return nil
	})
	if isPgError(err, codeUniqueViolation, "feedback_events_key") {
		return db.replayFeedback(ctx, ev, now)
	}
	if err != nil {
		return nil, false, err
	}
	return res, replayed, nil
}

// feedbackByKey returns the first result of ev's idempotency key, nil
// when the key is free (releasing it when it expired), or
// ErrIdempotencyMismatch.
func feedbackByKey(ctx context.Context, tx pgx.Tx, ev *prospector.FeedbackEvent, now time.Time) (*prospector.FeedbackResult, error) {
	var (
		id, hash string
		result   []byte
		created  time.Time
	)
	err := tx.QueryRow(ctx, `SELECT id, request_hash, result::text, created_at FROM feedback_events
		WHERE workspace_id = $1 AND idempotency_key = $2`, ev.WorkspaceID, ev.IdempotencyKey).Scan(&id, &hash, &result, &created)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("postgres: feedback idempotency key: %w", err)
	case now.Sub(created) >= prospector.IdempotencyWindow:
		if _, err := tx.Exec(ctx, `UPDATE feedback_events SET idempotency_key = NULL WHERE id = $1`, id); err != nil {
			return nil, fmt.Errorf("postgres: release feedback idempotency key: %w", err)
		}
		return nil, nil
	case hash != ev.RequestHash:
		return nil, prospector.ErrIdempotencyMismatch
	}
	var first prospector.FeedbackResult
	if err := json.Unmarshal(result, &first); err != nil {
		return nil, fmt.Errorf("postgres: feedback event %s result: %w", id, err)
	}
	return &first, nil
}

// replayFeedback answers an event whose key another transaction took
// first.
func (db *DB) replayFeedback(ctx context.Context, ev *prospector.FeedbackEvent, now time.Time) (*prospector.FeedbackResult, bool, error) {
	var first *prospector.FeedbackResult
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var err error
		first, err = feedbackByKey(ctx, tx, ev, now)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	if first == nil {
		return nil, false, fmt.Errorf("postgres: feedback idempotency key %q vanished", ev.IdempotencyKey)
	}
	return first, true, nil
}

// recordEmailOutcome counts a bounce or a reply for its address and, the
// first time the address bounces or replies, for its patterns, in
// sorted order. The upsert locks the address row, so of two concurrent
// first bounces only one sees the count at 1.
func recordEmailOutcome(ctx context.Context, tx pgx.Tx, ev *prospector.FeedbackEvent, now time.Time) error {
	outcome, ok := prospector.EmailOutcome(ev)
	if !ok {
		return nil
	}
	var b, r, bounces, replies int64
	if outcome == prospector.EventBounce {
		b = 1
	} else {
		r = 1
	}
	addr := ev.Facts.Email
	domain := addr[strings.LastIndexByte(addr, '@')+1:]
	if err := tx.QueryRow(ctx, `INSERT INTO email_address_outcomes AS o (address, domain, bounces, replies, last_outcome,
			last_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (address) DO UPDATE SET bounces = o.bounces + excluded.bounces, replies = o.replies + excluded.replies,
			last_outcome = CASE WHEN excluded.last_at >= o.last_at THEN excluded.last_outcome ELSE o.last_outcome END,
			last_at = GREATEST(o.last_at, excluded.last_at), updated_at = excluded.updated_at
		RETURNING bounces, replies`, addr, domain, b, r, outcome, ev.OccurredAt, now).Scan(&bounces, &replies); err != nil {
		return fmt.Errorf("postgres: write address outcome: %w", err)
	}
	if b == 1 && bounces != 1 || r == 1 && replies != 1 {
		return nil // the address was counted before
	}
	for _, p := range prospector.OutcomePatterns(ev.Facts) {
		if _, err := tx.Exec(ctx, `INSERT INTO email_pattern_outcomes AS o (domain, pattern, bounces, replies, updated_at)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (domain, pattern) DO UPDATE SET bounces = o.bounces + excluded.bounces,
				replies = o.replies + excluded.replies, updated_at = excluded.updated_at`,
			domain, p, b, r, now); err != nil {
			return fmt.Errorf("postgres: write pattern outcome: %w", err)
		}
	}
	return nil
}

func nullJSON(b []byte) *string {
	if b == nil {
		return nil
	}
	s := string(b)
	return &s
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

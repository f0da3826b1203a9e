package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// Recording a feedback event: the event, the lead's state, its feedback
// record and the email outcomes, in one transaction.

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
		var err error
		res, replayed, err = recordFeedback(ctx, tx, ev, now)
		return err
	})
	if isPgError(err, codeUniqueViolation, "feedback_events_key") {
		return db.replayFeedback(ctx, ev, now)
	}
	if err != nil {
		return nil, false, err
	}
	return res, replayed, nil
}

// recordFeedback is RecordFeedbackEvent's transaction: lock the lead,
// answer with the first result when ev's key was used, else decide ev
// against the lead and write it with everything it changes.
func recordFeedback(ctx context.Context, tx pgx.Tx, ev *prospector.FeedbackEvent, now time.Time) (*prospector.FeedbackResult, bool, error) {
	cur, err := lockFeedbackLead(ctx, tx, ev)
	if err != nil {
		return nil, false, err
	}
	if ev.IdempotencyKey != "" {
		first, err := feedbackByKey(ctx, tx, ev, now)
		if err != nil || first != nil {
			return first, first != nil, err
		}
	}
	prev, err := scanLeadFeedback(tx.QueryRow(ctx, `SELECT `+leadFeedbackColumns+` FROM lead_feedback
		WHERE lead_id = $1`, ev.LeadID))
	if err != nil && !errors.Is(err, prospector.ErrNotFound) {
		return nil, false, err
	}
	r, next := prospector.DecideFeedback(cur, prev, ev)
	if err := insertFeedbackEvent(ctx, tx, ev, &r, now); err != nil {
		return nil, false, err
	}
	if err := updateLeadState(ctx, tx, ev.LeadID, &r, now); err != nil {
		return nil, false, err
	}
	if err := writeLeadFeedback(ctx, tx, next, now); err != nil {
		return nil, false, err
	}
	if err := recordEmailOutcome(ctx, tx, ev, now); err != nil {
		return nil, false, err
	}
	return &r, false, nil
}

// lockFeedbackLead locks ev's lead and reads its state; ErrLeadNotFound
// when the lead is not in ev's workspace.
func lockFeedbackLead(ctx context.Context, tx pgx.Tx, ev *prospector.FeedbackEvent) (prospector.LeadState, error) {
	var cur prospector.LeadState
	err := tx.QueryRow(ctx, `SELECT status, replied_at, meeting_booked_at, coalesce(reply_content, ''),
		coalesce(feedback, ''), coalesce(feedback_reason, '') FROM leads
		WHERE id = $1 AND workspace_id = $2 FOR NO KEY UPDATE`, ev.LeadID, ev.WorkspaceID).Scan(&cur.Status,
		&cur.RepliedAt, &cur.MeetingBookedAt, &cur.ReplyContent, &cur.Feedback, &cur.FeedbackReason)
	if errors.Is(err, pgx.ErrNoRows) {
		return cur, prospector.ErrLeadNotFound
	}
	if err != nil {
		return cur, fmt.Errorf("postgres: lock lead: %w", err)
	}
	cur.RepliedAt, cur.MeetingBookedAt = utcPtr(cur.RepliedAt), utcPtr(cur.MeetingBookedAt)
	return cur, nil
}

// insertFeedbackEvent stores ev, with r when it has a key: a retry of
// the key replays r.
func insertFeedbackEvent(ctx context.Context, tx pgx.Tx, ev *prospector.FeedbackEvent, r *prospector.FeedbackResult,
	now time.Time) error {
	var result []byte
	if ev.IdempotencyKey != "" {
		var err error
		if result, err = json.Marshal(r); err != nil {
			return fmt.Errorf("postgres: feedback event result: %w", err)
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO feedback_events (id, workspace_id, lead_id, event_type, source, content,
		meeting_url, occurred_at, metadata, email, mutated_lead, idempotency_key, request_hash, result, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13, $14::jsonb, $15)`,
		ev.ID, ev.WorkspaceID, ev.LeadID, ev.Type, ev.Source, ev.Content, ev.MeetingURL, ev.OccurredAt, ev.Metadata,
		ev.Facts.Email, r.Mutated, nullString(ev.IdempotencyKey), ev.RequestHash, nullJSON(result), now); err != nil {
		return fmt.Errorf("postgres: write feedback event: %w", err)
	}
	return nil
}

// updateLeadState writes the lead's state after the event, when it
// changed.
func updateLeadState(ctx context.Context, tx pgx.Tx, leadID string, r *prospector.FeedbackResult, now time.Time) error {
	if !r.Mutated {
		return nil
	}
	a := r.After
	if _, err := tx.Exec(ctx, `UPDATE leads SET status = $1, replied_at = $2, meeting_booked_at = $3,
		reply_content = $4, feedback = $5, feedback_reason = $6, updated_at = $7 WHERE id = $8`,
		a.Status, a.RepliedAt, a.MeetingBookedAt, nullString(a.ReplyContent), nullString(a.Feedback),
		nullString(a.FeedbackReason), now, leadID); err != nil {
		return fmt.Errorf("postgres: update lead %s: %w", leadID, err)
	}
	return nil
}

// writeLeadFeedback stores the lead's feedback record.
func writeLeadFeedback(ctx context.Context, tx pgx.Tx, next *prospector.LeadFeedback, now time.Time) error {
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
	return nil
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
	}
	replay, err := prospector.ReplayKey(created, hash, ev.RequestHash, now)
	if err != nil {
		return nil, err
	}
	if !replay {
		if _, err := tx.Exec(ctx, `UPDATE feedback_events SET idempotency_key = NULL WHERE id = $1`, id); err != nil {
			return nil, fmt.Errorf("postgres: release feedback idempotency key: %w", err)
		}
		return nil, nil
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
	o, ok := prospector.CountOutcome(ev)
	if !ok {
		return nil
	}
	var bounces, replies int64
	if err := tx.QueryRow(ctx, `INSERT INTO email_address_outcomes AS o (address, domain, bounces, replies, last_outcome,
			last_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (address) DO UPDATE SET bounces = o.bounces + excluded.bounces, replies = o.replies + excluded.replies,
			last_outcome = CASE WHEN excluded.last_at >= o.last_at THEN excluded.last_outcome ELSE o.last_outcome END,
			last_at = GREATEST(o.last_at, excluded.last_at), updated_at = excluded.updated_at
		RETURNING bounces, replies`, o.Address, o.Domain, o.Bounces, o.Replies, o.Outcome, o.At, now).Scan(&bounces, &replies); err != nil {
		return fmt.Errorf("postgres: write address outcome: %w", err)
	}
	if !o.CountsPatterns(bounces, replies) {
		return nil // the address was counted before
	}
	for _, p := range o.Patterns {
		if _, err := tx.Exec(ctx, `INSERT INTO email_pattern_outcomes AS o (domain, pattern, bounces, replies, updated_at)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (domain, pattern) DO UPDATE SET bounces = o.bounces + excluded.bounces,
				replies = o.replies + excluded.replies, updated_at = excluded.updated_at`,
			o.Domain, p, o.Bounces, o.Replies, now); err != nil {
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

package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

// Recording a feedback event: the event, the lead's state, its feedback
// record and the email outcomes, in one grouped write.

const (
	// The statements of RecordFeedbackEvent, prepared once on the writer.
	// qFeedbackLead reads the lead's state and its feedback record (NULLs
	// before its first event) in one statement.
	qFeedbackLead = `SELECT l.status, l.replied_at, l.meeting_booked_at, coalesce(l.reply_content, ''),
		coalesce(l.feedback, ''), coalesce(l.feedback_reason, ''), f.lead_id IS NOT NULL, coalesce(f.lead_id, ''),
		coalesce(f.workspace_id, ''), coalesce(f.title, ''), coalesce(f.company, ''), coalesce(f.signal_mask, 0),
		coalesce(f.status, ''), coalesce(f.email, ''), coalesce(f.email_domain, ''), coalesce(f.email_status, ''),
		f.email_at, coalesce(f.events, 0), coalesce(f.first_event_at, 0), coalesce(f.last_event_at, 0), f.applied_at,
		f.last_reply_at, f.last_positive_at, f.last_meeting_at, f.last_bounce_at
		FROM leads l LEFT JOIN lead_feedback f ON f.lead_id = l.id WHERE l.id = ? AND l.workspace_id = ?`
	qFeedbackKey    = `SELECT seq, request_hash, result, created_at FROM feedback_events WHERE workspace_id = ? AND idempotency_key = ?`
	qInsertFeedback = `INSERT INTO feedback_events (id, workspace_id, lead_id, event_type, source, content, meeting_url,
		occurred_at, metadata, email, mutated_lead, idempotency_key, request_hash, result, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	qFeedbackLeadState = `UPDATE leads SET status = ?, replied_at = ?, meeting_booked_at = ?, reply_content = ?,
		feedback = ?, feedback_reason = ?, updated_at = ? WHERE id = ?`
	qUpsertLeadFeedback = `INSERT INTO lead_feedback (` + leadFeedbackColumns + `, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (lead_id) DO UPDATE SET title = excluded.title, company = excluded.company,
			signal_mask = excluded.signal_mask, status = excluded.status, email = excluded.email,
			email_domain = excluded.email_domain, email_status = excluded.email_status, email_at = excluded.email_at,
			events = excluded.events, first_event_at = excluded.first_event_at, last_event_at = excluded.last_event_at,
			applied_at = excluded.applied_at, last_reply_at = excluded.last_reply_at,
			last_positive_at = excluded.last_positive_at, last_meeting_at = excluded.last_meeting_at,
			last_bounce_at = excluded.last_bounce_at, updated_at = excluded.updated_at`
	// qAddressOutcome counts the outcome and keeps the newest as the
	// address's status; the counts it returns tell a first bounce or reply.
	qAddressOutcome = `INSERT INTO email_address_outcomes (address, domain, bounces, replies, last_outcome, last_at, updated_at)
		VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
		ON CONFLICT (address) DO UPDATE SET bounces = bounces + excluded.bounces, replies = replies + excluded.replies,
			last_outcome = CASE WHEN excluded.last_at >= last_at THEN excluded.last_outcome ELSE last_outcome END,
			last_at = max(last_at, excluded.last_at), updated_at = excluded.updated_at
		RETURNING bounces, replies`
	qAddPatternOutcome = `INSERT INTO email_pattern_outcomes (domain, pattern, bounces, replies, updated_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (domain, pattern) DO UPDATE SET bounces = bounces + excluded.bounces,
			replies = replies + excluded.replies, updated_at = excluded.updated_at`
)

// feedbackQueries are the statements of RecordFeedbackEvent, prepared on
// the writer before its transaction.
var feedbackQueries = []string{qFeedbackLead, qFeedbackKey, qInsertFeedback, qFeedbackLeadState, qUpsertLeadFeedback,
	qAddressOutcome, qAddPatternOutcome}

// RecordFeedbackEvent applies ev in a write transaction shared with the
// other writes waiting at the same moment (group.go). SQLite's single
// writer applies the events of a lead one at a time, so what the
// transaction reads (the idempotency key, the lead and its feedback
// record) cannot change before it writes.
func (db *DB) RecordFeedbackEvent(ctx context.Context, ev *prospector.FeedbackEvent, now time.Time) (*prospector.FeedbackResult, bool, error) {
	if err := db.writeStmts(ctx, feedbackQueries...); err != nil {
		return nil, false, err
	}
	var (
		res      *prospector.FeedbackResult
		replayed bool
	)
	err := db.grouped(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		res, replayed, err = recordFeedback(ctx, newTxStmts(db, tx), ev, now)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	return res, replayed, nil
}

// recordFeedback is RecordFeedbackEvent's transaction: the first result
// when ev's key was used, else ev decided against its lead and written
// with everything it changes.
func recordFeedback(ctx context.Context, st *txStmts, ev *prospector.FeedbackEvent, now time.Time) (*prospector.FeedbackResult, bool, error) {
	if ev.IdempotencyKey != "" {
		first, err := feedbackByKey(ctx, st, ev, now)
		if err != nil || first != nil {
			return first, first != nil, err
		}
	}
	cur, prev, err := readFeedbackLead(ctx, st, ev)
	if err != nil {
		return nil, false, err
	}
	r, next := prospector.DecideFeedback(cur, prev, ev)
	stamp := formatTime(now)
	if err := insertFeedbackEvent(ctx, st, ev, &r, stamp); err != nil {
		return nil, false, err
	}
	if err := updateLeadState(ctx, st, ev.LeadID, &r, stamp); err != nil {
		return nil, false, err
	}
	if err := writeLeadFeedback(ctx, st, next, stamp); err != nil {
		return nil, false, err
	}
	if err := recordEmailOutcome(ctx, st, ev, stamp); err != nil {
		return nil, false, err
	}
	return &r, false, nil
}

// feedbackByKey returns the first result of ev's idempotency key, nil
// when the key is free (releasing it when it expired), or
// ErrIdempotencyMismatch.
func feedbackByKey(ctx context.Context, st *txStmts, ev *prospector.FeedbackEvent, now time.Time) (*prospector.FeedbackResult, error) {
	var (
		seq           int64
		hash, created string
		result        sql.NullString
	)
	err := st.queryRow(ctx, qFeedbackKey, ev.WorkspaceID, ev.IdempotencyKey).Scan(&seq, &hash, &result, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: feedback idempotency key: %w", err)
	}
	replay, err := prospector.ReplayKey(parseTime(created), hash, ev.RequestHash, now)
	if err != nil {
		return nil, err
	}
	if !replay {
		if _, err := st.tx.ExecContext(ctx, `UPDATE feedback_events SET idempotency_key = NULL WHERE seq = ?`, seq); err != nil {
			return nil, fmt.Errorf("sqlite: release feedback idempotency key: %w", err)
		}
		return nil, nil
	}
	var first prospector.FeedbackResult
	if err := json.Unmarshal([]byte(result.String), &first); err != nil {
		return nil, fmt.Errorf("sqlite: feedback event %d result: %w", seq, err)
	}
	return &first, nil
}

// readFeedbackLead reads the state of ev's lead and its feedback record,
// nil before its first event; ErrLeadNotFound when the lead is not in
// ev's workspace.
func readFeedbackLead(ctx context.Context, st *txStmts, ev *prospector.FeedbackEvent) (prospector.LeadState, *prospector.LeadFeedback, error) {
	var (
		cur              prospector.LeadState
		replied, meeting sql.NullString
		hasRecord        bool
	)
	prev, err := scanLeadFeedback(scanFunc(func(dest ...any) error {
		return st.queryRow(ctx, qFeedbackLead, ev.LeadID, ev.WorkspaceID).Scan(append([]any{&cur.Status,
			&replied, &meeting, &cur.ReplyContent, &cur.Feedback, &cur.FeedbackReason, &hasRecord}, dest...)...)
	}))
	if errors.Is(err, prospector.ErrNotFound) {
		return cur, nil, prospector.ErrLeadNotFound
	}
	if err != nil {
		return cur, nil, fmt.Errorf("sqlite: feedback lead: %w", err)
	}
	cur.RepliedAt, cur.MeetingBookedAt = parseTimePtr(replied), parseTimePtr(meeting)
	if !hasRecord {
		prev = nil
	}
	return cur, prev, nil
}

// insertFeedbackEvent stores ev, with r when it has a key: a retry of
// the key replays r.
func insertFeedbackEvent(ctx context.Context, st *txStmts, ev *prospector.FeedbackEvent, r *prospector.FeedbackResult,
	stamp string) error {
	var result any
	if ev.IdempotencyKey != "" {
		b, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("sqlite: feedback event result: %w", err)
		}
		result = string(b)
	}
	if _, err := st.exec(ctx, qInsertFeedback, ev.ID, ev.WorkspaceID, ev.LeadID, ev.Type, ev.Source, ev.Content,
		ev.MeetingURL, formatTime(ev.OccurredAt), ev.Metadata, ev.Facts.Email, r.Mutated, nullString(ev.IdempotencyKey),
		ev.RequestHash, result, stamp); err != nil {
		return fmt.Errorf("sqlite: write feedback event: %w", err)
	}
	return nil
}

// updateLeadState writes the lead's state after the event, when it
// changed.
func updateLeadState(ctx context.Context, st *txStmts, leadID string, r *prospector.FeedbackResult, stamp string) error {
	if !r.Mutated {
		return nil
	}
	a := r.After
	if _, err := st.exec(ctx, qFeedbackLeadState, a.Status, formatTimePtr(a.RepliedAt), formatTimePtr(a.MeetingBookedAt),
		nullString(a.ReplyContent), nullString(a.Feedback), nullString(a.FeedbackReason), stamp, leadID); err != nil {
		return fmt.Errorf("sqlite: update lead %s: %w", leadID, err)
	}
	return nil
}

// writeLeadFeedback stores the lead's feedback record.
func writeLeadFeedback(ctx context.Context, st *txStmts, next *prospector.LeadFeedback, stamp string) error {
	if _, err := st.exec(ctx, qUpsertLeadFeedback, next.LeadID, next.WorkspaceID, next.Title, next.Company,
		next.SignalMask, next.Status, next.Email, next.EmailDomain, next.EmailStatus, micros(next.EmailAt),
		next.Events, next.FirstEventAt.UnixMicro(), next.LastEventAt.UnixMicro(), micros(next.AppliedAt),
		micros(next.LastReplyAt), micros(next.LastPositiveAt), micros(next.LastMeetingAt),
		micros(next.LastBounceAt), stamp); err != nil {
		return fmt.Errorf("sqlite: write lead feedback: %w", err)
	}
	return nil
}

// recordEmailOutcome counts a bounce or a reply for its address and, the
// first time the address bounces or replies, for its patterns.
func recordEmailOutcome(ctx context.Context, st *txStmts, ev *prospector.FeedbackEvent, stamp string) error {
	o, ok := prospector.CountOutcome(ev)
	if !ok {
		return nil
	}
	var bounces, replies int64
	if err := st.queryRow(ctx, qAddressOutcome, o.Address, o.Domain, o.Bounces, o.Replies, o.Outcome, formatTime(o.At),
		stamp).Scan(&bounces, &replies); err != nil {
		return fmt.Errorf("sqlite: write address outcome: %w", err)
	}
	if !o.CountsPatterns(bounces, replies) {
		return nil // the address was counted before
	}
	for _, p := range o.Patterns {
		if _, err := st.exec(ctx, qAddPatternOutcome, o.Domain, p, o.Bounces, o.Replies, stamp); err != nil {
			return fmt.Errorf("sqlite: write pattern outcome: %w", err)
		}
	}
	return nil
}

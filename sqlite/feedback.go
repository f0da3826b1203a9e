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

const (
	feedbackEventColumns = `id, workspace_id, lead_id, event_type, source, content, meeting_url, occurred_at, metadata,
		email, idempotency_key, request_hash, created_at`
	leadFeedbackColumns = `lead_id, workspace_id, title, company, signal_mask, status, email, email_domain, email_status,
		email_at, events, first_event_at, last_event_at, applied_at, last_reply_at, last_positive_at, last_meeting_at,
		last_bounce_at`

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

// RecordFeedbackEvent applies ev in a write transaction shared with the
// other writes waiting at the same moment (group.go). SQLite's single
// writer applies the events of a lead one at a time, so what the
// transaction reads (the idempotency key, the lead and its feedback
// record) cannot change before it writes.
func (db *DB) RecordFeedbackEvent(ctx context.Context, ev *prospector.FeedbackEvent, now time.Time) (*prospector.FeedbackResult, bool, error) {
	if err := db.writeStmts(ctx, qFeedbackLead, qFeedbackKey, qInsertFeedback, qFeedbackLeadState,
		qUpsertLeadFeedback, qAddressOutcome, qAddPatternOutcome); err != nil {
		return nil, false, err
	}
	var (
		res      *prospector.FeedbackResult
		replayed bool
	)
	err := db.grouped(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, replayed = nil, false
		st := func(q string) *sql.Stmt { s, _ := txStmt(ctx, db, tx, q); return s } // prepared above: cannot fail
		if ev.IdempotencyKey != "" {
			var (
				seq           int64
				hash, created string
				result        sql.NullString
			)
			err := st(qFeedbackKey).QueryRowContext(ctx, ev.WorkspaceID, ev.IdempotencyKey).Scan(&seq, &hash, &result, &created)
			switch {
			case errors.Is(err, sql.ErrNoRows):
			case err != nil:
				return fmt.Errorf("sqlite: feedback idempotency key: %w", err)
			case now.Sub(parseTime(created)) < prospector.IdempotencyWindow:
				if hash != ev.RequestHash {
					return prospector.ErrIdempotencyMismatch
				}
				var first prospector.FeedbackResult
				if err := json.Unmarshal([]byte(result.String), &first); err != nil {
					return fmt.Errorf("sqlite: feedback event %d result: %w", seq, err)
				}
				res, replayed = &first, true
				return nil
			default: // expired: the key is free again
				if _, err := tx.ExecContext(ctx, `UPDATE feedback_events SET idempotency_key = NULL WHERE seq = ?`, seq); err != nil {
					return fmt.Errorf("sqlite: release feedback idempotency key: %w", err)
				}
			}
		}
		var (
			cur              prospector.LeadState
			replied, meeting sql.NullString
			hasRecord        bool
		)
		prev, err := scanLeadFeedback(scanFunc(func(dest ...any) error {
			return st(qFeedbackLead).QueryRowContext(ctx, ev.LeadID, ev.WorkspaceID).Scan(append([]any{&cur.Status,
				&replied, &meeting, &cur.ReplyContent, &cur.Feedback, &cur.FeedbackReason, &hasRecord}, dest...)...)
		}))
		if errors.Is(err, prospector.ErrNotFound) {
			return prospector.ErrLeadNotFound
		}
		if err != nil {
			return fmt.Errorf("sqlite: feedback lead: %w", err)
		}
		cur.RepliedAt, cur.MeetingBookedAt = parseTimePtr(replied), parseTimePtr(meeting)
		if !hasRecord {
			prev = nil
		}
		r, next := prospector.DecideFeedback(cur, prev, ev)
		stamp := formatTime(now)
		var result any
		if ev.IdempotencyKey != "" {
			b, _ := json.Marshal(r)
			result = string(b)
		}
		if _, err := st(qInsertFeedback).ExecContext(ctx, ev.ID, ev.WorkspaceID, ev.LeadID, ev.Type, ev.Source, ev.Content,
			ev.MeetingURL, formatTime(ev.OccurredAt), ev.Metadata, ev.Facts.Email, r.Mutated, nullString(ev.IdempotencyKey),
			ev.RequestHash, result, stamp); err != nil {
			return fmt.Errorf("sqlite: write feedback event: %w", err)
		}
		if r.Mutated {
			a := r.After
			if _, err := st(qFeedbackLeadState).ExecContext(ctx, a.Status, formatTimePtr(a.RepliedAt),
				formatTimePtr(a.MeetingBookedAt), nullString(a.ReplyContent), nullString(a.Feedback),
				nullString(a.FeedbackReason), stamp, ev.LeadID); err != nil {
				return fmt.Errorf("sqlite: update lead %s: %w", ev.LeadID, err)
			}
		}
		if _, err := st(qUpsertLeadFeedback).ExecContext(ctx, next.LeadID, next.WorkspaceID, next.Title, next.Company,
			next.SignalMask, next.Status, next.Email, next.EmailDomain, next.EmailStatus, micros(next.EmailAt),
			next.Events, next.FirstEventAt.UnixMicro(), next.LastEventAt.UnixMicro(), micros(next.AppliedAt),
			micros(next.LastReplyAt), micros(next.LastPositiveAt), micros(next.LastMeetingAt),
			micros(next.LastBounceAt), stamp); err != nil {
			return fmt.Errorf("sqlite: write lead feedback: %w", err)
		}
		if err := db.recordEmailOutcome(ctx, st, ev, stamp); err != nil {
			return err
		}
		res = &r
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return res, replayed, nil
}

// recordEmailOutcome counts a bounce or a reply for its address and, the
// first time the address bounces or replies, for its patterns.
func (db *DB) recordEmailOutcome(ctx context.Context, st func(string) *sql.Stmt, ev *prospector.FeedbackEvent, stamp string) error {
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
	if err := st(qAddressOutcome).QueryRowContext(ctx, addr, domain, b, r, outcome, formatTime(ev.OccurredAt),
		stamp).Scan(&bounces, &replies); err != nil {
		return fmt.Errorf("sqlite: write address outcome: %w", err)
	}
	if b == 1 && bounces != 1 || r == 1 && replies != 1 {
		return nil // the address was counted before
	}
	for _, p := range prospector.OutcomePatterns(ev.Facts) {
		if _, err := st(qAddPatternOutcome).ExecContext(ctx, domain, p, b, r, stamp); err != nil {
			return fmt.Errorf("sqlite: write pattern outcome: %w", err)
		}
	}
	return nil
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

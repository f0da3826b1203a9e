package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

// querier is what both *sql.DB and *sql.Tx offer for reads.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// loadSuppressions reads the list as a set; an empty list costs one
// query and no secret.
func loadSuppressions(ctx context.Context, q querier) (*prospector.SuppressionSet, error) {
	rows, err := q.QueryContext(ctx, `SELECT hash FROM suppressions`)
	hashes, err := collect(rows, err, func(r rowScanner) (string, error) {
		var h string
		return h, r.Scan(&h)
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: suppressions: %w", err)
	}
	if len(hashes) == 0 {
		return nil, nil
	}
	var secret string
	err = q.QueryRowContext(ctx, `SELECT value FROM settings WHERE name = ?`, prospector.SettingSuppressionKey).Scan(&secret)
	if err != nil {
		return nil, fmt.Errorf("sqlite: suppression secret: %w", err)
	}
	return prospector.NewSuppressionSet(secret, hashes), nil
}

// SuppressionSet returns the suppression list as a set.
func (db *DB) SuppressionSet(ctx context.Context) (*prospector.SuppressionSet, error) {
	return loadSuppressions(ctx, db.read)
}

// ListSuppressions returns every entry, newest first.
func (db *DB) ListSuppressions(ctx context.Context) ([]*prospector.Suppression, error) {
	out, err := queryList(ctx, db.read, `SELECT hash, kind, reason, created_at FROM suppressions ORDER BY created_at DESC, hash`,
		func(r rowScanner) (*prospector.Suppression, error) {
			var s prospector.Suppression
			var kind, created string
			if err := r.Scan(&s.Hash, &kind, &s.Reason, &created); err != nil {
				return nil, err
			}
			s.Kind, s.CreatedAt = prospector.SubjectKind(kind), parseTime(created)
			return &s, nil
		})
	if err != nil {
		return nil, fmt.Errorf("sqlite: list suppressions: %w", err)
	}
	return out, nil
}

// Unsuppress removes one entry, matched by its hash or a unique prefix.
func (db *DB) Unsuppress(ctx context.Context, hash string, a *prospector.AuditEvent) error {
	if len(hash) < 8 {
		return prospector.Errorf(prospector.EINVALID, "unsuppress: give at least 8 characters of the entry's id")
	}
	return db.tx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT hash FROM suppressions WHERE substr(hash, 1, ?) = ?`, len(hash), hash)
		found, err := collect(rows, err, func(r rowScanner) (string, error) {
			var h string
			return h, r.Scan(&h)
		})
		if err != nil {
			return fmt.Errorf("sqlite: unsuppress: %w", err)
		}
		switch len(found) {
		case 0:
			return fmt.Errorf("sqlite: suppression %s: %w", hash, prospector.ErrNotFound)
		case 1:
		default:
			return prospector.Errorf(prospector.EINVALID, "unsuppress: %q matches %d entries; give more of the id", hash, len(found))
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM suppressions WHERE hash = ?`, found[0]); err != nil {
			return fmt.Errorf("sqlite: unsuppress: %w", err)
		}
		if a != nil {
			a.Target = found[0][:12]
			return appendAudit(ctx, tx, a)
		}
		return nil
	})
}

// appendAudit inserts e in tx.
func appendAudit(ctx context.Context, tx *sql.Tx, e *prospector.AuditEvent) error {
	if e.CreatedAt.IsZero() {
		e.CreatedAt = time.Now()
	}
	if e.Detail == "" {
		e.Detail = "{}"
	}
	err := tx.QueryRowContext(ctx, `INSERT INTO audit_events (workspace_id, action, actor, target, detail, created_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, e.WorkspaceID, e.Action, e.Actor, e.Target, e.Detail,
		formatTime(e.CreatedAt)).Scan(&e.ID)
	if err != nil {
		return fmt.Errorf("sqlite: append audit event: %w", err)
	}
	return nil
}

// AppendAudit records one audit event.
func (db *DB) AppendAudit(ctx context.Context, e *prospector.AuditEvent) error {
	return db.tx(ctx, func(tx *sql.Tx) error { return appendAudit(ctx, tx, e) })
}

// AuditEvents returns a trail from since on, oldest first.
func (db *DB) AuditEvents(ctx context.Context, workspaceID string, since time.Time, limit int) ([]*prospector.AuditEvent, error) {
	out, err := queryList(ctx, db.read, `SELECT id, workspace_id, action, actor, target, detail, created_at
		FROM audit_events WHERE workspace_id = ? AND created_at >= ? ORDER BY created_at, id LIMIT ?`,
		func(r rowScanner) (*prospector.AuditEvent, error) {
			var e prospector.AuditEvent
			var created string
			if err := r.Scan(&e.ID, &e.WorkspaceID, &e.Action, &e.Actor, &e.Target, &e.Detail, &created); err != nil {
				return nil, err
			}
			e.CreatedAt = parseTime(created)
			return &e, nil
		}, workspaceID, formatTime(since), limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: audit events: %w", err)
	}
	return out, nil
}

// PurgeExpired deletes, per kind, up to limit rows past their window.
func (db *DB) PurgeExpired(ctx context.Context, r prospector.Retention, now time.Time, limit int) (prospector.Purged, error) {
	var p prospector.Purged
	for _, k := range []struct {
		window time.Duration
		count  *int64
		query  string
		// expiry: the rows carry their own end (expires_at), deleted
		// once it is before now whatever the windows.
		expiry bool
	}{
		{r.EmailLookups, &p.EmailLookups, `DELETE FROM email_lookups WHERE seq IN
			(SELECT seq FROM email_lookups WHERE created_at < ? LIMIT ?)`, false},
		{r.FeedbackEvents, &p.FeedbackEvents, `DELETE FROM feedback_events WHERE seq IN
			(SELECT seq FROM feedback_events WHERE created_at < ? LIMIT ?)`, false},
		{r.Deliveries, &p.Deliveries, `DELETE FROM deliveries WHERE id IN
			(SELECT id FROM deliveries WHERE status <> 'pending' AND updated_at < ? LIMIT ?)`, false},
		{r.ClosedOpenings, &p.ClosedOpenings, `DELETE FROM job_openings WHERE id IN
			(SELECT id FROM job_openings WHERE closed_at IS NOT NULL AND closed_at < ? LIMIT ?)`, false},
		{0, &p.ConsoleSessions, `DELETE FROM console_sessions WHERE id_hash IN
			(SELECT id_hash FROM console_sessions WHERE expires_at < ? LIMIT ?)`, true},
	} {
		if k.window <= 0 && !k.expiry {
			continue
		}
		err := db.tx(ctx, func(tx *sql.Tx) error {
			n, err := rowsAffected(tx.ExecContext(ctx, k.query, formatTime(now.Add(-k.window)), limit))
			*k.count = n
			return err
		})
		if err != nil {
			return p, fmt.Errorf("sqlite: purge expired: %w", err)
		}
	}
	return p, nil
}

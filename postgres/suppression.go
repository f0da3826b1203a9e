package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// querier is what the pool and a transaction both offer for reads.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// collectRows scans every row of a query.
func collectRows[T any](rows pgx.Rows, err error, scan func(pgx.Row) (T, error)) ([]T, error) {
	if err != nil {
		return nil, fmt.Errorf("postgres: query: %w", err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: query: %w", err)
	}
	return out, nil
}

func scanString(r pgx.Row) (string, error) {
	var s string
	return s, r.Scan(&s)
}

// loadSuppressions reads the list as a set; an empty list costs one
// query and no secret.
func loadSuppressions(ctx context.Context, q querier) (*prospector.SuppressionSet, error) {
	rows, err := q.Query(ctx, `SELECT hash FROM suppressions`)
	hashes, err := collectRows(rows, err, scanString)
	if err != nil {
		return nil, fmt.Errorf("postgres: suppressions: %w", err)
	}
	if len(hashes) == 0 {
		return nil, nil
	}
	var secret string
	err = q.QueryRow(ctx, `SELECT value FROM settings WHERE name = $1`, prospector.SettingSuppressionKey).Scan(&secret)
	if err != nil {
		return nil, fmt.Errorf("postgres: suppression secret: %w", err)
	}
	return prospector.NewSuppressionSet(secret, hashes), nil
}

// SuppressionSet returns the suppression list as a set.
func (db *DB) SuppressionSet(ctx context.Context) (*prospector.SuppressionSet, error) {
	return loadSuppressions(ctx, db.pool)
}

// ListSuppressions returns every entry, newest first.
func (db *DB) ListSuppressions(ctx context.Context) ([]*prospector.Suppression, error) {
	out, err := queryList(ctx, db, `SELECT hash, kind, reason, created_at FROM suppressions ORDER BY created_at DESC, hash`,
		func(r pgx.Row) (*prospector.Suppression, error) {
			var s prospector.Suppression
			var kind string
			if err := r.Scan(&s.Hash, &kind, &s.Reason, &s.CreatedAt); err != nil {
				return nil, err
			}
			s.Kind = prospector.SubjectKind(kind)
			return &s, nil
		})
	if err != nil {
		return nil, fmt.Errorf("postgres: list suppressions: %w", err)
	}
	return out, nil
}

// Unsuppress removes one entry, matched by its hash or a unique prefix.
func (db *DB) Unsuppress(ctx context.Context, hash string, a *prospector.AuditEvent) error {
	if len(hash) < 8 {
		return prospector.Errorf(prospector.EINVALID, "unsuppress: give at least 8 characters of the entry's id")
	}
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT hash FROM suppressions WHERE left(hash, $1) = $2 FOR UPDATE`, len(hash), hash)
		found, err := collectRows(rows, err, scanString)
		if err != nil {
			return fmt.Errorf("postgres: unsuppress: %w", err)
		}
		switch len(found) {
		case 0:
			return fmt.Errorf("postgres: suppression %s: %w", hash, prospector.ErrNotFound)
		case 1:
		default:
			return prospector.Errorf(prospector.EINVALID, "unsuppress: %q matches %d entries; give more of the id", hash, len(found))
		}
		if _, err := tx.Exec(ctx, `DELETE FROM suppressions WHERE hash = $1`, found[0]); err != nil {
			return fmt.Errorf("postgres: unsuppress: %w", err)
		}
		if a != nil {
			a.Target = found[0][:12]
			return appendAudit(ctx, tx, a)
		}
		return nil
	})
}

// appendAudit inserts e in tx.
func appendAudit(ctx context.Context, tx pgx.Tx, e *prospector.AuditEvent) error {
	if e.CreatedAt.IsZero() {
		e.CreatedAt = time.Now()
	}
	e.CreatedAt = e.CreatedAt.UTC().Truncate(time.Microsecond)
	if e.Detail == "" {
		e.Detail = "{}"
	}
	err := tx.QueryRow(ctx, `INSERT INTO audit_events (workspace_id, action, actor, target, detail, created_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, e.WorkspaceID, e.Action, e.Actor, e.Target, e.Detail,
		e.CreatedAt).Scan(&e.ID)
	if err != nil {
		return fmt.Errorf("postgres: append audit event: %w", err)
	}
	return nil
}

// AppendAudit records one audit event.
func (db *DB) AppendAudit(ctx context.Context, e *prospector.AuditEvent) error {
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error { return appendAudit(ctx, tx, e) })
}

// AuditEvents returns a trail from since on, oldest first.
func (db *DB) AuditEvents(ctx context.Context, workspaceID string, since time.Time, limit int) ([]*prospector.AuditEvent, error) {
	out, err := queryList(ctx, db, `SELECT id, workspace_id, action, actor, target, detail, created_at
		FROM audit_events WHERE workspace_id = $1 AND created_at >= $2 ORDER BY created_at, id LIMIT $3`,
		func(r pgx.Row) (*prospector.AuditEvent, error) {
			var e prospector.AuditEvent
			if err := r.Scan(&e.ID, &e.WorkspaceID, &e.Action, &e.Actor, &e.Target, &e.Detail, &e.CreatedAt); err != nil {
				return nil, err
			}
			e.CreatedAt = e.CreatedAt.UTC()
			return &e, nil
		}, workspaceID, since, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: audit events: %w", err)
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
		{r.EmailLookups, &p.EmailLookups, `DELETE FROM email_lookups WHERE id IN
			(SELECT id FROM email_lookups WHERE created_at < $1 LIMIT $2)`, false},
		{r.FeedbackEvents, &p.FeedbackEvents, `DELETE FROM feedback_events WHERE seq IN
			(SELECT seq FROM feedback_events WHERE created_at < $1 LIMIT $2)`, false},
		{r.Deliveries, &p.Deliveries, `DELETE FROM deliveries WHERE id IN
			(SELECT id FROM deliveries WHERE status <> 'pending' AND updated_at < $1 LIMIT $2)`, false},
		{r.ClosedOpenings, &p.ClosedOpenings, `DELETE FROM job_openings WHERE id IN
			(SELECT id FROM job_openings WHERE closed_at IS NOT NULL AND closed_at < $1 LIMIT $2)`, false},
		{0, &p.ConsoleSessions, `DELETE FROM console_sessions WHERE id_hash IN
			(SELECT id_hash FROM console_sessions WHERE expires_at < $1 LIMIT $2)`, true},
	} {
		if k.window <= 0 && !k.expiry {
			continue
		}
		tag, err := db.pool.Exec(ctx, k.query, now.Add(-k.window), limit)
		if err != nil {
			return p, fmt.Errorf("postgres: purge expired: %w", err)
		}
		*k.count = tag.RowsAffected()
	}
	return p, nil
}

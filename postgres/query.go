package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// queryList runs a query whose rows scan with scan.
func queryList[T any](ctx context.Context, db *DB, query string, scan func(pgx.Row) (T, error), args ...any) ([]T, error) {
	rows, err := db.pool.Query(ctx, query, args...)
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

// queryByIDs runs query, which selects the rows whose id is in $1; the
// result is empty, not nil, when none is found.
func queryByIDs[T any](ctx context.Context, db *DB, query string, scan func(pgx.Row) (T, error), ids []int64) ([]T, error) {
	if len(ids) == 0 {
		return []T{}, nil
	}
	out, err := queryList(ctx, db, query, scan, ids)
	if out == nil && err == nil {
		out = []T{}
	}
	return out, err
}

func (db *DB) count(ctx context.Context, table string) (int64, error) {
	var n int64
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM `+table).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: count %s: %w", table, err)
	}
	return n, nil
}

// idsByKey runs query, which selects (key, id) pairs for the keys in $1,
// into a map.
func (db *DB) idsByKey(ctx context.Context, query, table string, keys []string) (map[string]int64, error) {
	out := make(map[string]int64, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	rows, err := db.pool.Query(ctx, query, keys)
	if err != nil {
		return nil, fmt.Errorf("postgres: %s ids: %w", table, err)
	}
	var (
		k  string
		id int64
	)
	if _, err := pgx.ForEachRow(rows, []any{&k, &id}, func() error { out[k] = id; return nil }); err != nil {
		return nil, fmt.Errorf("postgres: %s ids: %w", table, err)
	}
	return out, nil
}

// sqlLimit maps a negative limit, which SQLite reads as no limit and
// PostgreSQL rejects, to NULL (LIMIT ALL).
func sqlLimit(n int) *int {
	if n < 0 {
		return nil
	}
	return &n
}

// sqlOffset maps a negative offset, which SQLite reads as none and
// PostgreSQL rejects, to 0.
func sqlOffset(n int) int { return max(n, 0) }

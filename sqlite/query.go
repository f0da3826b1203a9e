package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
)

// queryList runs a query whose rows scan with scan.
func queryList[T any](ctx context.Context, q *sql.DB, query string, scan func(rowScanner) (T, error), args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: query: %w", err)
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
		return nil, fmt.Errorf("sqlite: query: %w", err)
	}
	return out, nil
}

// queryByIDs fetches rows of table by id, 500 ids per statement.
func queryByIDs[T any](ctx context.Context, q *sql.DB, table, columns string, ids []int64, scan func(rowScanner) (T, error)) ([]T, error) {
	out := make([]T, 0, len(ids))
	for start := 0; start < len(ids); start += 500 {
		chunk := ids[start:min(start+500, len(ids))]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		part, err := queryList(ctx, q, `SELECT `+columns+` FROM `+table+` WHERE id IN (`+placeholders(len(chunk))+`)`, scan, args...)
		if err != nil {
			return nil, err
		}
		out = append(out, part...)
	}
	return out, nil
}

func (db *DB) count(ctx context.Context, table string) (int64, error) {
	var n int64
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM `+table).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: count %s: %w", table, err)
	}
	return n, nil
}

// idsByKey maps the stored values of a key column to their row ids.
func (db *DB) idsByKey(ctx context.Context, table, column string, keys []string) (map[string]int64, error) {
	out := make(map[string]int64, len(keys))
	for start := 0; start < len(keys); start += 500 {
		chunk := keys[start:min(start+500, len(keys))]
		args := make([]any, len(chunk))
		for i, k := range chunk {
			args[i] = k
		}
		rows, err := db.read.QueryContext(ctx, `SELECT `+column+`, min(id) FROM `+table+` WHERE `+column+
			` IN (`+placeholders(len(chunk))+`) GROUP BY `+column, args...)
		if err != nil {
			return nil, fmt.Errorf("sqlite: %s ids: %w", table, err)
		}
		for rows.Next() {
			var k string
			var id int64
			if err := rows.Scan(&k, &id); err != nil {
				rows.Close()
				return nil, fmt.Errorf("sqlite: %s ids: %w", table, err)
			}
			out[k] = id
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("sqlite: %s ids: %w", table, err)
		}
	}
	return out, nil
}

// jsonList encodes a string list, [] for nil.
func jsonList(l []string) string {
	if len(l) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(l)
	return string(b)
}

func nullFloat(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func float64Ptr(n sql.NullFloat64) *float64 {
	if !n.Valid {
		return nil
	}
	v := n.Float64
	return &v
}

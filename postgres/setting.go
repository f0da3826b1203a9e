package postgres

import (
	"context"
	"fmt"
)

// Setting returns a setting, creating it with value when absent.
func (db *DB) Setting(ctx context.Context, name, value string) (string, error) {
	var v string
	err := db.pool.QueryRow(ctx, `WITH ins AS (
			INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING value)
		SELECT value FROM ins UNION ALL SELECT value FROM settings WHERE name = $1 LIMIT 1`, name, value).Scan(&v)
	if err != nil {
		return "", fmt.Errorf("postgres: setting %s: %w", name, err)
	}
	return v, nil
}

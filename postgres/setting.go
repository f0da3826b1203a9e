package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// Setting returns a setting, creating it with value when absent. When
// another transaction inserts the name concurrently, the INSERT waits for
// it and does nothing, but the statement's snapshot predates that commit
// and sees no row: the next attempt, with a new snapshot, does.
func (db *DB) Setting(ctx context.Context, name, value string) (string, error) {
	for attempt := 0; ; attempt++ {
		var v string
		err := db.pool.QueryRow(ctx, `WITH ins AS (
				INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING value)
			SELECT value FROM ins UNION ALL SELECT value FROM settings WHERE name = $1 LIMIT 1`, name, value).Scan(&v)
		if errors.Is(err, pgx.ErrNoRows) && attempt < 3 {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("postgres: setting %s: %w", name, err)
		}
		return v, nil
	}
}

// LookupSetting returns a setting; ErrNotFound when it has none.
func (db *DB) LookupSetting(ctx context.Context, name string) (string, error) {
	var v string
	err := db.pool.QueryRow(ctx, `SELECT value FROM settings WHERE name = $1`, name).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("postgres: setting %s: %w", name, prospector.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("postgres: setting %s: %w", name, err)
	}
	return v, nil
}

// SetSetting stores a setting, replacing its value.
func (db *DB) SetSetting(ctx context.Context, name, value string) error {
	if _, err := db.pool.Exec(ctx, `INSERT INTO settings (name, value) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value`, name, value); err != nil {
		return fmt.Errorf("postgres: set setting %s: %w", name, err)
	}
	return nil
}

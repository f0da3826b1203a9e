package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/prospectorhq/prospector"
)

// Setting returns a setting, creating it with value when absent.
func (db *DB) Setting(ctx context.Context, name, value string) (string, error) {
	if _, err := db.write.ExecContext(ctx, `INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, name, value); err != nil {
		return "", fmt.Errorf("sqlite: setting %s: %w", name, err)
	}
	var v string
	if err := db.write.QueryRowContext(ctx, `SELECT value FROM settings WHERE name = ?`, name).Scan(&v); err != nil {
		return "", fmt.Errorf("sqlite: setting %s: %w", name, err)
	}
	return v, nil
}

// LookupSetting returns a setting; ErrNotFound when it has none.
func (db *DB) LookupSetting(ctx context.Context, name string) (string, error) {
	var v string
	err := db.row(ctx, `SELECT value FROM settings WHERE name = ?`, name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("sqlite: setting %s: %w", name, prospector.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("sqlite: setting %s: %w", name, err)
	}
	return v, nil
}

// SetSetting stores a setting, replacing its value.
func (db *DB) SetSetting(ctx context.Context, name, value string) error {
	if _, err := db.write.ExecContext(ctx, `INSERT INTO settings (name, value) VALUES (?, ?)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value`, name, value); err != nil {
		return fmt.Errorf("sqlite: set setting %s: %w", name, err)
	}
	return nil
}

package sqlite

import (
	"context"
	"fmt"
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

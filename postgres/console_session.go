package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// CreateConsoleSession inserts s, filling CreatedAt.
func (db *DB) CreateConsoleSession(ctx context.Context, s *prospector.ConsoleSession) error {
	s.CreatedAt = nowUTC()
	_, err := db.pool.Exec(ctx, `INSERT INTO console_sessions (id_hash, key_id, key_hash, workspace_id, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, s.IDHash, s.KeyID, s.KeyHash, s.WorkspaceID, s.CreatedAt, s.ExpiresAt)
	if err != nil {
		if isPgError(err, codeForeignKeyViolation, "") {
			return fmt.Errorf("postgres: create console session: key %s: %w", s.KeyID, prospector.ErrNotFound)
		}
		return fmt.Errorf("postgres: create console session: %w", err)
	}
	return nil
}

// ConsoleSession returns a session by its id's hash.
func (db *DB) ConsoleSession(ctx context.Context, idHash string) (*prospector.ConsoleSession, error) {
	var s prospector.ConsoleSession
	err := db.pool.QueryRow(ctx, `SELECT id_hash, key_id, key_hash, workspace_id, created_at, expires_at, signed_out_at
		FROM console_sessions WHERE id_hash = $1`, idHash).
		Scan(&s.IDHash, &s.KeyID, &s.KeyHash, &s.WorkspaceID, &s.CreatedAt, &s.ExpiresAt, &s.SignedOutAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: console session: %w", err)
	}
	s.CreatedAt, s.ExpiresAt, s.SignedOutAt = s.CreatedAt.UTC(), s.ExpiresAt.UTC(), utcPtr(s.SignedOutAt)
	return &s, nil
}

// SignOutConsoleSession marks a session signed out, once.
func (db *DB) SignOutConsoleSession(ctx context.Context, idHash string, at time.Time) error {
	if _, err := db.pool.Exec(ctx, `UPDATE console_sessions SET signed_out_at = $1
		WHERE id_hash = $2 AND signed_out_at IS NULL`, at.UTC(), idHash); err != nil {
		return fmt.Errorf("postgres: sign out console session: %w", err)
	}
	return nil
}

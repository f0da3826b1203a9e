package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

// CreateConsoleSession inserts s, filling CreatedAt.
func (db *DB) CreateConsoleSession(ctx context.Context, s *prospector.ConsoleSession) error {
	s.CreatedAt = time.Now().UTC()
	_, err := db.write.ExecContext(ctx, `INSERT INTO console_sessions (id_hash, key_id, key_hash, workspace_id, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?)`, s.IDHash, s.KeyID, s.KeyHash, s.WorkspaceID, formatTime(s.CreatedAt), formatTime(s.ExpiresAt))
	if err != nil {
		if isForeignKeyError(err) {
			return fmt.Errorf("sqlite: create console session: key %s: %w", s.KeyID, prospector.ErrNotFound)
		}
		return fmt.Errorf("sqlite: create console session: %w", err)
	}
	return nil
}

// ConsoleSession returns a session by its id's hash.
func (db *DB) ConsoleSession(ctx context.Context, idHash string) (*prospector.ConsoleSession, error) {
	var (
		s                prospector.ConsoleSession
		created, expires string
		signedOut        sql.NullString
	)
	err := db.read.QueryRowContext(ctx, `SELECT id_hash, key_id, key_hash, workspace_id, created_at, expires_at, signed_out_at
		FROM console_sessions WHERE id_hash = ?`, idHash).
		Scan(&s.IDHash, &s.KeyID, &s.KeyHash, &s.WorkspaceID, &created, &expires, &signedOut)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: console session: %w", err)
	}
	s.CreatedAt, s.ExpiresAt, s.SignedOutAt = parseTime(created), parseTime(expires), parseTimePtr(signedOut)
	return &s, nil
}

// SignOutConsoleSession marks a session signed out, once.
func (db *DB) SignOutConsoleSession(ctx context.Context, idHash string, at time.Time) error {
	if _, err := db.write.ExecContext(ctx, `UPDATE console_sessions SET signed_out_at = ?
		WHERE id_hash = ? AND signed_out_at IS NULL`, formatTime(at), idHash); err != nil {
		return fmt.Errorf("sqlite: sign out console session: %w", err)
	}
	return nil
}

package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

const keyColumns = `k.id, k.workspace_id, k.tier, k.role, k.key_hash, k.prefix, k.created_at, k.expires_at, k.revoked_at`

// CreateAPIKey inserts k; ErrNotFound when its workspace does not exist.
func (db *DB) CreateAPIKey(ctx context.Context, k *prospector.APIKey) error {
	k.CreatedAt = time.Now().UTC()
	err := db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO api_keys (id, workspace_id, tier, role, key_hash, prefix, created_at, expires_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			k.ID, k.WorkspaceID, k.Tier, k.Role, k.Hash, k.Prefix, formatTime(k.CreatedAt), formatTimePtr(k.ExpiresAt))
		if err != nil {
			return err
		}
		return appendAudit(ctx, tx, prospector.KeyAudit(ctx, prospector.AuditKeyCreate, k.WorkspaceID, k.ID, k.Prefix, k.CreatedAt))
	})
	if err != nil {
		if isForeignKeyError(err) {
			return fmt.Errorf("sqlite: create key: workspace %s: %w", k.WorkspaceID, prospector.ErrNotFound)
		}
		return fmt.Errorf("sqlite: create key: %w", err)
	}
	return nil
}

// PrincipalByKeyHash resolves a key hash to the key and its workspace.
func (db *DB) PrincipalByKeyHash(ctx context.Context, hash string) (*prospector.Principal, error) {
	row := db.read.QueryRowContext(ctx, `SELECT `+keyColumns+`, `+prefixed("w.", workspaceColumns)+`
		FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id WHERE k.key_hash = ?`, hash)
	var (
		p                prospector.Principal
		created          string
		expires, revoked sql.NullString
		wsFields         = workspaceScanTargets()
	)
	err := row.Scan(append([]any{&p.Key.ID, &p.Key.WorkspaceID, &p.Key.Tier, &p.Key.Role, &p.Key.Hash, &p.Key.Prefix,
		&created, &expires, &revoked}, wsFields.targets()...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: key by hash: %w", err)
	}
	p.Key.CreatedAt, p.Key.ExpiresAt, p.Key.RevokedAt = parseTime(created), parseTimePtr(expires), parseTimePtr(revoked)
	p.Workspace = *wsFields.workspace()
	return &p, nil
}

// ListAPIKeys returns a workspace's keys, newest first.
func (db *DB) ListAPIKeys(ctx context.Context, workspaceID string) ([]*prospector.APIKey, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+keyColumns+` FROM api_keys k
		WHERE k.workspace_id = ? ORDER BY k.created_at DESC, k.id`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list keys: %w", err)
	}
	defer rows.Close()
	var keys []*prospector.APIKey
	for rows.Next() {
		var (
			k                prospector.APIKey
			created          string
			expires, revoked sql.NullString
		)
		if err := rows.Scan(&k.ID, &k.WorkspaceID, &k.Tier, &k.Role, &k.Hash, &k.Prefix, &created, &expires, &revoked); err != nil {
			return nil, fmt.Errorf("sqlite: scan key: %w", err)
		}
		k.CreatedAt, k.ExpiresAt, k.RevokedAt = parseTime(created), parseTimePtr(expires), parseTimePtr(revoked)
		keys = append(keys, &k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: list keys: %w", err)
	}
	return keys, nil
}

// RevokeAPIKey marks the key revoked, keeping an earlier revocation time.
func (db *DB) RevokeAPIKey(ctx context.Context, id string, now time.Time) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		var workspaceID, prefix string
		var revoked sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT workspace_id, prefix, revoked_at FROM api_keys WHERE id = ?`, id).
			Scan(&workspaceID, &prefix, &revoked)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: revoke key %s: %w", id, prospector.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("sqlite: revoke key: %w", err)
		}
		if revoked.Valid {
			return nil // revoked before: nothing changes, nothing to audit
		}
		if _, err := tx.ExecContext(ctx, `UPDATE api_keys SET revoked_at = ? WHERE id = ?`, formatTime(now), id); err != nil {
			return fmt.Errorf("sqlite: revoke key: %w", err)
		}
		return appendAudit(ctx, tx, prospector.KeyAudit(ctx, prospector.AuditKeyRevoke, workspaceID, id, prefix, now))
	})
}

package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

const keyColumns = `k.id, k.workspace_id, k.tier, k.role, k.key_hash, k.prefix, k.created_at, k.expires_at, k.revoked_at`

// keyTargets are the scan targets of keyColumns.
func keyTargets(k *prospector.APIKey) []any {
	return []any{&k.ID, &k.WorkspaceID, &k.Tier, &k.Role, &k.Hash, &k.Prefix, &k.CreatedAt, &k.ExpiresAt, &k.RevokedAt}
}

func keyToUTC(k *prospector.APIKey) {
	k.CreatedAt, k.ExpiresAt, k.RevokedAt = k.CreatedAt.UTC(), utcPtr(k.ExpiresAt), utcPtr(k.RevokedAt)
}

// CreateAPIKey inserts k; ErrNotFound when its workspace does not exist.
func (db *DB) CreateAPIKey(ctx context.Context, k *prospector.APIKey) error {
	k.CreatedAt = nowUTC()
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO api_keys (id, workspace_id, tier, role, key_hash, prefix, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			k.ID, k.WorkspaceID, k.Tier, k.Role, k.Hash, k.Prefix, k.CreatedAt, k.ExpiresAt)
		if err != nil {
			return err
		}
		return appendAudit(ctx, tx, prospector.KeyAudit(ctx, prospector.AuditKeyCreate, k.WorkspaceID, k.ID, k.Prefix, k.CreatedAt))
	})
	if err != nil {
		if isPgError(err, codeForeignKeyViolation, "") {
			return fmt.Errorf("postgres: create key: workspace %s: %w", k.WorkspaceID, prospector.ErrNotFound)
		}
		return fmt.Errorf("postgres: create key: %w", err)
	}
	return nil
}

// PrincipalByKeyHash resolves a key hash to the key and its workspace.
func (db *DB) PrincipalByKeyHash(ctx context.Context, hash string) (*prospector.Principal, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+keyColumns+`, `+prefixed("w.", workspaceColumns)+`
		FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id WHERE k.key_hash = $1`, hash)
	var (
		p        prospector.Principal
		wsFields = workspaceScanTargets()
	)
	err := row.Scan(append(keyTargets(&p.Key), wsFields.targets()...)...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: key by hash: %w", err)
	}
	keyToUTC(&p.Key)
	p.Workspace = *wsFields.workspace()
	return &p, nil
}

// ListAPIKeys returns a workspace's keys, newest first.
func (db *DB) ListAPIKeys(ctx context.Context, workspaceID string) ([]*prospector.APIKey, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+keyColumns+` FROM api_keys k
		WHERE k.workspace_id = $1 ORDER BY k.created_at DESC, k.id`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("postgres: list keys: %w", err)
	}
	defer rows.Close()
	var keys []*prospector.APIKey
	for rows.Next() {
		var k prospector.APIKey
		if err := rows.Scan(keyTargets(&k)...); err != nil {
			return nil, fmt.Errorf("postgres: scan key: %w", err)
		}
		keyToUTC(&k)
		keys = append(keys, &k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: list keys: %w", err)
	}
	return keys, nil
}

// RevokeAPIKey marks the key revoked, keeping an earlier revocation time.
func (db *DB) RevokeAPIKey(ctx context.Context, id string, now time.Time) error {
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var workspaceID, prefix string
		var revoked *time.Time
		err := tx.QueryRow(ctx, `SELECT workspace_id, prefix, revoked_at FROM api_keys WHERE id = $1 FOR UPDATE`, id).
			Scan(&workspaceID, &prefix, &revoked)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("postgres: revoke key %s: %w", id, prospector.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("postgres: revoke key: %w", err)
		}
		if revoked != nil {
			return nil // revoked before: nothing changes, nothing to audit
		}
		if _, err := tx.Exec(ctx, `UPDATE api_keys SET revoked_at = $1 WHERE id = $2`, now.UTC(), id); err != nil {
			return fmt.Errorf("postgres: revoke key: %w", err)
		}
		return appendAudit(ctx, tx, prospector.KeyAudit(ctx, prospector.AuditKeyRevoke, workspaceID, id, prefix, now))
	})
}

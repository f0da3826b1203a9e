package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// SetLeadCampaign sets campaign_id on the workspace's leads among ids, in
// one transaction, 500 ids a statement.
func (db *DB) SetLeadCampaign(ctx context.Context, workspaceID string, ids []string, campaignID string) error {
	if len(ids) == 0 {
		return nil
	}
	now := formatTime(time.Now())
	err := db.tx(ctx, func(tx *sql.Tx) error {
		for start := 0; start < len(ids); start += 500 {
			chunk := ids[start:min(start+500, len(ids))]
			args := make([]any, 0, len(chunk)+3)
			args = append(args, campaignID, now, workspaceID)
			for _, id := range chunk {
				args = append(args, id)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE leads SET campaign_id = ?, updated_at = ?
				WHERE workspace_id = ? AND id IN (`+placeholders(len(chunk))+`)`, args...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: set lead campaign: %w", err)
	}
	return nil
}

package postgres

import (
	"context"
	"fmt"
)

// SetLeadCampaign sets campaign_id on the workspace's leads among ids.
func (db *DB) SetLeadCampaign(ctx context.Context, workspaceID string, ids []string, campaignID string) error {
	if len(ids) == 0 {
		return nil
	}
	if _, err := db.execTx(ctx, `UPDATE leads SET campaign_id = $1, updated_at = $2
		WHERE workspace_id = $3 AND id = ANY($4)`, campaignID, nowUTC(), workspaceID, ids); err != nil {
		return fmt.Errorf("postgres: set lead campaign: %w", err)
	}
	return nil
}

package prospector

import "context"

// LeadCampaignStore records where leads were pushed: the campaign (or
// list) of the outreach tool that took them, the lead record's
// campaign_id.
type LeadCampaignStore interface {
	// SetLeadCampaign sets campaign_id to campaignID on the workspace's
	// leads among ids; ids of other workspaces and unknown ids are left
	// alone. It fails only when the store does.
	SetLeadCampaign(ctx context.Context, workspaceID string, ids []string, campaignID string) error
}

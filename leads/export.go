package leads

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
	"github.com/prospectorhq/prospector/webhook"
	"github.com/prospectorhq/prospector/wire"
)

// Service runs the leads workflows a workspace calls, whatever the front
// end: exporting its leads and pushing them to a destination. Zero fields
// get the defaults documented on them.
type Service struct {
	Store Store
	// Webhooks sends pushes and reaches outreach tools; required.
	Webhooks *webhook.Client
	Logger   *slog.Logger     // default: discard
	Now      func() time.Time // default time.Now
}

// Store is what Service reads and writes.
type Store interface {
	LeadsByID(ctx context.Context, workspaceID string, ids []string) ([]*prospector.Lead, error)
	WebhookSettings(ctx context.Context, workspaceID string) (*prospector.WebhookSettings, error)
	CreateWebhookSettings(ctx context.Context, s *prospector.WebhookSettings) error
	webhook.Integrations
	SetLeadCampaign(ctx context.Context, workspaceID string, ids []string, campaignID string) error
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.New(slog.DiscardHandler)
}

// Bounds of the leads workflows (docs/decisions.md, "Leads export and
// push"). 10,000 ids fit in a request body about twice over; a push does
// network I/O while the caller waits, so it takes fewer.
const (
	maxExportLeads = 10000
	maxPushLeads   = 1000
)

// Export formats and what their data is served as.
const (
	formatCSV      = "csv"
	formatJSON     = "json"
	contentTypeCSV = "text/csv; charset=utf-8"
	exportPrefix   = "service-leads-export-"
	exportStamp    = "20060102T150405Z"
)

// ExportRequest is POST /leads/export's body.
type ExportRequest struct {
	LeadIDs []string `json:"lead_ids"`
	Format  *string  `json:"format"` // csv (the default) or json
}

// ExportResult is an export, its file inline.
type ExportResult struct {
	Status             string   `json:"status"`
	Format             string   `json:"format"`
	LeadCount          int      `json:"lead_count"`
	RequestedLeadCount int      `json:"requested_lead_count"`
	MissingLeadIDs     []string `json:"missing_lead_ids"`
	ContentType        string   `json:"content_type"`
	FileName           string   `json:"file_name"`
	// Data is the CSV text, or the leads' records (wire.LeadRecords).
	Data any `json:"data"`
}

// Export renders the workspace's leads among req's ids as a CSV or JSON
// file. Ids without a lead of the workspace are listed as missing,
// unknown ids and other workspaces' alike; a validation error names the
// field at fault.
func (s *Service) Export(ctx context.Context, ws *prospector.Workspace, req *ExportRequest) (*ExportResult, error) {
	ids, err := leadIDs(req.LeadIDs, maxExportLeads)
	if err != nil {
		return nil, err
	}
	format := input.Str(req.Format)
	switch format {
	case "":
		format = formatCSV
	case formatCSV, formatJSON:
	default:
		return nil, input.Errorf("format", "%q is not supported: use csv or json", input.Truncate(format, 40))
	}
	found, missing, err := s.workspaceLeads(ctx, ws.ID, ids)
	if err != nil {
		return nil, err
	}
	res := &ExportResult{Status: "ready", Format: format, LeadCount: len(found), RequestedLeadCount: len(ids),
		MissingLeadIDs: missing, FileName: exportPrefix + s.now().UTC().Format(exportStamp) + "." + format}
	ls := wire.NewLeads(found)
	if format == formatCSV {
		var b strings.Builder
		b.Grow(256 * (len(found) + 1))
		if err := WriteCSV(&b, ls); err != nil {
			return nil, fmt.Errorf("export leads: csv: %w", err)
		}
		res.ContentType, res.Data = contentTypeCSV, b.String()
	} else {
		res.ContentType, res.Data = "application/json", wire.LeadRecords(ls)
	}
	return res, nil
}

// leadIDs checks a lead_ids list: 1 to bound values (repeats counted),
// each shaped like a lead id. It returns the ids without repeats, in the
// order of their first appearance.
func leadIDs(ids []string, bound int) ([]string, error) {
	if len(ids) == 0 {
		return nil, input.Errorf("lead_ids", "required: give 1 to %d lead ids", bound)
	}
	if len(ids) > bound {
		return nil, input.Errorf("lead_ids", "at most %d ids per call, got %d", bound, len(ids))
	}
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for i, id := range ids {
		if !prospector.ValidLeadID(id) {
			return nil, input.Errorf(fmt.Sprintf("lead_ids[%d]", i),
				"%q is not a lead id (lead ids are ld_ and 36 lowercase letters and digits 2-7)", input.Truncate(id, 60))
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

// workspaceLeads returns the workspace's leads among ids in the order of
// ids, and, also in that order, the ids it has no lead for: unknown ids
// and other workspaces' alike, so a caller cannot tell them apart.
func (s *Service) workspaceLeads(ctx context.Context, workspaceID string, ids []string) ([]*prospector.Lead, []string, error) {
	stored, err := s.Store.LeadsByID(ctx, workspaceID, ids)
	if err != nil {
		return nil, nil, err
	}
	byID := make(map[string]*prospector.Lead, len(stored))
	for _, l := range stored {
		if l.WorkspaceID == workspaceID {
			byID[l.ID] = l
		}
	}
	found := make([]*prospector.Lead, 0, len(byID))
	missing := []string{}
	for _, id := range ids {
		if l := byID[id]; l != nil {
			found = append(found, l)
		} else {
			missing = append(missing, id)
		}
	}
	return found, missing, nil
}

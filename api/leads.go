package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/leads"
)

// Bounds of the leads endpoints (docs/decisions.md, "Leads export and
// push"). 10,000 ids fit in a request body (MaxBodyBytes) about twice
// over; a push does network I/O inside the request, so it takes fewer.
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

type exportLeadsRequest struct {
	LeadIDs []string `json:"lead_ids"`
	Format  *string  `json:"format"`
}

type exportLeadsResult struct {
	Status             string   `json:"status"`
	Format             string   `json:"format"`
	LeadCount          int      `json:"lead_count"`
	RequestedLeadCount int      `json:"requested_lead_count"`
	MissingLeadIDs     []string `json:"missing_lead_ids"`
	ContentType        string   `json:"content_type"`
	FileName           string   `json:"file_name"`
	// Data is the CSV text, or the array of lead records.
	Data any `json:"data"`
}

// exportLeads: POST /api/v1/leads/export
func (s *Server) exportLeads(w http.ResponseWriter, r *http.Request) error {
	var req exportLeadsRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	ids, err := leadIDs(req.LeadIDs, maxExportLeads)
	if err != nil {
		return err
	}
	format := str(req.Format)
	switch format {
	case "":
		format = formatCSV
	case formatCSV, formatJSON:
	default:
		return filterErr("format", "%q is not supported: use csv or json", truncate(format, 40))
	}
	found, missing, err := s.workspaceLeads(r.Context(), principal(r.Context()).Workspace.ID, ids)
	if err != nil {
		return err
	}
	res := exportLeadsResult{Status: "ready", Format: format, LeadCount: len(found), RequestedLeadCount: len(ids),
		MissingLeadIDs: missing, FileName: exportPrefix + s.now().UTC().Format(exportStamp) + "." + format}
	if format == formatCSV {
		var b strings.Builder
		b.Grow(256 * (len(found) + 1))
		if err := leads.WriteCSV(&b, found); err != nil {
			return fmt.Errorf("export leads: csv: %w", err)
		}
		res.ContentType, res.Data = contentTypeCSV, b.String()
	} else {
		records := make([]leads.Record, len(found))
		for i, l := range found {
			records[i] = leads.NewRecord(l)
		}
		res.ContentType, res.Data = "application/json", records
	}
	writeData(w, res)
	return nil
}

// leadIDs checks a lead_ids list: 1 to bound values (repeats counted),
// each shaped like a lead id. It returns the ids without repeats, in the
// order of their first appearance.
func leadIDs(ids []string, bound int) ([]string, error) {
	if len(ids) == 0 {
		return nil, filterErr("lead_ids", "required: give 1 to %d lead ids", bound)
	}
	if len(ids) > bound {
		return nil, filterErr("lead_ids", "at most %d ids per call, got %d", bound, len(ids))
	}
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for i, id := range ids {
		if !prospector.ValidLeadID(id) {
			return nil, filterErr(fmt.Sprintf("lead_ids[%d]", i),
				"%q is not a lead id (lead ids are ld_ and 36 lowercase letters and digits 2-7)", truncate(id, 60))
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
func (s *Server) workspaceLeads(ctx context.Context, workspaceID string, ids []string) ([]*prospector.Lead, []string, error) {
	stored, err := s.store.LeadsByID(ctx, workspaceID, ids)
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

package prospector

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// Auto-sync inside a radar batch: the deliveries of the leads a batch
// creates are written by the batch's own transaction (LeadBatch.AutoSync).

// AutoSyncFunc turns a workspace's new leads into deliveries to its
// auto-sync destination. ApplyLeadBatch calls it, inside its transaction,
// for each workspace of the batch whose webhook settings have auto-sync on
// and a URL, with those settings and the workspace's new leads as they are
// written; it returns each delivery (its ID set) with the job of its first
// attempt. They are written before the batch commits: a delivery of a
// lead already delivered to that URL, or a job whose key is active, is
// skipped. An error rolls the whole batch back.
type AutoSyncFunc func(s *WebhookSettings, leads []*Lead) ([]*Delivery, []*Job, error)

// NewLead is the lead a planned new lead becomes, as the engines store
// it, created (and updated) at created.
func (p *PlannedLead) NewLead(created time.Time) *Lead {
	m, l := p.Match, &p.Match.Lead
	best := *p.Best
	score := best.Total
	return &Lead{ID: p.ID, WorkspaceID: m.WorkspaceID, RadarID: m.RadarID, Source: "radar", PersonID: l.PersonID,
		CompanyID: l.CompanyID, FullName: l.FullName, FirstName: l.FirstName, LastName: l.LastName, Title: l.Title,
		Company: l.Company, NetworkURL: l.NetworkURL, City: l.City, Region: l.Region, CountryCode: l.CountryCode,
		Score: &score, Breakdown: &best, Status: "detected", LastSignalAt: p.Last, CreatedAt: created, UpdatedAt: created}
}

// PlanAutoSync calls b.AutoSync for the new leads of plan, workspace by
// workspace in id order, as ApplyLeadBatch must. settings reads a
// workspace's webhook settings inside the batch's transaction (nil and no
// error when it has none); created is the leads' stored created_at. It
// returns the deliveries and jobs to write, checked, with the first
// error of settings, the hook or a check.
func PlanAutoSync(b *LeadBatch, plan []PlannedLead, created time.Time,
	settings func(workspaceID string) (*WebhookSettings, error)) ([]*Delivery, []*Job, error) {
	if b.AutoSync == nil {
		return nil, nil, nil
	}
	byWorkspace := map[string][]*Lead{}
	var order []string
	for i := range plan {
		if !plan[i].New {
			continue
		}
		ws := plan[i].Match.WorkspaceID
		if _, seen := byWorkspace[ws]; !seen {
			order = append(order, ws)
		}
		byWorkspace[ws] = append(byWorkspace[ws], plan[i].NewLead(created))
	}
	slices.Sort(order)
	var deliveries []*Delivery
	var jobs []*Job
	for _, ws := range order {
		s, err := settings(ws)
		if err != nil {
			return nil, nil, fmt.Errorf("auto-sync of %s: %w", ws, err)
		}
		if s == nil || !s.AutoSync || s.URL == "" {
			continue
		}
		ds, js, err := b.AutoSync(s, byWorkspace[ws])
		if err != nil {
			return nil, nil, fmt.Errorf("auto-sync of %s: %w", ws, err)
		}
		for _, d := range ds {
			if d.ID == "" || d.WorkspaceID != ws || !json.Valid(d.Payload) {
				return nil, nil, fmt.Errorf("auto-sync of %s: delivery %q of lead %s: no id, another workspace or a payload that is not JSON",
					ws, d.ID, d.LeadID)
			}
			if d.NextAttemptAt.IsZero() {
				d.NextAttemptAt = created
			}
		}
		for _, j := range js {
			if err := j.Validate(); err != nil {
				return nil, nil, fmt.Errorf("auto-sync of %s: job: %w", ws, err)
			}
			j.RunAt = j.FirstRunAt(created)
		}
		deliveries, jobs = append(deliveries, ds...), append(jobs, js...)
	}
	return deliveries, jobs, nil
}

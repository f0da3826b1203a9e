package radar

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
	"github.com/prospectorhq/prospector/wire"
)

// Bounds of the radar list (docs/decisions.md, "Radars").
const (
	defaultRadarPage = 25
	maxRadarPage     = 100
)

// ListRequest pages the workspace's radars: GET /radar's query
// parameters, as text; "" is absent.
type ListRequest struct {
	Page  string `json:"page"`  // from 1 (default) to 10,000
	Limit string `json:"limit"` // radars a page, 1 to 100; default 25
}

// Page is a page of the workspace's radars, oldest first.
type Page struct {
	Items      []wire.Radar    `json:"items"`
	Pagination wire.Pagination `json:"pagination"`
}

// List returns a page of the workspace's radars, oldest first, each with
// its status and counts; 400 for a bad page or limit.
func (s *Service) List(ctx context.Context, ws *prospector.Workspace, req ListRequest) (*Page, error) {
	page, err := input.Int("page", req.Page, 1, input.MaxPage, 1)
	if err != nil {
		return nil, err
	}
	limit, err := input.Int("limit", req.Limit, 1, maxRadarPage, defaultRadarPage)
	if err != nil {
		return nil, err
	}
	sums, total, err := s.Store.RadarSummaryPage(ctx, ws.ID, (page-1)*limit, limit)
	if err != nil {
		return nil, fmt.Errorf("radar: list: %w", err)
	}
	out := &Page{Items: make([]wire.Radar, 0, len(sums)), Pagination: wire.NewPagination(page, limit, int(total))}
	for _, sm := range sums {
		out.Items = append(out.Items, wire.NewRadar(sm))
	}
	return out, nil
}

// Get returns the workspace's radar id with its status, counts and
// rules: 400 for an id not shaped like a radar id, 404 for an unknown
// radar and for another workspace's.
func (s *Service) Get(ctx context.Context, ws *prospector.Workspace, id string) (*wire.Radar, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	sm, err := s.Store.RadarSummary(ctx, id)
	if errors.Is(err, prospector.ErrNotFound) || err == nil && sm.WorkspaceID != ws.ID {
		return nil, errRadarNotFound(id)
	}
	if err != nil {
		return nil, fmt.Errorf("radar: get: %w", err)
	}
	r := wire.NewRadar(sm)
	return &r, nil
}

// UpdateRequest is PATCH /radar/{id}'s body: name renames the radar
// (blank: a generated name, as radar/create gives), paused pauses (true)
// or resumes (false) it, and radar/create's rule fields, when any is
// given, replace its rules as a whole, as radar/create would build them
// from the same fields.
type UpdateRequest struct {
	CreateRequest
	Paused *bool `json:"paused"`
}

// hasRules reports whether any of radar/create's rule fields is given:
// every field of CreateRequest but name.
func (req *CreateRequest) hasRules() bool {
	v := reflect.ValueOf(req).Elem()
	for i := range v.NumField() {
		if v.Type().Field(i).Name != "Name" && !v.Field(i).IsNil() {
			return true
		}
	}
	return false
}

var errNothingToChange = prospector.Errorf(prospector.EINVALID,
	"Provide name, paused or at least one radar/create rule field to change")

// Update changes the workspace's radar id as req asks, in one
// transaction, and returns it as Get does. Rules are validated exactly as
// radar/create validates them (same messages); new rules keep the
// radar's leads and are backfilled over the signals the scan has read,
// while the scan goes on from its cursor; resuming skips the signals
// stored while the radar was paused (docs/decisions.md, "Radars").
// Errors: 400 naming the field, for an id not shaped like a radar id, for
// nothing to change, and for new rules while the radar is still
// backfilling; 404 for an unknown radar, another workspace's, or a
// company_network_url the data does not hold.
func (s *Service) Update(ctx context.Context, ws *prospector.Workspace, id string, req *UpdateRequest) (*wire.Radar, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	change := &prospector.RadarChange{WorkspaceID: ws.ID, ID: id, Paused: req.Paused,
		Backfill: prospector.RadarBackfillJob(id)}
	if req.hasRules() {
		c, err := req.config()
		if err != nil {
			return nil, err
		}
		if !c.HasFilter() {
			return nil, errNoRadarFilter
		}
		change.Config = c
	}
	name, err := input.Text("name", req.Name, maxRadarText)
	if err != nil {
		return nil, err
	}
	if req.Name == nil && req.Paused == nil && change.Config == nil {
		return nil, errNothingToChange
	}
	current, err := s.Store.Radar(ctx, id)
	if errors.Is(err, prospector.ErrNotFound) || err == nil && current.WorkspaceID != ws.ID {
		return nil, errRadarNotFound(id)
	}
	if err != nil {
		return nil, fmt.Errorf("radar: update: %w", err)
	}
	if change.Config != nil {
		if err := s.resolve(ctx, change.Config); err != nil {
			return nil, err
		}
	}
	if req.Name != nil {
		if name == "" {
			rules := &current.Config
			if change.Config != nil {
				rules = change.Config
			}
			name = radarName(rules, s.now())
		}
		change.Name = &name
	}
	_, err = s.Store.ChangeRadar(ctx, change, s.now())
	switch {
	case errors.Is(err, prospector.ErrNotFound):
		return nil, errRadarNotFound(id)
	case errors.Is(err, prospector.ErrRadarBackfilling):
		return nil, prospector.Errorf(prospector.EINVALID,
			"radar %s is still backfilling: its rules can change once its status is active (name and paused can change now)", id)
	case err != nil:
		return nil, fmt.Errorf("radar: update: %w", err)
	}
	return s.Get(ctx, ws, id)
}

// Deleted is what deleting a radar did: its leads stay in the
// workspace, with no radar.
type Deleted struct {
	ID        string `json:"radar_id"`
	Deleted   bool   `json:"deleted"`
	LeadsKept int64  `json:"leads_kept"`
}

// Delete deletes the workspace's radar id and gives its unit of the
// radar quota back, in one transaction. Its leads are kept (outreach
// tools may hold them and send their outcomes back as feedback events),
// and auto-sync deliveries already queued for them are still sent.
// Errors as Get.
func (s *Service) Delete(ctx context.Context, ws *prospector.Workspace, id string) (*Deleted, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	d, err := s.Store.DeleteRadar(ctx, ws.ID, id)
	if errors.Is(err, prospector.ErrNotFound) {
		return nil, errRadarNotFound(id)
	}
	if err != nil {
		return nil, fmt.Errorf("radar: delete: %w", err)
	}
	return &Deleted{ID: id, Deleted: true, LeadsKept: d.LeadsKept}, nil
}

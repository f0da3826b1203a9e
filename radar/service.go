package radar

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
	"github.com/prospectorhq/prospector/wire"
)

// Service runs the radar workflows a workspace calls, whatever the front
// end (the HTTP API, an MCP server, console pages): creating a radar,
// reading its leads and signals, and managing it (manage.go). The Engine does the matching. Zero
// fields get the defaults documented on them.
type Service struct {
	Store ServiceStore
	Now   func() time.Time // default time.Now
}

// ServiceStore is what Service reads and writes.
type ServiceStore interface {
	CompanyByNetworkURL(ctx context.Context, url string) (*prospector.Company, error)
	CreateRadarInQuota(ctx context.Context, r *prospector.Radar, backfill *prospector.Job) error
	CreditUsage(ctx context.Context, workspaceID string, now time.Time) (*prospector.CreditUsage, error)
	Radar(ctx context.Context, id string) (*prospector.Radar, error)
	RadarLeads(ctx context.Context, f prospector.LeadFilter) ([]*prospector.Lead, error)
	LeadSignals(ctx context.Context, leadIDs []string, since *time.Time, perLead int) ([]*prospector.LeadSignal, error)
	RadarSignals(ctx context.Context, radarID string, since *time.Time, limit int) ([]*prospector.LeadSignal, error)
	RadarSummaryPage(ctx context.Context, workspaceID string, offset, limit int) ([]*prospector.RadarSummary, int64, error)
	RadarSummary(ctx context.Context, id string) (*prospector.RadarSummary, error)
	ChangeRadar(ctx context.Context, c *prospector.RadarChange, now time.Time) (*prospector.Radar, error)
	DeleteRadar(ctx context.Context, workspaceID, id string) (*prospector.RadarDeletion, error)
}

// Bounds of the radar reads (docs/decisions.md, "Radars").
const (
	maxRadarLeads    = 500 // leads of radar/{id}/leads
	maxRadarSignals  = 500 // signals of radar/{id}/signals
	leadContextLimit = 10  // signal_context entries per lead
)

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

var errNoRadarFilter = prospector.Errorf(prospector.EINVALID, "Provide at least one radar filter")

// Create validates and normalises req and creates the workspace's radar:
// its unit of the radar quota, the radar and its backfill job are
// written in one transaction (CreateRadarInQuota), so a failure leaves
// none of them. A validation error names the field; a company the data
// does not hold is 404; a workspace at its radar limit gets 429
// rate_limit_exceeded with its usage.
func (s *Service) Create(ctx context.Context, ws *prospector.Workspace, req *CreateRequest) (*prospector.Radar, error) {
	c, err := req.config()
	if err != nil {
		return nil, err
	}
	if !c.HasFilter() {
		return nil, errNoRadarFilter
	}
	if err := s.resolve(ctx, c); err != nil {
		return nil, err
	}
	name, err := input.Text("name", req.Name, maxRadarText)
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = radarName(c, s.now())
	}
	r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: ws.ID, Name: name, Config: *c}
	err = s.Store.CreateRadarInQuota(ctx, r, prospector.RadarBackfillJob(r.ID))
	if errors.Is(err, prospector.ErrQuotaExceeded) {
		return nil, s.limitReached(ctx, ws)
	}
	if err != nil {
		return nil, fmt.Errorf("radar: create: %w", err)
	}
	return r, nil
}

// resolve completes a validated configuration from the data: the
// company of company_network_url (404 when the data does not hold it),
// the name of the company whose followers it targets, and the signal
// types it follows.
func (s *Service) resolve(ctx context.Context, c *prospector.RadarConfig) error {
	if c.CompanyNetworkURL != "" {
		co, err := s.Store.CompanyByNetworkURL(ctx, c.CompanyNetworkURL)
		if co, err = input.KnownCompany(co, err, "company_network_url", c.CompanyNetworkURL); err != nil {
			return err
		}
		c.CompanyID = co.ID
	}
	if c.FollowersCompanyURL != "" {
		co, err := s.Store.CompanyByNetworkURL(ctx, c.FollowersCompanyURL)
		switch {
		case err == nil:
			c.FollowersName = co.Name
		case !errors.Is(err, prospector.ErrNotFound):
			return err
		}
	}
	c.Types = prospector.RadarSignalTypes(c)
	return nil
}

// limitReached is the 429 of a workspace at its radar limit, with its
// usage.
func (s *Service) limitReached(ctx context.Context, ws *prospector.Workspace) error {
	u, err := s.Store.CreditUsage(ctx, ws.ID, s.now())
	if err != nil {
		return err
	}
	limit := int64(0)
	if u.Radars.Limit.Limit != nil {
		limit = *u.Radars.Limit.Limit
	}
	return prospector.Errorf(prospector.ERATELIMIT,
		"Radar limit reached: %d of %d radars in use on the %s plan. To allow more, the operator runs: %s",
		u.Radars.Used, limit, ws.Plan, prospector.RadarLimitAdvice(&u.Workspace))
}

// LeadsRequest filters a radar's leads. Its fields are query parameters
// of GET /radar/{id}/leads, given as text as a URL carries them; "" is
// absent.
type LeadsRequest struct {
	MinScore  string `json:"min_score"`  // a number from 0 to 100
	DateRange string `json:"date_range"` // last_24_hours, last_7_days, last_30_days, last_90_days or all_time
	// Limit caps the leads read, for a front end that shows fewer (the
	// console); 0 or more than the API's bound means that bound (500).
	Limit int `json:"-"`
	// Context caps the signals read per lead; 0 or more than the API's
	// 10 means 10.
	Context int `json:"-"`
}

// Leads returns the leads of the workspace's radar id, best first, each
// with its newest signals: 400 for a bad parameter or an id not shaped
// like a radar id, 404 for an unknown radar and for another workspace's.
func (s *Service) Leads(ctx context.Context, ws *prospector.Workspace, id string, req LeadsRequest) ([]wire.RadarLead, error) {
	f := prospector.LeadFilter{Limit: maxRadarLeads}
	if req.Limit > 0 && req.Limit < maxRadarLeads {
		f.Limit = req.Limit
	}
	perLead := leadContextLimit
	if req.Context > 0 && req.Context < leadContextLimit {
		perLead = req.Context
	}
	var err error
	if f.MinScore, err = minScore(req.MinScore); err != nil {
		return nil, err
	}
	if f.Since, err = s.dateRange(req.DateRange); err != nil {
		return nil, err
	}
	radar, err := s.radarOf(ctx, ws, id)
	if err != nil {
		return nil, err
	}
	f.RadarID = radar.ID
	leads, err := s.Store.RadarLeads(ctx, f)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(leads))
	for i, l := range leads {
		ids[i] = l.ID
	}
	sigs, err := s.Store.LeadSignals(ctx, ids, f.Since, perLead)
	if err != nil {
		return nil, err
	}
	return wire.NewRadarLeads(leads, sigs), nil
}

// SignalsRequest filters a radar's signals, as LeadsRequest does.
type SignalsRequest struct {
	DateRange string `json:"date_range"`
	// Limit caps the signals read, as LeadsRequest's does (500).
	Limit int `json:"-"`
}

// Signals returns the signals attached to the leads of the workspace's
// radar id, newest first; errors as Leads.
func (s *Service) Signals(ctx context.Context, ws *prospector.Workspace, id string, req SignalsRequest) ([]wire.RadarSignal, error) {
	since, err := s.dateRange(req.DateRange)
	if err != nil {
		return nil, err
	}
	radar, err := s.radarOf(ctx, ws, id)
	if err != nil {
		return nil, err
	}
	limit := maxRadarSignals
	if req.Limit > 0 && req.Limit < maxRadarSignals {
		limit = req.Limit
	}
	sigs, err := s.Store.RadarSignals(ctx, radar.ID, since, limit)
	if err != nil {
		return nil, err
	}
	out := make([]wire.RadarSignal, 0, len(sigs))
	for _, sg := range sigs {
		out = append(out, wire.NewRadarSignal(sg))
	}
	return out, nil
}

// radarOf returns the workspace's radar id: 400 for an id that is not
// shaped like a radar id, 404 for an unknown one and for another
// workspace's.
func (s *Service) radarOf(ctx context.Context, ws *prospector.Workspace, id string) (*prospector.Radar, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	radar, err := s.Store.Radar(ctx, id)
	if errors.Is(err, prospector.ErrNotFound) || err == nil && radar.WorkspaceID != ws.ID {
		return nil, errRadarNotFound(id)
	}
	return radar, err
}

// checkID is the 400 of an id not shaped like a radar id.
func checkID(id string) error {
	if !prospector.ValidRadarID(id) {
		return input.Errorf("id", "%q is not a radar id (radar/create returns ids shaped rdr_ and 26 letters and digits)",
			input.Truncate(id, 60))
	}
	return nil
}

// errRadarNotFound is the 404 of an unknown radar and of another
// workspace's: the same answer, so ids of other workspaces cannot be
// probed.
func errRadarNotFound(id string) error {
	return prospector.Errorf(prospector.ENOTFOUND, "radar %s not found", id)
}

// dateRanges are the date_range tokens and how far back each reaches;
// all_time (the default) has no bound.
var dateRanges = map[string]time.Duration{
	"last_24_hours": 24 * time.Hour,
	"last_7_days":   7 * 24 * time.Hour,
	"last_30_days":  30 * 24 * time.Hour,
	"last_90_days":  90 * 24 * time.Hour,
	"all_time":      0,
}

// dateRange reads date_range as the earliest detection time it admits;
// nil for all_time.
func (s *Service) dateRange(v string) (*time.Time, error) {
	if v == "" {
		return nil, nil
	}
	d, ok := dateRanges[v]
	if !ok {
		return nil, input.Errorf("date_range", "%q is not supported: use last_24_hours, last_7_days, last_30_days, last_90_days or all_time",
			input.Truncate(v, 40))
	}
	if d == 0 {
		return nil, nil
	}
	since := s.now().Add(-d).UTC()
	return &since, nil
}

// minScore reads min_score: a number from 0 to 100.
func minScore(v string) (*float64, error) {
	if v == "" {
		return nil, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > 100 {
		return nil, input.Errorf("min_score", "must be a number from 0 to 100")
	}
	return &f, nil
}

package console

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
	"github.com/prospectorhq/prospector/radar"
	"github.com/prospectorhq/prospector/wire"
)

// Bounds of what a radar page shows, so it stays light at any size: the
// leads and signals beyond are a filter or an export away.
const (
	radarPageLeads   = 50
	radarPageSignals = 100
	leadContext      = 3 // signal_context entries shown per lead
)

type radarsData struct {
	Radars *radar.Page
}

// radars: GET /radars, the workspace's radars.
func (c *Console) radars(w http.ResponseWriter, r *http.Request) error {
	s := sessionOf(r.Context())
	pg, err := c.flows.Radars.List(r.Context(), &s.principal.Workspace, radar.ListRequest{Page: r.URL.Query().Get("page"), Limit: "100"})
	if err != nil {
		return err
	}
	return c.render(w, r, http.StatusOK, "radars", &page{Title: "Radars", Nav: "radars", Data: radarsData{Radars: pg}})
}

type radarFormData struct {
	Form       url.Values
	Categories []string
}

// newRadar: GET /radars/new, the form with every rule of radar/create.
func (c *Console) newRadar(w http.ResponseWriter, r *http.Request) error {
	return c.render(w, r, http.StatusOK, "radar-new", &page{Title: "New radar", Nav: "radars",
		Data: radarFormData{Form: url.Values{}, Categories: prospector.RadarCategories()}})
}

// createRadar: POST /radars. The workflow validates as the API does, so
// the form shows the API's messages, naming the field.
func (c *Console) createRadar(w http.ResponseWriter, r *http.Request) error {
	s := sessionOf(r.Context())
	p := &page{Title: "New radar", Nav: "radars", Data: radarFormData{Form: r.PostForm, Categories: prospector.RadarCategories()}}
	req, err := radarRequest(r.PostForm)
	if err == nil {
		var created *prospector.Radar
		created, err = c.flows.Radars.Create(r.Context(), &s.principal.Workspace, req)
		if err == nil {
			http.Redirect(w, r, "/radars/"+url.PathEscape(created.ID)+"?notice=created", http.StatusSeeOther)
			return nil
		}
	}
	if statusOf(err) == http.StatusTooManyRequests {
		p.Error = errMessage(err)
		return c.render(w, r, http.StatusTooManyRequests, "radar-new", p)
	}
	return c.formError(w, r, "radar-new", p, err)
}

// radarRequest reads radar/create's fields from a form: lists one per
// line or comma-separated, numbers as text, switches as checkboxes.
func radarRequest(f url.Values) (*radar.CreateRequest, error) {
	req := &radar.CreateRequest{
		Name: opt(f.Get("name")), Titles: list(f.Get("titles")), Industries: list(f.Get("industries")),
		Locations: list(f.Get("locations")), Geos: list(f.Get("geos")), SignalsToTrack: nonEmpty(f["signals_to_track"]),
		PainKeywords: list(f.Get("pain_keywords")), CategoryKeywords: list(f.Get("category_keywords")),
		CompetitorURLs: list(f.Get("competitor_urls")), InfluencerURLs: list(f.Get("influencer_urls")),
		ExcludeKeywords: list(f.Get("exclude_keywords")), CompanyTypes: list(f.Get("company_types")),
		CompanyNetworkURL: opt(f.Get("company_network_url")), YourProfileURL: opt(f.Get("your_profile_url")),
		CompanyFollowersURL: opt(f.Get("company_followers_url")), JobPostingKeywords: list(f.Get("job_posting_keywords")),
		TrackProfileVisitors: check(f, "track_profile_visitors"), RaisedFunds: check(f, "raised_funds"),
		RecentJobChanges: check(f, "recent_job_changes"),
	}
	var err error
	if req.CompanySizeMin, err = whole(f, "company_size_min"); err != nil {
		return nil, err
	}
	if req.CompanySizeMax, err = whole(f, "company_size_max"); err != nil {
		return nil, err
	}
	return req, nil
}

// check is a checkbox: true when ticked, absent otherwise.
func check(f url.Values, name string) *bool {
	if f.Get(name) == "" {
		return nil
	}
	t := true
	return &t
}

func whole(f url.Values, name string) (*int, error) {
	v := strings.TrimSpace(f.Get(name))
	if v == "" {
		return nil, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return nil, input.Errorf(name, "must be a whole number, got %q", input.Truncate(v, 20))
	}
	return &n, nil
}

type radarData struct {
	Radar   *wire.Radar
	Leads   []wire.RadarLead
	More    bool // more leads match than are shown
	Signals []wire.RadarSignal
	Filter  url.Values
	Events  []string
	Context int
	Back    string // where the feedback form returns to
}

// radar: GET /radars/{id}, a radar's rules, its leads with their score
// breakdown and signal context, and its signals.
func (c *Console) radar(w http.ResponseWriter, r *http.Request) error {
	ctx, s, id, q := r.Context(), sessionOf(r.Context()), r.PathValue("id"), r.URL.Query()
	ws := &s.principal.Workspace
	rd, err := c.flows.Radars.Get(ctx, ws, id)
	if err != nil {
		return err
	}
	d := &radarData{Radar: rd, Filter: q, Events: prospector.FeedbackEventTypes(), Context: leadContext,
		Back: r.URL.RequestURI()}
	p := &page{Title: rd.Name, Nav: "radars", Data: d}
	if d.Leads, err = c.flows.Radars.Leads(ctx, ws, id, radar.LeadsRequest{MinScore: q.Get("min_score"),
		DateRange: q.Get("date_range"), Limit: radarPageLeads + 1, Context: leadContext}); err != nil {
		return c.formError(w, r, "radar", p, err)
	}
	if len(d.Leads) > radarPageLeads {
		d.More = true
		d.Leads = d.Leads[:radarPageLeads]
	}
	if d.Signals, err = c.flows.Radars.Signals(ctx, ws, id, radar.SignalsRequest{DateRange: q.Get("date_range"),
		Limit: radarPageSignals}); err != nil {
		return c.formError(w, r, "radar", p, err)
	}
	return c.render(w, r, http.StatusOK, "radar", p)
}

// pauseRadar: POST /radars/{id}/pause
func (c *Console) pauseRadar(w http.ResponseWriter, r *http.Request) error {
	return c.setPaused(w, r, true)
}

// resumeRadar: POST /radars/{id}/resume
func (c *Console) resumeRadar(w http.ResponseWriter, r *http.Request) error {
	return c.setPaused(w, r, false)
}

func (c *Console) setPaused(w http.ResponseWriter, r *http.Request, paused bool) error {
	s, id := sessionOf(r.Context()), r.PathValue("id")
	if _, err := c.flows.Radars.Update(r.Context(), &s.principal.Workspace, id, &radar.UpdateRequest{Paused: &paused}); err != nil {
		return err
	}
	notice := "resumed"
	if paused {
		notice = "paused"
	}
	http.Redirect(w, r, "/radars/"+url.PathEscape(id)+"?notice="+notice, http.StatusSeeOther)
	return nil
}

// deleteRadar: POST /radars/{id}/delete
func (c *Console) deleteRadar(w http.ResponseWriter, r *http.Request) error {
	s := sessionOf(r.Context())
	if _, err := c.flows.Radars.Delete(r.Context(), &s.principal.Workspace, r.PathValue("id")); err != nil {
		return err
	}
	http.Redirect(w, r, "/radars?notice=deleted", http.StatusSeeOther)
	return nil
}

package api

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

// Bounds of the radar endpoints (docs/decisions.md, "Radars").
const (
	maxRadarList     = 50  // titles, industries, locations, geos, keywords and URL lists
	maxRadarShort    = 20  // signals_to_track and company_types
	maxRadarText     = 200 // characters of a name or of one list value
	maxRadarLeads    = 500 // leads of radar/{id}/leads
	maxRadarSignals  = 500 // signals of radar/{id}/signals
	leadContextLimit = 10  // signal_context entries per lead
	defaultSizeMin   = 1
	defaultSizeMax   = 10000
)

type createRadarRequest struct {
	Name                 *string  `json:"name"`
	Titles               []string `json:"titles"`
	Industries           []string `json:"industries"`
	Location             *string  `json:"location"`
	Locations            []string `json:"locations"`
	Geos                 []string `json:"geos"`
	SignalsToTrack       []string `json:"signals_to_track"`
	CompanySizeMin       *int     `json:"company_size_min"`
	CompanySizeMax       *int     `json:"company_size_max"`
	PainKeywords         []string `json:"pain_keywords"`
	CategoryKeywords     []string `json:"category_keywords"`
	CompetitorURLs       []string `json:"competitor_urls"`
	InfluencerURLs       []string `json:"influencer_urls"`
	ExcludeKeywords      []string `json:"exclude_keywords"`
	CompanyTypes         []string `json:"company_types"`
	CompanyNetworkURL    *string  `json:"company_network_url"`
	YourProfileURL       *string  `json:"your_profile_url"`
	TrackProfileVisitors *bool    `json:"track_profile_visitors"`
	CompanyFollowersURL  *string  `json:"company_followers_url"`
	RaisedFunds          *bool    `json:"raised_funds"`
	RecentJobChanges     *bool    `json:"recent_job_changes"`
	JobPostingKeywords   []string `json:"job_posting_keywords"`
}

type createRadarResult struct {
	RadarID string `json:"radar_id"`
}

var errNoRadarFilter = prospector.Errorf(prospector.EINVALID, "Provide at least one radar filter")

// createRadar: POST /api/v1/radar/create
func (s *Server) createRadar(w http.ResponseWriter, r *http.Request) error {
	var req createRadarRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	c, err := radarConfig(&req)
	if err != nil {
		return err
	}
	if !c.HasFilter() {
		return errNoRadarFilter
	}
	ctx, p := r.Context(), principal(r.Context())
	if c.CompanyNetworkURL != "" {
		co, err := s.store.CompanyByNetworkURL(ctx, c.CompanyNetworkURL)
		if co, err = companyOr404(co, err, "company_network_url", c.CompanyNetworkURL); err != nil {
			return err
		}
		c.CompanyID = co.ID
	}
	if c.FollowersCompanyURL != "" {
		co, err := s.store.CompanyByNetworkURL(ctx, c.FollowersCompanyURL)
		switch {
		case err == nil:
			c.FollowersName = co.Name
		case !errors.Is(err, prospector.ErrNotFound):
			return err
		}
	}
	c.Types = prospector.RadarSignalTypes(c)
	name := str(req.Name)
	if utf8.RuneCountInString(name) > maxRadarText {
		return filterErr("name", "at most %d characters", maxRadarText)
	}
	if name == "" {
		name = radarName(c, s.now())
	}
	if err := s.store.AcquireQuota(ctx, p.Workspace.ID, prospector.QuotaRadars); err != nil {
		if errors.Is(err, prospector.ErrQuotaExceeded) {
			return s.radarLimitReached(r, p.Workspace)
		}
		return err
	}
	radar := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: p.Workspace.ID, Name: name, Config: *c}
	if err := s.store.CreateRadar(ctx, radar); err != nil {
		if rerr := s.store.ReleaseQuota(ctx, p.Workspace.ID, prospector.QuotaRadars); rerr != nil {
			err = errors.Join(err, fmt.Errorf("release radar quota: %w", rerr))
		}
		return err
	}
	// The radar exists now; if enqueuing fails, the radar scheduler finds
	// it without a completed backfill and enqueues one.
	if _, err := s.store.EnqueueJob(ctx, prospector.RadarBackfillJob(radar.ID)); err != nil {
		s.logger.LogAttrs(ctx, slog.LevelError, "enqueue radar backfill", slog.String("request_id", requestID(ctx)),
			slog.String("radar", radar.ID), slog.String("error", err.Error()))
	}
	writeData(w, createRadarResult{RadarID: radar.ID})
	return nil
}

// radarLimitReached answers 429 with the workspace's radar usage.
func (s *Server) radarLimitReached(r *http.Request, w prospector.Workspace) error {
	u, err := s.store.CreditUsage(r.Context(), w.ID, s.now())
	if err != nil {
		return err
	}
	limit := int64(0)
	if u.Radars.Limit.Limit != nil {
		limit = *u.Radars.Limit.Limit
	}
	return prospector.Errorf(prospector.ERATELIMIT,
		"Radar limit reached: %d of %d radars in use on the %s plan; upgrade the plan for more radars.",
		u.Radars.Used, limit, w.Plan)
}

// radarConfig validates and normalises every field of a radar/create
// body except the company lookups.
func radarConfig(req *createRadarRequest) (*prospector.RadarConfig, error) {
	c := &prospector.RadarConfig{}
	var err error
	if c.Titles, err = radarList("titles", req.Titles, maxRadarList, nil); err != nil {
		return nil, err
	}
	if len(req.Industries) > maxRadarList {
		return nil, filterErr("industries", "at most %d values", maxRadarList)
	}
	if c.Industries, err = industries("industries", req.Industries); err != nil {
		return nil, err
	}
	if c.Geos, c.Places, err = radarGeos(req); err != nil {
		return nil, err
	}
	if c.SignalsToTrack, err = radarList("signals_to_track", req.SignalsToTrack, maxRadarShort,
		func(name, v string) (string, error) {
			cat, ok := prospector.NormalizeRadarCategory(v)
			if !ok {
				return "", filterErr(name, "unknown signal category %q: use one of %s", v,
					strings.Join(prospector.RadarCategories(), ", "))
			}
			return cat, nil
		}); err != nil {
		return nil, err
	}
	if err := radarSizes(req, c); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		in   []string
		out  *[]string
	}{{"pain_keywords", req.PainKeywords, &c.PainKeywords}, {"category_keywords", req.CategoryKeywords, &c.CategoryKeywords},
		{"exclude_keywords", req.ExcludeKeywords, &c.ExcludeKeywords}} {
		if *f.out, err = radarList(f.name, f.in, maxRadarList, nil); err != nil {
			return nil, err
		}
	}
	if c.CompetitorURLs, err = radarList("competitor_urls", req.CompetitorURLs, maxRadarList, refURL); err != nil {
		return nil, err
	}
	if c.InfluencerURLs, err = radarList("influencer_urls", req.InfluencerURLs, maxRadarList, refURL); err != nil {
		return nil, err
	}
	if c.CompanyTypes, err = radarList("company_types", req.CompanyTypes, maxRadarShort, nil); err != nil {
		return nil, err
	}
	if c.CompanyNetworkURL, err = profileURL("company_network_url", str(req.CompanyNetworkURL)); err != nil {
		return nil, err
	}
	if c.CompanyFollowersURL, err = profileURL("company_followers_url", str(req.CompanyFollowersURL)); err != nil {
		return nil, err
	}
	c.FollowersCompanyURL = followedCompany(c.CompanyFollowersURL)
	if c.YourProfileURL, err = profileURL("your_profile_url", str(req.YourProfileURL)); err != nil {
		return nil, err
	}
	c.TrackProfileVisitors = req.TrackProfileVisitors != nil && *req.TrackProfileVisitors
	return c, radarSignalDefaults(req, c)
}

// radarList is normList with the radar's bound and a length bound per
// value; norm may be nil.
func radarList(field string, vs []string, bound int, norm func(name, v string) (string, error)) ([]string, error) {
	if len(vs) > bound {
		return nil, filterErr(field, "at most %d values", bound)
	}
	return normList(field, vs, func(name, v string) (string, error) {
		if utf8.RuneCountInString(v) > maxRadarText {
			return "", filterErr(name, "at most %d characters", maxRadarText)
		}
		if norm == nil {
			return v, nil
		}
		return norm(name, v)
	})
}

// radarGeos merges location, locations and geos, in that order and
// without repeats, into one list of normalised geos: an ISO code, WORLD,
// or a place with its country code when one was given ("Berlin, DE").
// places is what they select, empty when WORLD is among them.
func radarGeos(req *createRadarRequest) (geos []string, places []prospector.Place, err error) {
	world := false
	add := func(name, v string) (string, error) {
		g, p, isWorld, err := geo(name, v)
		if err != nil {
			return "", err
		}
		for _, x := range geos {
			if strings.EqualFold(x, g) {
				return g, nil
			}
		}
		geos = append(geos, g)
		if isWorld {
			world = true
		} else {
			places = append(places, p)
		}
		return g, nil
	}
	if loc := str(req.Location); loc != "" {
		if utf8.RuneCountInString(loc) > maxRadarText {
			return nil, nil, filterErr("location", "at most %d characters", maxRadarText)
		}
		if _, err := add("location", loc); err != nil {
			return nil, nil, err
		}
	}
	for _, f := range []struct {
		name string
		vs   []string
	}{{"locations", req.Locations}, {"geos", req.Geos}} {
		if _, err := radarList(f.name, f.vs, maxRadarList, add); err != nil {
			return nil, nil, err
		}
	}
	if len(geos) > maxRadarList {
		return nil, nil, filterErr("geos", "at most %d values with location and locations merged", maxRadarList)
	}
	if world {
		places = nil
	}
	return geos, places, nil
}

// geo reads one location value as places() does: two letters are an ISO
// code; else a country name, WORLD, or a place with an optional country.
func geo(name, v string) (string, prospector.Place, bool, error) {
	if len(v) == 2 {
		code, ok := taxonomy.NormalizeCountry(strings.ToUpper(v))
		if !ok || code == taxonomy.WorldCode {
			return "", prospector.Place{}, false, filterErr(name,
				"unknown country code %q: use an ISO 3166-1 alpha-2 code, a country or place name, or WORLD", v)
		}
		return code, prospector.Place{Country: code}, false, nil
	}
	countries, ps, _, err := location(name, v)
	if err != nil {
		return "", prospector.Place{}, false, err
	}
	if len(countries) == 0 && len(ps) == 0 {
		return taxonomy.WorldCode, prospector.Place{}, true, nil
	}
	var p prospector.Place
	if len(countries) > 0 {
		p.Country = countries[0]
	}
	if len(ps) == 0 {
		return p.Country, p, false, nil
	}
	p.Name = ps[0]
	if p.Country == "" {
		return p.Name, p, false, nil
	}
	return p.Name + ", " + p.Country, p, false, nil
}

// radarSizes applies the size bounds and defaults.
func radarSizes(req *createRadarRequest, c *prospector.RadarConfig) error {
	minSize, err := bounded("company_size_min", req.CompanySizeMin, 1, math.MaxInt32, defaultSizeMin)
	if err != nil {
		return err
	}
	maxSize, err := bounded("company_size_max", req.CompanySizeMax, 1, math.MaxInt32, defaultSizeMax)
	if err != nil {
		return err
	}
	if minSize > maxSize {
		return filterErr("company_size_min", "%d is above company_size_max %d", minSize, maxSize)
	}
	c.CompanySizeMin, c.CompanySizeMax = int64(minSize), int64(maxSize)
	c.SizeFilter = req.CompanySizeMin != nil || req.CompanySizeMax != nil
	return nil
}

// radarSignalDefaults applies raised_funds, recent_job_changes and
// job_posting_keywords with their defaults.
func radarSignalDefaults(req *createRadarRequest, c *prospector.RadarConfig) error {
	tracks := map[string]bool{}
	for _, cat := range c.SignalsToTrack {
		for _, t := range prospector.RadarCategoryTypes(cat) {
			tracks[t] = true
		}
	}
	for _, f := range []struct {
		name, category, typ string
		given               *bool
		out                 *bool
	}{{"raised_funds", "funding", "funding_announcement", req.RaisedFunds, &c.RaisedFunds},
		{"recent_job_changes", "job_change", "job_change", req.RecentJobChanges, &c.RecentJobChanges}} {
		switch {
		case f.given == nil:
			*f.out = tracks[f.typ]
		case !*f.given && tracks[f.typ]:
			return filterErr(f.name, "false, but signals_to_track includes %s; leave one of them out", f.category)
		default:
			*f.out = *f.given
		}
	}
	kw, err := radarList("job_posting_keywords", req.JobPostingKeywords, maxRadarList, nil)
	if err != nil {
		return err
	}
	if len(kw) == 0 && tracks["company_hiring"] {
		kw = []string{"hiring"}
	}
	c.JobPostingKeywords = kw
	return nil
}

// refURL normalises a competitor or influencer URL: a profile or page
// URL, or a bare domain.
func refURL(name, v string) (string, error) {
	if u := prospector.NormalizeProfileURL(v); u != "" {
		return u, nil
	}
	if d := prospector.NormalizeDomain(v); d != "" && !strings.ContainsAny(strings.TrimSuffix(v, "/"), "/ ") {
		return "https://" + d, nil
	}
	return "", filterErr(name, "%q is not a URL or a domain", v)
}

// profileURL normalises an optional profile URL field.
func profileURL(field, v string) (string, error) {
	if v == "" {
		return "", nil
	}
	if utf8.RuneCountInString(v) > maxRadarText*5 {
		return "", filterErr(field, "at most %d characters", maxRadarText*5)
	}
	u := prospector.NormalizeProfileURL(v)
	if u == "" {
		return "", filterErr(field, "%q is not an http(s) profile URL", v)
	}
	return u, nil
}

// companyPages are the pages of a company profile a followers URL may
// name; the company is the URL without them.
var companyPages = map[string]bool{"followers": true, "people": true, "posts": true, "about": true, "jobs": true,
	"life": true, "insights": true, "videos": true, "events": true}

// followedCompany returns the company profile URL of a followers URL
// (network.example/company/acme/followers: network.example/company/acme).
func followedCompany(u string) string {
	if i := strings.LastIndexByte(u, '/'); i > len("https://") && companyPages[u[i+1:]] {
		return u[:i]
	}
	return u
}

// radarName generates a name: the first title, industry and geo (those
// given), else the tracked categories, else "Radar", and the day.
func radarName(c *prospector.RadarConfig, now time.Time) string {
	var parts []string
	for _, l := range [][]string{c.Titles, c.Industries, c.Geos} {
		if len(l) > 0 {
			parts = append(parts, l[0])
		}
	}
	label := strings.Join(parts, " · ")
	if label == "" && len(c.SignalsToTrack) > 0 {
		label = strings.Join(c.SignalsToTrack[:min(3, len(c.SignalsToTrack))], ", ") + " signals"
	}
	if label == "" {
		label = "Radar"
	}
	return label + " (" + now.UTC().Format(time.DateOnly) + ")"
}

// radarOf reads the path id and returns the caller's radar: 400 for an
// id that is not shaped like a radar id, 404 for an unknown one and for
// another workspace's.
func (s *Server) radarOf(r *http.Request) (*prospector.Radar, error) {
	id := r.PathValue("id")
	if !prospector.ValidRadarID(id) {
		return nil, filterErr("id", "%q is not a radar id (radar/create returns ids shaped rdr_ and 26 letters and digits)",
			truncate(id, 60))
	}
	radar, err := s.store.Radar(r.Context(), id)
	if errors.Is(err, prospector.ErrNotFound) || err == nil && radar.WorkspaceID != principal(r.Context()).Workspace.ID {
		return nil, prospector.Errorf(prospector.ENOTFOUND, "radar %s not found", id)
	}
	return radar, err
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "..."
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
func (s *Server) dateRange(q queryValues) (*time.Time, error) {
	v, err := q.get("date_range")
	if err != nil || v == "" {
		return nil, err
	}
	d, ok := dateRanges[v]
	if !ok {
		return nil, filterErr("date_range", "%q is not supported: use last_24_hours, last_7_days, last_30_days, last_90_days or all_time",
			truncate(v, 40))
	}
	if d == 0 {
		return nil, nil
	}
	since := s.now().Add(-d).UTC()
	return &since, nil
}

// radarLeads: GET /api/v1/radar/{id}/leads
func (s *Server) radarLeads(w http.ResponseWriter, r *http.Request) error {
	q, err := readQuery(r)
	if err != nil {
		return err
	}
	f := prospector.LeadFilter{Limit: maxRadarLeads}
	if f.MinScore, err = minScore(q); err != nil {
		return err
	}
	if f.Since, err = s.dateRange(q); err != nil {
		return err
	}
	radar, err := s.radarOf(r)
	if err != nil {
		return err
	}
	f.RadarID = radar.ID
	leads, err := s.store.RadarLeads(r.Context(), f)
	if err != nil {
		return err
	}
	ids := make([]string, len(leads))
	for i, l := range leads {
		ids[i] = l.ID
	}
	sigs, err := s.store.LeadSignals(r.Context(), ids, f.Since, leadContextLimit)
	if err != nil {
		return err
	}
	writeData(w, newRadarLeadRecords(leads, sigs))
	return nil
}

// minScore reads min_score: a number from 0 to 100.
func minScore(q queryValues) (*float64, error) {
	v, err := q.get("min_score")
	if err != nil || v == "" {
		return nil, err
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > 100 {
		return nil, filterErr("min_score", "must be a number from 0 to 100")
	}
	return &f, nil
}

// radarSignals: GET /api/v1/radar/{id}/signals
func (s *Server) radarSignals(w http.ResponseWriter, r *http.Request) error {
	q, err := readQuery(r)
	if err != nil {
		return err
	}
	since, err := s.dateRange(q)
	if err != nil {
		return err
	}
	radar, err := s.radarOf(r)
	if err != nil {
		return err
	}
	sigs, err := s.store.RadarSignals(r.Context(), radar.ID, since, maxRadarSignals)
	if err != nil {
		return err
	}
	out := make([]radarSignalRecord, 0, len(sigs))
	for _, sg := range sigs {
		out = append(out, newRadarSignalRecord(sg))
	}
	writeData(w, out)
	return nil
}

package wire

import "github.com/prospectorhq/prospector"

// Radar is a radar as GET /radar, GET /radar/{id} and PATCH /radar/{id}
// show it: what it is, what it has collected, and its rules in
// radar/create's members, so the rules can be sent back to PATCH with
// one changed.
type Radar struct {
	ID     string `json:"radar_id"`
	Name   string `json:"name"`
	Status string `json:"status"` // backfilling, active or paused
	// Leads and Signals count its leads and the signals attached to them.
	Leads   int64 `json:"leads"`
	Signals int64 `json:"signals"`
	// LastScanAt is when the engine last recorded progress for it.
	LastScanAt *string    `json:"last_scan_at"`
	PausedAt   *string    `json:"paused_at"`
	CreatedAt  string     `json:"created_at"`
	Rules      RadarRules `json:"rules"`
	// SignalTypes are the signal types the rules follow.
	SignalTypes []string `json:"signal_types"`
}

// RadarRules are a radar's stored configuration in radar/create's
// members, after normalisation: location and locations are merged into
// geos, and the size bounds are null unless they were given (then they
// filter).
type RadarRules struct {
	Titles               []string `json:"titles"`
	Industries           []string `json:"industries"`
	Geos                 []string `json:"geos"`
	SignalsToTrack       []string `json:"signals_to_track"`
	CompanySizeMin       *int64   `json:"company_size_min"`
	CompanySizeMax       *int64   `json:"company_size_max"`
	PainKeywords         []string `json:"pain_keywords"`
	CategoryKeywords     []string `json:"category_keywords"`
	CompetitorURLs       []string `json:"competitor_urls"`
	InfluencerURLs       []string `json:"influencer_urls"`
	ExcludeKeywords      []string `json:"exclude_keywords"`
	CompanyTypes         []string `json:"company_types"`
	CompanyNetworkURL    *string  `json:"company_network_url"`
	YourProfileURL       *string  `json:"your_profile_url"`
	TrackProfileVisitors bool     `json:"track_profile_visitors"`
	CompanyFollowersURL  *string  `json:"company_followers_url"`
	RaisedFunds          bool     `json:"raised_funds"`
	RecentJobChanges     bool     `json:"recent_job_changes"`
	JobPostingKeywords   []string `json:"job_posting_keywords"`
}

// NewRadar renders a radar with its counts.
func NewRadar(s *prospector.RadarSummary) Radar {
	c := &s.Config
	rules := RadarRules{
		Titles: OrEmpty(c.Titles), Industries: OrEmpty(c.Industries), Geos: OrEmpty(c.Geos),
		SignalsToTrack: OrEmpty(c.SignalsToTrack), PainKeywords: OrEmpty(c.PainKeywords),
		CategoryKeywords: OrEmpty(c.CategoryKeywords), CompetitorURLs: OrEmpty(c.CompetitorURLs),
		InfluencerURLs: OrEmpty(c.InfluencerURLs), ExcludeKeywords: OrEmpty(c.ExcludeKeywords),
		CompanyTypes: OrEmpty(c.CompanyTypes), CompanyNetworkURL: OrNull(c.CompanyNetworkURL),
		YourProfileURL: OrNull(c.YourProfileURL), TrackProfileVisitors: c.TrackProfileVisitors,
		CompanyFollowersURL: OrNull(c.CompanyFollowersURL), RaisedFunds: c.RaisedFunds,
		RecentJobChanges: c.RecentJobChanges, JobPostingKeywords: OrEmpty(c.JobPostingKeywords),
	}
	if c.SizeFilter {
		lo, hi := c.CompanySizeMin, c.CompanySizeMax
		rules.CompanySizeMin, rules.CompanySizeMax = &lo, &hi
	}
	return Radar{ID: s.ID, Name: s.Name, Status: s.Status(), Leads: s.Leads, Signals: s.Signals,
		LastScanAt: TimeOrNull(s.LastScanAt), PausedAt: TimeOrNull(s.PausedAt), CreatedAt: Timestamp(s.CreatedAt),
		Rules: rules, SignalTypes: OrEmpty(c.Types)}
}

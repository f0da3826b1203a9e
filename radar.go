package prospector

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"time"
)

// Job kinds of the radar engine (package radar): the backfill of one new
// radar over the data already stored, and the incremental scan of new
// signals for every radar.
const (
	JobRadarBackfill = "radar.backfill"
	JobRadarScan     = "radar.scan"
)

// RadarBackfillJob is the job that backfills a new radar; its dedupe key
// is the radar id, so a radar is never backfilled twice at once.
func RadarBackfillJob(radarID string) *Job {
	payload, _ := json.Marshal(map[string]string{"radar_id": radarID})
	return &Job{Kind: JobRadarBackfill, Key: radarID, Payload: payload, MaxAttempts: 10}
}

// RadarScanJob is the job that scans new signals for every radar; one
// dedupe key, so one scan runs at a time in a whole deployment.
func RadarScanJob() *Job { return &Job{Kind: JobRadarScan, Key: "scan", MaxAttempts: 10} }

// Radar is a persistent monitoring configuration: the radar engine turns
// the signals matching Config into leads of the workspace.
type Radar struct {
	ID          string // "rdr_" + 128 random bits, see NewRadarID
	WorkspaceID string
	Name        string
	Config      RadarConfig
	// Cursor is the id of the last signal the incremental scan processed
	// for this radar; it starts at BackfillThrough.
	Cursor int64
	// BackfillThrough is the highest signal id when the radar was
	// created: the backfill covers the signals up to it, the scan those
	// after it.
	BackfillThrough int64
	// BackfilledAt is set by the last write of a completed backfill.
	BackfilledAt *time.Time
	// PausedAt is when the radar was paused; nil while it runs. A paused
	// radar is neither backfilled nor scanned, and watches no company.
	PausedAt  *time.Time
	CreatedAt time.Time
}

// RadarConfig is a radar's configuration after validation and
// normalisation: every radar/create field with its aliases merged and its
// defaults applied (docs/decisions.md, "Radars").
type RadarConfig struct {
	Titles     []string `json:"titles"`
	Industries []string `json:"industries"` // canonical taxonomy labels
	// Geos are location, locations and geos merged, as normalised
	// strings ("US", "WORLD", "Berlin, DE"); Places is what they select,
	// empty when any location matches (no geos, or WORLD among them).
	Geos   []string `json:"geos"`
	Places []Place  `json:"places"`
	// SignalsToTrack are the categories as sent, normalised; Types are
	// the signal types the radar follows (see RadarSignalTypes).
	SignalsToTrack []string `json:"signals_to_track"`
	Types          []string `json:"types"`
	// CompanySizeMin and CompanySizeMax are the headcount range (defaults
	// 1 and 10000); SizeFilter is whether the caller gave either bound,
	// and so whether the range filters at all.
	CompanySizeMin   int64    `json:"company_size_min"`
	CompanySizeMax   int64    `json:"company_size_max"`
	SizeFilter       bool     `json:"size_filter"`
	PainKeywords     []string `json:"pain_keywords"`
	CategoryKeywords []string `json:"category_keywords"`
	CompetitorURLs   []string `json:"competitor_urls"`
	InfluencerURLs   []string `json:"influencer_urls"`
	ExcludeKeywords  []string `json:"exclude_keywords"`
	CompanyTypes     []string `json:"company_types"`
	// CompanyNetworkURL narrows the radar to one company, CompanyID.
	CompanyNetworkURL string `json:"company_network_url,omitempty"`
	CompanyID         int64  `json:"company_id,omitempty"`
	// CompanyFollowersURL targets the people who engage with a company:
	// FollowersCompanyURL is its profile URL, FollowersName its name.
	CompanyFollowersURL  string   `json:"company_followers_url,omitempty"`
	FollowersCompanyURL  string   `json:"followers_company_url,omitempty"`
	FollowersName        string   `json:"followers_name,omitempty"`
	YourProfileURL       string   `json:"your_profile_url,omitempty"`
	TrackProfileVisitors bool     `json:"track_profile_visitors"`
	RaisedFunds          bool     `json:"raised_funds"`
	RecentJobChanges     bool     `json:"recent_job_changes"`
	JobPostingKeywords   []string `json:"job_posting_keywords"`
}

// MarshalConfig encodes a radar configuration for storage.
func (c *RadarConfig) MarshalConfig() string {
	b, err := json.Marshal(c)
	if err != nil {
		panic("prospector: radar config: " + err.Error()) // plain data: cannot fail
	}
	return string(b)
}

// UnmarshalRadarConfig decodes a stored radar configuration.
func UnmarshalRadarConfig(s string) (RadarConfig, error) {
	var c RadarConfig
	err := json.Unmarshal([]byte(s), &c)
	return c, err
}

// radarCategories are the signals_to_track values and the signal types
// each follows. Every signal type is also accepted as a category of its
// own.
var radarCategories = []struct {
	name  string
	types []string
}{
	{"hiring", []string{"company_hiring"}},
	{"funding", []string{"funding_announcement"}},
	{"job_change", []string{"job_change"}},
	{"techstack", []string{"tech_changes"}},
	{"posts", []string{"keyword_post", "keyword_comment"}},
	{"keywords", []string{"keyword_post", "keyword_comment"}},
	{"engagement", []string{"competitor_engagement", "influencer_engagement"}},
	{"competitors", []string{"competitor_engagement"}},
	{"influencers", []string{"influencer_engagement"}},
	{"recommendations", []string{"asking_for_recommendations"}},
	{"events", []string{"event_rsvp"}},
}

// categoryAliases are other spellings of the categories.
var categoryAliases = map[string]string{
	"job_changes": "job_change", "jobs": "hiring", "job_postings": "hiring", "raised_funds": "funding",
	"fundraising": "funding", "tech_stack": "techstack", "technology": "techstack", "tech": "techstack",
	"post": "posts", "comments": "posts", "competitor": "competitors", "influencer": "influencers",
	"recommendation": "recommendations", "event": "events",
}

// RadarCategories lists the accepted signals_to_track values, for error
// messages and documentation.
func RadarCategories() []string {
	out := make([]string, 0, len(radarCategories))
	for _, c := range radarCategories {
		out = append(out, c.name)
	}
	return append(out, "or a signal type")
}

// NormalizeRadarCategory returns the canonical name of a signals_to_track
// value (case, spaces and dashes ignored) and ok false for an unknown one.
func NormalizeRadarCategory(s string) (string, bool) {
	k := strings.ToLower(strings.NewReplacer(" ", "_", "-", "_").Replace(strings.TrimSpace(s)))
	if a, ok := categoryAliases[k]; ok {
		k = a
	}
	for _, c := range radarCategories {
		if c.name == k {
			return k, true
		}
	}
	if ValidSignalType(k) {
		return k, true
	}
	return "", false
}

// RadarCategoryTypes returns the signal types of a canonical category.
func RadarCategoryTypes(category string) []string {
	for _, c := range radarCategories {
		if c.name == category {
			return c.types
		}
	}
	if ValidSignalType(category) {
		return []string{category}
	}
	return nil
}

// AllRadarSignalTypes are every type a radar can follow.
func AllRadarSignalTypes() []string { return append(SignalTypes(), "tech_changes") }

// RadarSignalTypes derives the types a configuration follows: the types
// of its categories, plus funding when RaisedFunds, job changes when
// RecentJobChanges and hiring when JobPostingKeywords are set. With none
// of those, the types its signal-specific filters imply (keywords: posts,
// comments and recommendations; competitor URLs and followers: competitor
// engagement; influencer URLs and followers: influencer engagement); with
// none of those either, every type.
func RadarSignalTypes(c *RadarConfig) []string {
	set := map[string]bool{}
	for _, cat := range c.SignalsToTrack {
		for _, t := range RadarCategoryTypes(cat) {
			set[t] = true
		}
	}
	if c.RaisedFunds {
		set["funding_announcement"] = true
	}
	if c.RecentJobChanges {
		set["job_change"] = true
	}
	if len(c.JobPostingKeywords) > 0 {
		set["company_hiring"] = true
	}
	if len(set) == 0 {
		if len(c.PainKeywords)+len(c.CategoryKeywords) > 0 {
			set["keyword_post"], set["keyword_comment"], set["asking_for_recommendations"] = true, true, true
		}
		if len(c.CompetitorURLs) > 0 || c.FollowersCompanyURL != "" {
			set["competitor_engagement"] = true
		}
		if len(c.InfluencerURLs) > 0 || c.FollowersCompanyURL != "" {
			set["influencer_engagement"] = true
		}
	}
	if len(set) == 0 {
		return AllRadarSignalTypes()
	}
	var out []string
	for _, t := range AllRadarSignalTypes() {
		if set[t] {
			out = append(out, t)
		}
	}
	return out
}

// HasFilter reports whether the configuration selects anything: the
// "at least one radar config filter" rule of radar/create. Names, the
// exclusions, company_types and the visitor-tracking fields do not count:
// alone, they would watch every signal in the data.
func (c *RadarConfig) HasFilter() bool {
	return len(c.Titles)+len(c.Industries)+len(c.Geos)+len(c.SignalsToTrack)+len(c.PainKeywords)+
		len(c.CategoryKeywords)+len(c.CompetitorURLs)+len(c.InfluencerURLs)+len(c.JobPostingKeywords) > 0 ||
		c.SizeFilter || c.CompanyNetworkURL != "" || c.CompanyFollowersURL != "" || c.RaisedFunds || c.RecentJobChanges
}

var radarIDShape = regexp.MustCompile(`^rdr_[a-z2-7]{26}$`)

// NewRadarID returns a new opaque, unguessable radar id.
func NewRadarID() string { return NewID("rdr") }

// ValidRadarID reports whether id has the shape NewRadarID gives; the API
// answers 400 for any other id and 404 for a well-formed unknown one.
func ValidRadarID(id string) bool { return radarIDShape.MatchString(id) }

// RadarBacklog is what the scheduler of the radar engine checks: whether
// new signals wait for the scan, and which radars still need a backfill.
type RadarBacklog struct {
	MaxSignalID int64 // highest signal id stored
	MinCursor   int64 // lowest cursor among the running radars (MaxSignalID without any)
	Radars      int   // running radars: paused ones are not counted
	// Unbackfilled are running radars whose backfill has not completed.
	Unbackfilled []string
}

// SignalRef is the narrow part of a signal a backfill reads first, to
// filter millions of rows without their text.
type SignalRef struct {
	ID         int64
	Type       string
	CompanyID  int64 // 0: none
	PersonID   int64 // 0: none
	DetectedAt time.Time
}

// BackfillScan selects the signals a backfill reads, newest first (by id,
// descending): ids at most Through and below Before (0: no bound),
// detected at or after Since, of Types (empty: any), at most Limit.
type BackfillScan struct {
	Through int64
	Before  int64
	Since   time.Time
	Types   []string
	Limit   int
}

// Radar statuses as listings show them.
const (
	RadarBackfilling = "backfilling" // its backfill over the stored signals has not completed
	RadarActive      = "active"      // backfilled; the scan keeps it up to date
	RadarPaused      = "paused"      // neither backfilled nor scanned until it is resumed
)

// RadarStatuses lists the statuses, for documentation and validation.
func RadarStatuses() []string { return []string{RadarBackfilling, RadarActive, RadarPaused} }

// Status is the radar's status: RadarPaused while paused, else
// RadarBackfilling until its backfill has completed, then RadarActive.
func (r *Radar) Status() string {
	switch {
	case r.PausedAt != nil:
		return RadarPaused
	case r.BackfilledAt == nil:
		return RadarBackfilling
	}
	return RadarActive
}

// RadarSummary is a radar with what it has collected, for listings.
type RadarSummary struct {
	Radar
	Leads   int64 // leads of the radar
	Signals int64 // signals attached to its leads (its radar/{id}/signals rows)
	// LastScanAt is when the radar engine last recorded progress for it
	// (a scan moving its cursor, or its backfill completing); nil when
	// it has recorded none yet. Changing the radar does not move it.
	LastScanAt *time.Time
}

// RadarStore persists radars and what the engine reads through them.
type RadarStore interface {
	// CreateRadar inserts r, whose ID, WorkspaceID, Name and Config the
	// caller sets. It fills CreatedAt, and Cursor and BackfillThrough with
	// the highest signal id stored, in the same statement. ErrNotFound
	// when the workspace does not exist.
	CreateRadar(ctx context.Context, r *Radar) error
	// CreateRadarInQuota creates a radar as a workspace does: it takes a
	// unit of the workspace's radar quota (QuotaRadars), inserts r as
	// CreateRadar does and enqueues backfill (its backfill job), all in
	// one transaction, so no failure or crash can keep the unit without
	// the radar, or the radar without its job. ErrQuotaExceeded at the
	// limit and ErrNotFound for an unknown workspace, with nothing
	// written; a validation error when backfill is not a valid job.
	CreateRadarInQuota(ctx context.Context, r *Radar, backfill *Job) error
	// Radar returns the radar with the id, whatever its workspace (callers
	// compare WorkspaceID); ErrNotFound when there is none.
	Radar(ctx context.Context, id string) (*Radar, error)
	// ListRadars returns every radar of every workspace, paused ones
	// included, oldest first.
	ListRadars(ctx context.Context) ([]*Radar, error)
	// RadarSummaries returns the workspace's radars with their counts,
	// oldest first; none for an unknown workspace.
	RadarSummaries(ctx context.Context, workspaceID string) ([]*RadarSummary, error)
	// RadarSummaryPage returns at most limit of the workspace's radars
	// with their counts, oldest first, after skipping offset, and how
	// many radars the workspace has in all.
	RadarSummaryPage(ctx context.Context, workspaceID string, offset, limit int) ([]*RadarSummary, int64, error)
	// RadarSummary returns one radar with its counts, whatever its
	// workspace; ErrNotFound when there is none.
	RadarSummary(ctx context.Context, id string) (*RadarSummary, error)
	// ChangeRadar applies c to the workspace's radar in one transaction
	// and returns the radar as stored after it (see RadarChange).
	// ErrNotFound, with nothing written, when the workspace has no such
	// radar; ErrRadarBackfilling, likewise, when c changes the rules of
	// a radar whose backfill has not completed.
	ChangeRadar(ctx context.Context, c *RadarChange, now time.Time) (*Radar, error)
	// DeleteRadar deletes the workspace's radar and gives its unit of the
	// radar quota back, in one transaction; its leads stay, detached
	// (see RadarDeletion). ErrNotFound, with nothing written, when the
	// workspace has no such radar.
	DeleteRadar(ctx context.Context, workspaceID, id string) (*RadarDeletion, error)
	// RadarBacklog reports the scan's position against the signals;
	// paused radars are not part of it.
	RadarBacklog(ctx context.Context) (RadarBacklog, error)
	// BackfillSignals reads the narrow rows of s, newest first.
	BackfillSignals(ctx context.Context, s BackfillScan) ([]SignalRef, error)
	// SignalsByID returns the signals with those ids, in no order.
	SignalsByID(ctx context.Context, ids []int64) ([]*Signal, error)
	// RadarSignalsUsed returns the radar signals the workspace has used in
	// the billing period starting at periodStart.
	RadarSignalsUsed(ctx context.Context, workspaceID string, periodStart time.Time) (int64, error)
}

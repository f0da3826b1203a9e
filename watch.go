package prospector

import (
	"context"
	"slices"
	"strings"
	"time"
)

// Watch is a company whose public sources Prospector polls: polling is
// opt-in, so nothing is fetched for a company nobody watches. A company
// is watched explicitly (watch add) or because a radar names it, for as
// long as that radar exists. The watch list is deployment-wide, like
// companies and signals.
type Watch struct {
	Domain    string
	CompanyID int64 // 0 until SyncWatches has created a company a radar named
	// Explicit is whether watch add named the domain; AddedBy and AddedAt
	// say who did and when (empty and zero otherwise).
	Explicit bool
	AddedBy  string
	AddedAt  time.Time
	// RadarIDs are the radars whose configuration names the company.
	RadarIDs []string
	// Boards and Feeds are the targets given with --board and --feed.
	Boards []BoardRef
	Feeds  []string
}

// BoardRef names one job board: the vendor's kind and the board token.
type BoardRef struct {
	Kind  string
	Token string
}

func (b BoardRef) String() string { return b.Kind + ":" + b.Token }

// ParseBoardRef reads a --board value, KIND:TOKEN ("greenhouse:acme").
// The kind is lower-cased; it returns an EINVALID naming board for
// anything else.
func ParseBoardRef(s string) (BoardRef, error) {
	kind, token, ok := strings.Cut(strings.TrimSpace(s), ":")
	b := BoardRef{Kind: strings.ToLower(kind), Token: token}
	t := SourceTarget{Kind: TargetBoard, Board: b.Kind, Ref: b.Token, Origin: OriginFlag, CompanyID: 1}
	if !ok {
		return BoardRef{}, Errorf(EINVALID, "board: %q is not KIND:TOKEN", s)
	}
	if err := t.Validate(); err != nil {
		return BoardRef{}, err
	}
	return b, nil
}

// WatchRequest is one domain given to watch add, with its boards and
// feeds.
type WatchRequest struct {
	Domain  string // normalised (NormalizeDomain)
	Boards  []BoardRef
	Feeds   []string
	AddedBy string
}

// Validate returns an EINVALID naming what is malformed.
func (r *WatchRequest) Validate() error {
	if r.Domain == "" || NormalizeDomain(r.Domain) != r.Domain {
		return Errorf(EINVALID, "domain: %q is not a normalised domain", r.Domain)
	}
	if err := checkText("added_by", r.AddedBy); err != nil {
		return err
	}
	for _, b := range r.Boards {
		t := SourceTarget{Kind: TargetBoard, Board: b.Kind, Ref: b.Token, Origin: OriginFlag, CompanyID: 1}
		if err := t.Validate(); err != nil {
			return err
		}
	}
	for _, f := range r.Feeds {
		if err := checkWebURL("feed", f); err != nil {
			return err
		}
	}
	return nil
}

// Targets returns the targets a watch request adds for the company with
// that id: its homepage, then its boards and feeds as flags.
func (r *WatchRequest) Targets(companyID int64) []*SourceTarget {
	ts := []*SourceTarget{HomepageTarget(companyID, r.Domain, OriginWatch)}
	for _, b := range r.Boards {
		ts = append(ts, &SourceTarget{CompanyID: companyID, Domain: r.Domain, Kind: TargetBoard, Board: b.Kind,
			Ref: b.Token, Origin: OriginFlag})
	}
	for _, f := range r.Feeds {
		ts = append(ts, &SourceTarget{CompanyID: companyID, Domain: r.Domain, Kind: TargetFeed, Ref: f,
			Origin: OriginFlag})
	}
	return ts
}

// WatchAdded is what AddWatches did for one request.
type WatchAdded struct {
	Domain     string
	CompanyID  int64
	NewWatch   bool // false when the domain was already watched explicitly
	NewCompany bool // the store did not know the domain
	NewTargets int
	// Suppressed is true when the domain is on the suppression list:
	// nothing was watched or stored.
	Suppressed bool
}

// WatchSync is what SyncWatches did.
type WatchSync struct {
	RadarWatchesAdded   int
	RadarWatchesRemoved int
	CompaniesCreated    int
	TargetsCreated      int
	// Suppressed counts the watched domains (by radars or the watch
	// list) on the suppression list: no company is made for them.
	Suppressed int
}

// RadarRefs are the companies one radar's configuration names, as
// RadarWatchRefs returns them.
type RadarRefs struct {
	CompanyIDs           []int64
	Domains, ProfileURLs []string
}

// RadarWatch is one domain one radar watches (a row of radar_watches).
type RadarWatch struct{ Radar, Domain string }

// PlanRadarWatches is the rule both engines apply in SyncWatches: the
// watches the radars' references give (refs by radar id; company ids and
// profile URLs count through the domains the store resolved them to, and
// name nothing when it resolved none), against those stored (have): what
// to add and what to drop.
func PlanRadarWatches(refs map[string]RadarRefs, byID map[int64]string, byURL map[string]string,
	have map[RadarWatch]bool) (add, drop []RadarWatch) {
	want := map[RadarWatch]bool{}
	for radar, r := range refs {
		for _, id := range r.CompanyIDs {
			if d, ok := byID[id]; ok {
				want[RadarWatch{radar, d}] = true
			}
		}
		for _, d := range r.Domains {
			want[RadarWatch{radar, d}] = true
		}
		for _, u := range r.ProfileURLs {
			if d, ok := byURL[u]; ok {
				want[RadarWatch{radar, d}] = true
			}
		}
	}
	for w := range have {
		if !want[w] {
			drop = append(drop, w)
		}
	}
	for w := range want {
		if !have[w] {
			add = append(add, w)
		}
	}
	return add, drop
}

// RadarWatchRefs returns the companies a radar's configuration names, so
// watches them: the company it targets (company_network_url, resolved
// to CompanyID at creation), the company whose followers it targets, and
// its competitors. A competitor given as a bare domain is kept as a
// domain; one given as a page URL is a profile URL, which counts only
// when a stored company has it.
func RadarWatchRefs(c *RadarConfig) (companyIDs []int64, domains, profileURLs []string) {
	if c.CompanyID > 0 {
		companyIDs = append(companyIDs, c.CompanyID)
	}
	if c.FollowersCompanyURL != "" {
		profileURLs = append(profileURLs, c.FollowersCompanyURL)
	}
	for _, u := range c.CompetitorURLs {
		rest, ok := strings.CutPrefix(u, "https://")
		if ok && !strings.Contains(rest, "/") {
			if d := NormalizeDomain(rest); d != "" {
				domains = append(domains, d)
			}
			continue
		}
		profileURLs = append(profileURLs, u)
	}
	slices.Sort(domains)
	return companyIDs, slices.Compact(domains), profileURLs
}

// NewWatchedCompany is the company record of a watched domain the store
// does not know: its domain, its website, and the domain as a stand-in
// name until a source learns the real one (see EnsureCompanies).
func NewWatchedCompany(domain, name string) *Company {
	if name == "" {
		name = domain
	}
	return &Company{Domain: domain, Name: name, Website: "https://" + domain}
}

// ValidateEnsured returns an EINVALID unless c can be given to
// EnsureCompanies: a normalised domain, and a name without a NUL byte.
func ValidateEnsured(c *Company) error {
	if c.Domain == "" || NormalizeDomain(c.Domain) != c.Domain {
		return Errorf(EINVALID, "domain: %q is not a normalised domain", c.Domain)
	}
	return checkText("name", c.Name)
}

// WatchStore keeps the watch list.
type WatchStore interface {
	// AddWatches watches each request's domain, in one transaction:
	// creates the company when the store does not know the domain
	// (NewWatchedCompany, through the company upsert so the search index
	// sees it), and adds its homepage target and a target per board and
	// feed (AddTargets). Adding a watched domain again keeps its first
	// AddedBy and AddedAt and adds any new boards and feeds. EINVALID,
	// with nothing written, when a request is malformed.
	AddWatches(ctx context.Context, reqs []WatchRequest, now time.Time) ([]WatchAdded, error)
	// RemoveWatches stops watching the domains explicitly and returns how
	// many were watched so. A company a radar names stays watched; the
	// targets, openings and technologies of the company are kept (they
	// are not polled while nobody watches it).
	RemoveWatches(ctx context.Context, domains []string) (int, error)
	// Watches returns every watched domain, explicit or through a radar,
	// by domain, as of the last SyncWatches for radars.
	Watches(ctx context.Context) ([]*Watch, error)
	// SyncWatches brings the radar watches up to date with the radars
	// (RadarWatchRefs of each), then makes sure every watched domain has
	// a company (NewWatchedCompany) and a homepage target. It is
	// idempotent and cheap when nothing changed: the poll cycle runs it
	// first, and so should anything that lists the watch list.
	SyncWatches(ctx context.Context, now time.Time) (WatchSync, error)
	// EnsureCompanies creates the companies whose domains the store does
	// not know (each Domain normalised; Name may be empty) and fills
	// every company's ID. A known company is left alone, except that a
	// Name given for a company still named after its domain replaces
	// that stand-in. It returns how many companies it created.
	EnsureCompanies(ctx context.Context, cs []*Company) (int, error)
}

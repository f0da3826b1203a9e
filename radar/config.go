package radar

import (
	"math"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
	"github.com/prospectorhq/prospector/taxonomy"
)

// Bounds of a radar's configuration (docs/decisions.md, "Radars").
const (
	maxRadarList   = 50            // titles, industries, locations, geos, keywords and URL lists
	maxRadarShort  = 20            // signals_to_track and company_types
	maxRadarText   = input.MaxText // characters of a name or of one list value
	defaultSizeMin = 1
	defaultSizeMax = 10000
)

// CreateRequest is what a radar watches for: POST /radar/create's body,
// whose JSON members are its fields' tags. Create validates and
// normalises it (docs/decisions.md, "Radars").
type CreateRequest struct {
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

// config validates and normalises every field of the request except the
// company lookups and the name.
func (req *CreateRequest) config() (*prospector.RadarConfig, error) {
	c := &prospector.RadarConfig{}
	var err error
	if c.Titles, err = radarList("titles", req.Titles, maxRadarList, nil); err != nil {
		return nil, err
	}
	if len(req.Industries) > maxRadarList {
		return nil, input.Errorf("industries", "at most %d values", maxRadarList)
	}
	if c.Industries, err = input.Industries("industries", req.Industries); err != nil {
		return nil, err
	}
	if c.Geos, c.Places, err = radarGeos(req); err != nil {
		return nil, err
	}
	if c.SignalsToTrack, err = radarList("signals_to_track", req.SignalsToTrack, maxRadarShort,
		func(name, v string) (string, error) {
			cat, ok := prospector.NormalizeRadarCategory(v)
			if !ok {
				return "", input.Errorf(name, "unknown signal category %q: use one of %s", v,
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
	if c.CompanyNetworkURL, err = profileURL("company_network_url", input.Str(req.CompanyNetworkURL)); err != nil {
		return nil, err
	}
	if c.CompanyFollowersURL, err = profileURL("company_followers_url", input.Str(req.CompanyFollowersURL)); err != nil {
		return nil, err
	}
	c.FollowersCompanyURL = followedCompany(c.CompanyFollowersURL)
	if c.YourProfileURL, err = profileURL("your_profile_url", input.Str(req.YourProfileURL)); err != nil {
		return nil, err
	}
	c.TrackProfileVisitors = req.TrackProfileVisitors != nil && *req.TrackProfileVisitors
	return c, radarSignalDefaults(req, c)
}

// radarList is normList (which bounds each value's length) with the
// radar's bound on the number of values; norm may be nil.
func radarList(field string, vs []string, bound int, norm func(name, v string) (string, error)) ([]string, error) {
	if len(vs) > bound {
		return nil, input.Errorf(field, "at most %d values", bound)
	}
	return input.NormList(field, vs, func(name, v string) (string, error) {
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
func radarGeos(req *CreateRequest) (geos []string, places []prospector.Place, err error) {
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
	if loc := input.Str(req.Location); loc != "" {
		if err := input.Len("location", loc, maxRadarText); err != nil {
			return nil, nil, err
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
		return nil, nil, input.Errorf("geos", "at most %d values with location and locations merged", maxRadarList)
	}
	if world {
		places = nil
	}
	return geos, places, nil
}

// geo reads one location value as input.Places does: two letters are an ISO
// code; else a country name, WORLD, or a place with an optional country.
func geo(name, v string) (string, prospector.Place, bool, error) {
	if len(v) == 2 {
		code, ok := taxonomy.NormalizeCountry(strings.ToUpper(v))
		if !ok || code == taxonomy.WorldCode {
			return "", prospector.Place{}, false, input.Errorf(name,
				"unknown country code %q: use an ISO 3166-1 alpha-2 code, a country or place name, or WORLD", v)
		}
		return code, prospector.Place{Country: code}, false, nil
	}
	countries, ps, _, err := input.Location(name, v)
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
func radarSizes(req *CreateRequest, c *prospector.RadarConfig) error {
	minSize, err := input.Bounded("company_size_min", req.CompanySizeMin, 1, math.MaxInt32, defaultSizeMin)
	if err != nil {
		return err
	}
	maxSize, err := input.Bounded("company_size_max", req.CompanySizeMax, 1, math.MaxInt32, defaultSizeMax)
	if err != nil {
		return err
	}
	if minSize > maxSize {
		return input.Errorf("company_size_min", "%d is above company_size_max %d", minSize, maxSize)
	}
	c.CompanySizeMin, c.CompanySizeMax = int64(minSize), int64(maxSize)
	c.SizeFilter = req.CompanySizeMin != nil || req.CompanySizeMax != nil
	return nil
}

// radarSignalDefaults applies raised_funds, recent_job_changes and
// job_posting_keywords with their defaults.
func radarSignalDefaults(req *CreateRequest, c *prospector.RadarConfig) error {
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
			return input.Errorf(f.name, "false, but signals_to_track includes %s; leave one of them out", f.category)
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
// URL, or a bare domain, with or without a scheme ("https://acme.example"
// is how a domain is stored, and GET /radar/{id} shows it).
func refURL(name, v string) (string, error) {
	if u := prospector.NormalizeProfileURL(v); u != "" {
		return u, nil
	}
	host := strings.TrimSuffix(v, "/")
	for _, scheme := range []string{"https://", "http://"} {
		if len(host) > len(scheme) && strings.EqualFold(host[:len(scheme)], scheme) {
			host = host[len(scheme):]
		}
	}
	if d := prospector.NormalizeDomain(host); d != "" && !strings.ContainsAny(host, "/ ") {
		return "https://" + d, nil
	}
	return "", input.Errorf(name, "%q is not a URL or a domain", v)
}

// profileURL normalises an optional profile URL field.
func profileURL(field, v string) (string, error) {
	if v == "" {
		return "", nil
	}
	if err := input.Len(field, v, input.MaxURLText); err != nil {
		return "", err
	}
	u := prospector.NormalizeProfileURL(v)
	if u == "" {
		return "", input.Errorf(field, "%q is not an http(s) profile URL", v)
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

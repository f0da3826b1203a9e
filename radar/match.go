package radar

import (
	"slices"
	"strings"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

// matcher is a radar's configuration compiled for matching
// (docs/decisions.md, "Radars"):
//
//   - types: the signal types the radar follows;
//   - company: the one company of company_network_url, industries, the
//     size range when one was given (headcount when known, else the size
//     bucket must overlap it; unknown sizes fail), and no exclude keyword
//     in the company's name;
//   - text: no exclude keyword in the signal's title or detail; hiring
//     signals need a job posting keyword, posts, comments and
//     recommendations a pain or category keyword (when given), competitor
//     and influencer engagement a reference to a competitor or
//     influencer URL or the followed company (when given);
//   - person: the person's title matches a title (when given), they are
//     in a geo (when given) and their title has no exclude keyword.
type matcher struct {
	radar      *prospector.Radar
	types      map[string]bool
	companyID  int64
	industries map[string]bool
	sizeFilter bool
	sizeMin    int64
	sizeMax    int64
	exclude    []phrase // in text words
	exTitles   []phrase // the same in title words, as the index reads ExcludeTitles
	jobWords   []phrase
	keywords   []phrase
	competitor []ref
	influencer []ref
	titles     []phrase // without repeats (same words in any order), as the index counts them
	places     []place
	// query asks the index for the people pick chooses.
	query prospector.PersonQuery
}

// maxPerCompany bounds the people a company signal becomes leads for.
const maxPerCompany = 3

// decisionLevels are the levels a company signal goes to when the radar
// names no titles.
var decisionLevels = []string{"Founder", "CXO", "VP", "Director", "Head"}

func compile(r *prospector.Radar) *matcher {
	c := &r.Config
	m := &matcher{radar: r, types: map[string]bool{}, companyID: c.CompanyID, industries: map[string]bool{},
		sizeFilter: c.SizeFilter, sizeMin: c.CompanySizeMin, sizeMax: c.CompanySizeMax,
		exclude:  phrases(c.ExcludeKeywords, taxonomy.TextTokens),
		exTitles: phrases(c.ExcludeKeywords, taxonomy.TitleTokens),
		jobWords: phrases(c.JobPostingKeywords, taxonomy.TextTokens),
		keywords: phrases(append(append([]string(nil), c.PainKeywords...), c.CategoryKeywords...), taxonomy.TextTokens),
		titles:   distinct(phrases(c.Titles, taxonomy.TitleTokens)),
		places:   places(c.Places),
	}
	if m.sizeMin <= 0 {
		m.sizeMin = 1
	}
	if m.sizeMax <= 0 {
		m.sizeMax = 10000
	}
	types := c.Types
	if len(types) == 0 {
		types = prospector.RadarSignalTypes(c)
	}
	for _, t := range types {
		m.types[t] = true
	}
	for _, i := range c.Industries {
		m.industries[i] = true
	}
	for _, u := range c.CompetitorURLs {
		m.competitor = append(m.competitor, newRef(u, ""))
	}
	for _, u := range c.InfluencerURLs {
		m.influencer = append(m.influencer, newRef(u, ""))
	}
	if c.FollowersCompanyURL != "" {
		f := newRef(c.FollowersCompanyURL, c.FollowersName)
		m.competitor, m.influencer = append(m.competitor, f), append(m.influencer, f)
	}
	m.query = prospector.PersonQuery{Titles: c.Titles, Locations: c.Places, ExcludeTitles: c.ExcludeKeywords}
	if len(c.Titles) == 0 {
		m.query.Levels = decisionLevels
	}
	return m
}

// distinct drops phrases with the same words as an earlier one ("VP
// Sales", "Sales VP"), so a person matching both counts once.
func distinct(ps []phrase) []phrase {
	var out []phrase
	seen := map[string]bool{}
	for _, p := range ps {
		k := slices.Sorted(slices.Values(p))
		if key := strings.Join(k, " "); !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	return out
}

// pick chooses the people a company signal goes to among the company's
// members, given in the index's order (seniority, then id): those in the
// radar's geos and without an excluded word in their title who match the
// most of its titles, or, when it names none, its decision makers (the
// levels Founder, CXO, VP, Director and Head); at most maxPerCompany.
// This is what CompanyPeople answers for m.query, computed from the
// members' cards, so that when several radars fan out at one company the
// index is asked once rather than once per radar.
func (m *matcher) pick(members []*personInfo) []int64 {
	type cand struct {
		id     int64
		titles int
	}
	var cands []cand
	for _, p := range members {
		if len(m.places) > 0 && !m.inPlaces(p) || len(m.exTitles) > 0 && anyIn(m.exTitles, p.titleWords) {
			continue
		}
		n := 0
		for _, t := range m.titles {
			if t.in(p.titleWords) {
				n++
			}
		}
		if len(m.titles) > 0 && n == 0 || len(m.titles) == 0 && taxonomy.RoleOf(p.level()) != taxonomy.RoleDecisionMaker {
			continue
		}
		cands = append(cands, cand{p.card.ID, n})
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return b.titles - a.titles })
	out := make([]int64, 0, min(len(cands), maxPerCompany))
	for _, c := range cands[:min(len(cands), maxPerCompany)] {
		out = append(out, c.id)
	}
	return out
}

// companyOK applies the company filters; co is nil when the signal has
// no company or the company is unknown.
func (m *matcher) companyOK(co *companyInfo) bool {
	if co == nil {
		return m.companyID == 0 && len(m.industries) == 0 && !m.sizeFilter
	}
	if m.companyID != 0 && co.id != m.companyID {
		return false
	}
	if len(m.industries) > 0 && !m.industries[co.industry] {
		return false
	}
	if m.sizeFilter {
		lo, hi, ok := co.size()
		if !ok || hi < m.sizeMin || lo > m.sizeMax {
			return false
		}
	}
	return len(m.exclude) == 0 || !anyIn(m.exclude, co.nameWords)
}

// textOK applies the exclusions and the per-type text filters.
func (m *matcher) textOK(s *sigInfo) bool {
	need := len(m.exclude) > 0
	switch s.Type {
	case "company_hiring":
		need = need || len(m.jobWords) > 0
	case "keyword_post", "keyword_comment", "asking_for_recommendations":
		need = need || len(m.keywords) > 0
	case "competitor_engagement":
		need = need || len(m.competitor) > 0
	case "influencer_engagement":
		need = need || len(m.influencer) > 0
	}
	if !need {
		return true
	}
	ws := s.words()
	if len(m.exclude) > 0 && anyInText(m.exclude, ws) {
		return false
	}
	switch s.Type {
	case "company_hiring":
		return len(m.jobWords) == 0 || anyInText(m.jobWords, ws)
	case "keyword_post", "keyword_comment", "asking_for_recommendations":
		return len(m.keywords) == 0 || anyInText(m.keywords, ws)
	case "competitor_engagement":
		return len(m.competitor) == 0 || anyRef(m.competitor, s.SourceURL, ws)
	case "influencer_engagement":
		return len(m.influencer) == 0 || anyRef(m.influencer, s.SourceURL, ws)
	}
	return true
}

// needsText reports whether textOK reads the text of signals of type t.
func (m *matcher) needsText(t string) bool {
	switch {
	case len(m.exclude) > 0:
		return true
	case t == "company_hiring":
		return len(m.jobWords) > 0
	case t == "keyword_post", t == "keyword_comment", t == "asking_for_recommendations":
		return len(m.keywords) > 0
	case t == "competitor_engagement":
		return len(m.competitor) > 0
	case t == "influencer_engagement":
		return len(m.influencer) > 0
	}
	return false
}

func anyRef(rs []ref, sourceURL string, ws []string) bool {
	for _, r := range rs {
		if r.match(sourceURL, ws) {
			return true
		}
	}
	return false
}

// hasPersonFilter reports whether personOK can refuse anyone.
func (m *matcher) hasPersonFilter() bool {
	return len(m.titles) > 0 || len(m.places) > 0 || len(m.exclude) > 0
}

// personOK applies the person filters to the person of a person signal.
func (m *matcher) personOK(p *personInfo) bool {
	if len(m.titles) > 0 && !anyIn(m.titles, p.titleWords) {
		return false
	}
	if len(m.places) > 0 && !m.inPlaces(p) {
		return false
	}
	return len(m.exTitles) == 0 || !anyIn(m.exTitles, p.titleWords)
}

func (m *matcher) inPlaces(p *personInfo) bool {
	for _, pl := range m.places {
		if pl.match(p.card.CountryCode, p.where) {
			return true
		}
	}
	return false
}

// companyInfo is what the filters read of a company.
type companyInfo struct {
	id        int64
	card      *prospector.Company
	industry  string
	nameWords []string
}

func newCompanyInfo(c *prospector.Company) *companyInfo {
	return &companyInfo{id: c.ID, card: c, industry: c.Industry, nameWords: taxonomy.TextTokens(c.Name)}
}

// size returns the headcount range: the exact count when known, else the
// size bucket's bounds.
func (co *companyInfo) size() (lo, hi int64, ok bool) {
	if n := co.card.EmployeeCount; n != nil && *n > 0 {
		return *n, *n, true
	}
	return taxonomy.EmployeeRangeBounds(co.card.EmployeeRange)
}

// personInfo is what the filters and the score read of a person.
type personInfo struct {
	card       *prospector.Person
	titleWords []string // title tokens, abbreviations expanded
	where      []string // city and region words
	lvl        *string
}

// level is the person's job level, parsed from the title as imports do.
func (p *personInfo) level() string {
	if p.lvl == nil {
		l := taxonomy.ParseTitle(p.card.Title).Level
		p.lvl = &l
	}
	return *p.lvl
}

func newPersonInfo(p *prospector.Person) *personInfo {
	return &personInfo{card: p, titleWords: taxonomy.TitleTokens(p.Title),
		where: taxonomy.TextTokens(p.City + " " + p.Region)}
}

// sigInfo is a signal as the engine sees it: the backfill fills the text
// fields only for signals whose filters read them.
type sigInfo struct {
	prospector.SignalRef
	Title, Detail, SourceURL string
	ws                       []string
}

// words returns the words of the signal's title and detail, once.
func (s *sigInfo) words() []string {
	if s.ws == nil {
		s.ws = taxonomy.TextTokens(s.Title + " " + s.Detail)
	}
	return s.ws
}

func newSigInfo(s *prospector.Signal) *sigInfo {
	si := &sigInfo{Title: s.Title, Detail: s.Detail, SourceURL: s.SourceURL}
	si.ID, si.Type, si.DetectedAt = s.ID, s.Type, s.DetectedAt
	if s.CompanyID != nil {
		si.CompanyID = *s.CompanyID
	}
	if s.PersonID != nil {
		si.PersonID = *s.PersonID
	}
	return si
}

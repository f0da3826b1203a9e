package radar

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/taxonomy"
)

// world is a small synthetic dataset (fake names, .example domains) in a
// temp-dir SQLite store, its search index and an engine over both, with
// a clock fixed at now.
type world struct {
	t      *testing.T
	dir    string
	st     prospector.Store
	ix     *search.Index
	eng    *Engine
	ws     *prospector.Workspace
	now    time.Time
	co     map[string]*prospector.Company
	people map[string]*prospector.Person
	sigs   map[string]*prospector.Signal // by external id
	byID   map[int64]string              // signal id -> external id
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{t: t, dir: t.TempDir()}
	w.open()
	return w.init()
}

// newWorldOn is a world on another store (PostgreSQL); it cannot reopen.
func newWorldOn(t *testing.T, st prospector.Store) *world {
	t.Helper()
	w := &world{t: t, st: st, ix: search.New(st)}
	w.eng = &Engine{Store: st, Searcher: w.ix, Now: func() time.Time { return w.now }, Logger: quiet}
	return w.init()
}

func (w *world) init() *world {
	w.now = time.Now().UTC().Truncate(time.Second)
	w.co, w.people = map[string]*prospector.Company{}, map[string]*prospector.Person{}
	w.sigs, w.byID = map[string]*prospector.Signal{}, map[int64]string{}
	t := w.t
	w.ws = &prospector.Workspace{Name: "radar-world", Plan: prospector.PlanGrowth, PublicAPI: true} // unlimited quotas
	if err := w.st.CreateWorkspace(context.Background(), w.ws); err != nil {
		t.Fatal(err)
	}
	return w
}

// open opens the store in w.dir with a fresh index and engine, as a
// restarted node would.
func (w *world) open() {
	w.t.Helper()
	st, err := sqlite.Open(context.Background(), w.dir)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() {
		if w.st == prospector.Store(st) { // not closed by close
			st.Close()
		}
	})
	w.st, w.ix = st, search.New(st)
	w.eng = &Engine{Store: st, Searcher: w.ix, Now: func() time.Time { return w.now }, Logger: quiet}
	w.sync()
}

func (w *world) close() {
	w.t.Helper()
	if err := w.st.Close(); err != nil {
		w.t.Fatal(err)
	}
	w.st = nil
}

func (w *world) sync() {
	w.t.Helper()
	if _, err := w.ix.Sync(context.Background()); err != nil {
		w.t.Fatal(err)
	}
}

func i64(n int64) *int64 { return &n }

// quiet is the engines' logger in tests.
var quiet = slog.New(slog.DiscardHandler)

// seedCompanies and seedPeople add the fixture's accounts and people.
func (w *world) seedCompanies() {
	w.t.Helper()
	cs := []*prospector.Company{
		{Name: "Acme Analytics", Domain: "acme.example", Industry: "Software Development", City: "Austin", Region: "Texas",
			CountryCode: "US", EmployeeCount: i64(120), EmployeeRange: "51-200", NetworkURL: "https://network.example/company/acme-analytics"},
		{Name: "Borealis Bank", Domain: "borealis.example", Industry: "Banking", City: "Berlin", CountryCode: "DE",
			EmployeeRange: "1001-5000", NetworkURL: "https://network.example/company/borealis-bank"},
		{Name: "Cinder Staffing Agency", Domain: "cinder.example", Industry: "Staffing and Recruiting", City: "London",
			Region: "England", CountryCode: "GB", EmployeeCount: i64(8), EmployeeRange: "1-10"},
		{Name: "Dune Robotics", Domain: "dune.example", Industry: "Software Development", City: "San Francisco",
			Region: "California", CountryCode: "US"},
	}
	if _, err := w.st.UpsertCompanies(context.Background(), cs); err != nil {
		w.t.Fatal(err)
	}
	for _, c := range cs {
		w.co[strings.Fields(c.Name)[0]] = c
	}
}

func (w *world) seedPeople() {
	w.t.Helper()
	type def struct{ name, title, co, city, region, country string }
	defs := []def{
		{"Ava Stone", "VP of Sales", "Acme", "Austin", "Texas", "US"},
		{"Ben Ortiz", "Chief Executive Officer", "Acme", "Austin", "Texas", "US"},
		{"Cara Lind", "Account Executive", "Acme", "Austin", "Texas", "US"},
		{"Dev Patel", "Head of Marketing", "Acme", "Austin", "Texas", "US"},
		{"Eli Brook", "Director of Sales", "Acme", "New York", "New York", "US"},
		{"Finn Weber", "Vice President, Sales", "Borealis", "Berlin", "", "DE"},
		{"Gus Roth", "Software Engineer", "Borealis", "Berlin", "", "DE"},
		{"Hana Reid", "Founder", "Cinder", "London", "England", "GB"},
		{"Ivo Marsh", "Recruiter", "Cinder", "London", "England", "GB"},
		{"Jade Cole", "VP Sales", "Dune", "San Francisco", "California", "US"},
	}
	var ps []*prospector.Person
	for _, d := range defs {
		c := w.co[d.co]
		first, last := prospector.SplitName(d.name)
		url := "https://network.example/in/" + strings.ToLower(strings.ReplaceAll(d.name, " ", "-"))
		p := &prospector.Person{ExternalID: strings.ToLower(first), FullName: d.name, FirstName: first, LastName: last,
			Title: d.title, CompanyID: &c.ID, CompanyName: c.Name, CompanyDomain: c.Domain, NetworkURL: url,
			City: d.city, Region: d.region, CountryCode: d.country}
		ps = append(ps, p)
		w.people[first] = p
	}
	// ParseTitle fills the level the index ranks by, as the importer does.
	for _, p := range ps {
		t := taxonomy.ParseTitle(p.Title)
		p.JobLevel, p.JobFunction = t.Level, t.Function
	}
	if _, err := w.st.UpsertPeople(context.Background(), ps); err != nil {
		w.t.Fatal(err)
	}
}

// sig is a signal definition: the company's first word, the person's
// first name (or ""), and the age in days.
type sig struct {
	ext, typ, co, person, title, detail, source string
	days                                        float64
}

// fixtureSignals are the signals of the matching tests.
var fixtureSignals = []sig{
	{"s1", "company_hiring", "Acme", "", "Hiring 3 account executives", "Openings on the careers page.", "https://news.example/jobs/1", 2},
	{"s2", "funding_announcement", "Borealis", "", "Raised a $20M Series B", "Led by Example Ventures.", "https://news.example/articles/2", 5},
	{"s3", "job_change", "Acme", "Ava", "Started as VP of Sales at Acme Analytics", "Previously at Dune Robotics.", "https://news.example/people/3", 1},
	{"s4", "keyword_post", "Borealis", "Finn", "Posted about sales forecasting accuracy", "The post drew 40 reactions.", "https://news.example/posts/4", 3},
	{"s5", "competitor_engagement", "Acme", "Cara", "Engaged with a post from Pipewell CRM", "Liked Pipewell CRM's roadmap post.", "https://news.example/posts/5", 4},
	{"s6", "competitor_engagement", "Acme", "Eli", "Engaged with a competitor post", "Commented on a product update.", "https://enrichbase.example/blog/roadmap", 4},
	{"s7", "influencer_engagement", "Dune", "Jade", "Engaged with Ada Quill's post on pipeline reviews", "Reacted and replied.", "https://news.example/posts/7", 6},
	{"s8", "tech_changes", "Dune", "", "Adopted Snowflake", "Engineering blog mentions Snowflake.", "https://news.example/tech/8", 10},
	{"s9", "asking_for_recommendations", "Cinder", "Hana", "Asked for recommendations for a sales forecasting tool", "12 replies.", "https://news.example/posts/9", 2},
	{"s10", "company_hiring", "Cinder", "", "Hiring interns", "A summer internship program.", "https://news.example/jobs/10", 1},
	{"s11", "event_rsvp", "Acme", "Dev", "RSVP'd to Pipeline Summit 2026 in Austin", "Registered as an attendee.", "https://news.example/events/11", 7},
	{"s12", "job_change", "Borealis", "Gus", "Started as Software Engineer at Borealis Bank", "", "https://news.example/people/12", 120},
	{"s13", "keyword_comment", "Cinder", "Ivo", "Commented on a post about recruiting pipelines", "Replied in a thread.", "https://news.example/posts/13", 3},
	{"s14", "influencer_engagement", "Cinder", "Hana", "Engaged with Borealis Bank's post on open banking", "Reacted.", "https://news.example/posts/14", 2},
}

func (w *world) seedSignals(defs []sig) {
	w.t.Helper()
	var ss []*prospector.Signal
	for _, d := range defs {
		c := w.co[d.co]
		s := &prospector.Signal{ExternalID: d.ext, Type: d.typ, CompanyID: &c.ID, CompanyDomain: c.Domain, Title: d.title,
			Detail: d.detail, SourceURL: d.source, DetectedAt: w.now.Add(-time.Duration(d.days * 24 * float64(time.Hour)))}
		if d.person != "" {
			p := w.people[d.person]
			s.PersonID, s.PersonKey = &p.ID, p.NaturalKey()
		}
		ss = append(ss, s)
	}
	if _, err := w.st.UpsertSignals(context.Background(), ss); err != nil {
		w.t.Fatal(err)
	}
	for _, s := range ss {
		w.sigs[s.ExternalID], w.byID[s.ID] = s, s.ExternalID
	}
}

// radar creates a radar of the world's workspace with config c, its
// types derived as radar/create derives them.
func (w *world) radar(name string, c prospector.RadarConfig) *prospector.Radar {
	w.t.Helper()
	if c.CompanySizeMin == 0 {
		c.CompanySizeMin, c.CompanySizeMax = 1, 10000
	}
	c.Types = prospector.RadarSignalTypes(&c)
	r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: w.ws.ID, Name: name, Config: c}
	if err := w.st.CreateRadar(context.Background(), r); err != nil {
		w.t.Fatal(err)
	}
	return r
}

// leads returns a radar's lead-signal pairs as sorted "First:ext" words.
func (w *world) leads(r *prospector.Radar) string {
	w.t.Helper()
	ctx := context.Background()
	ls, err := w.st.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: 1000})
	if err != nil {
		w.t.Fatal(err)
	}
	ids := make([]string, len(ls))
	for i, l := range ls {
		ids[i] = l.ID
	}
	sigs, err := w.st.LeadSignals(ctx, ids, nil, 1000)
	if err != nil {
		w.t.Fatal(err)
	}
	var out []string
	for _, s := range sigs {
		first, _ := prospector.SplitName(s.LeadName)
		out = append(out, first+":"+w.byID[s.SignalID])
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// lead returns a radar's lead for the person with that first name.
func (w *world) lead(r *prospector.Radar, first string) *prospector.Lead {
	w.t.Helper()
	ls, err := w.st.RadarLeads(context.Background(), prospector.LeadFilter{RadarID: r.ID, Limit: 1000})
	if err != nil {
		w.t.Fatal(err)
	}
	for _, l := range ls {
		if strings.HasPrefix(l.FullName, first+" ") {
			return l
		}
	}
	w.t.Fatalf("no lead %s in radar %s", first, r.Name)
	return nil
}

func (w *world) backfill(r *prospector.Radar) Stats {
	w.t.Helper()
	st, err := w.eng.BackfillRadar(context.Background(), r.ID)
	if err != nil {
		w.t.Fatalf("backfill %s: %v", r.Name, err)
	}
	return st
}

func (w *world) scan() Stats {
	w.t.Helper()
	st, err := w.eng.ScanOnce(context.Background())
	if err != nil {
		w.t.Fatalf("scan: %v", err)
	}
	return st
}

func pairs(ps ...string) string {
	slices.Sort(ps)
	return strings.Join(ps, " ")
}

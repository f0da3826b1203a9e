package radar

import (
	"context"
	"fmt"
	"testing"

	"github.com/prospectorhq/prospector"
)

// matchCases cover every matching rule of docs/decisions.md ("Radars"),
// one configuration field at a time, against fixtureSignals. want lists
// the radar's lead-signal pairs as "First:signal". s12 is older than the
// window, so no radar ever sees it.
var matchCases = []struct {
	name string
	c    prospector.RadarConfig
	want string
}{
	{"titles: word-aware, person signals and company signals' people",
		prospector.RadarConfig{Titles: []string{"VP Sales"}},
		pairs("Ava:s1", "Ava:s3", "Finn:s2", "Finn:s4", "Jade:s7", "Jade:s8")},
	{"signals_to_track hiring: company signals go to the top three decision makers",
		prospector.RadarConfig{SignalsToTrack: []string{"hiring"}, JobPostingKeywords: []string{"hiring"}},
		pairs("Ben:s1", "Ava:s1", "Eli:s1", "Hana:s10")},
	{"industries",
		prospector.RadarConfig{Industries: []string{"Software Development"}, SignalsToTrack: []string{"job_change", "engagement"},
			RecentJobChanges: true},
		pairs("Ava:s3", "Cara:s5", "Eli:s6", "Jade:s7")},
	{"geos: a place with its country",
		prospector.RadarConfig{Geos: []string{"Berlin, DE"}, Places: []prospector.Place{{Country: "DE", Name: "Berlin"}},
			SignalsToTrack: []string{"posts", "funding"}, RaisedFunds: true},
		pairs("Finn:s2", "Finn:s4")},
	{"geos: a country",
		prospector.RadarConfig{Geos: []string{"GB"}, Places: []prospector.Place{{Country: "GB"}}, SignalsToTrack: []string{"recommendations", "keywords"}},
		pairs("Hana:s9", "Ivo:s13")},
	{"geos: WORLD matches anywhere",
		prospector.RadarConfig{Geos: []string{"WORLD"}, Titles: []string{"Recruiter"}},
		pairs("Ivo:s10", "Ivo:s13")},
	{"company size: headcount within the range",
		prospector.RadarConfig{SizeFilter: true, CompanySizeMin: 50, CompanySizeMax: 500,
			SignalsToTrack: []string{"hiring", "funding", "techstack"}, JobPostingKeywords: []string{"hiring"}, RaisedFunds: true},
		pairs("Ben:s1", "Ava:s1", "Eli:s1")},
	{"company size: a bucket overlapping the range; unknown sizes fail",
		prospector.RadarConfig{SizeFilter: true, CompanySizeMin: 1000, CompanySizeMax: 10000,
			SignalsToTrack: []string{"funding", "techstack"}, RaisedFunds: true},
		pairs("Finn:s2")},
	{"pain_keywords imply posts, comments and recommendations",
		prospector.RadarConfig{PainKeywords: []string{"forecasting"}},
		pairs("Finn:s4", "Hana:s9")},
	{"category_keywords match plurals",
		prospector.RadarConfig{CategoryKeywords: []string{"pipeline"}},
		pairs("Ivo:s13")},
	{"exclude_keywords in the signal's text",
		prospector.RadarConfig{SignalsToTrack: []string{"hiring"}, JobPostingKeywords: []string{"hiring"}, ExcludeKeywords: []string{"intern"}},
		pairs("Ben:s1", "Ava:s1", "Eli:s1")},
	{"exclude_keywords in the company's name",
		prospector.RadarConfig{SignalsToTrack: []string{"hiring"}, JobPostingKeywords: []string{"hiring"}, ExcludeKeywords: []string{"staffing"}},
		pairs("Ben:s1", "Ava:s1", "Eli:s1")},
	{"exclude_keywords in the person's title",
		prospector.RadarConfig{Titles: []string{"sales"}, ExcludeKeywords: []string{"director"}, SignalsToTrack: []string{"job_change", "engagement"},
			RecentJobChanges: true},
		pairs("Ava:s3", "Jade:s7")}, // Eli, Director of Sales, is left out
	{"competitor_urls: the source URL is under the competitor's",
		prospector.RadarConfig{CompetitorURLs: []string{"https://enrichbase.example"}},
		pairs("Eli:s6")},
	{"competitor_urls: the text names the competitor",
		prospector.RadarConfig{CompetitorURLs: []string{"https://pipewellcrm.example"}},
		pairs("Cara:s5")},
	{"influencer_urls: the text names the influencer of the profile",
		prospector.RadarConfig{InfluencerURLs: []string{"https://network.example/in/ada-quill-8f3a2c1d"}},
		pairs("Jade:s7")},
	{"company_followers_url: engagement with the followed company",
		prospector.RadarConfig{CompanyFollowersURL: "https://network.example/company/borealis-bank/followers",
			FollowersCompanyURL: "https://network.example/company/borealis-bank", FollowersName: "Borealis Bank"},
		pairs("Hana:s14")},
	{"job_posting_keywords imply hiring and filter it",
		prospector.RadarConfig{JobPostingKeywords: []string{"account executive"}},
		pairs("Ben:s1", "Ava:s1", "Eli:s1")},
	{"raised_funds alone",
		prospector.RadarConfig{RaisedFunds: true},
		pairs("Finn:s2")},
	{"recent_job_changes alone",
		prospector.RadarConfig{RecentJobChanges: true},
		pairs("Ava:s3")},
	{"techstack and events",
		prospector.RadarConfig{SignalsToTrack: []string{"techstack", "events"}},
		pairs("Jade:s8", "Dev:s11")},
}

// TestMatching runs every case twice: a radar created before the data
// and filled by the incremental scan, and one created after it and
// filled by its backfill. Both must find exactly the same leads.
func TestMatching(t *testing.T) {
	w := newWorld(t)
	w.seedCompanies()
	w.seedPeople()
	w.sync()
	acme := w.co["Acme"]
	cases := append(matchCases, struct {
		name string
		c    prospector.RadarConfig
		want string
	}{"company_network_url: one company",
		prospector.RadarConfig{CompanyNetworkURL: acme.NetworkURL, CompanyID: acme.ID},
		pairs("Ben:s1", "Ava:s1", "Eli:s1", "Ava:s3", "Cara:s5", "Eli:s6", "Dev:s11")})
	scanned := make([]*prospector.Radar, len(cases))
	for i, c := range cases {
		scanned[i] = w.radar("scan "+c.name, c.c)
	}
	w.seedSignals(fixtureSignals)
	backfilled := make([]*prospector.Radar, len(cases))
	for i, c := range cases {
		backfilled[i] = w.radar("backfill "+c.name, c.c)
		w.backfill(backfilled[i])
	}
	if st := w.scan(); st.Signals != len(fixtureSignals) {
		t.Fatalf("scan read %d signals, want %d", st.Signals, len(fixtureSignals))
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := w.leads(backfilled[i]); got != c.want {
				t.Errorf("backfill: %q\n                   want %q", got, c.want)
			}
			if got := w.leads(scanned[i]); got != c.want {
				t.Errorf("scan:     %q\n                   want %q", got, c.want)
			}
		})
	}
}

// The radar's title matching agrees with the search index's.
func TestTitleMatchAgreesWithIndex(t *testing.T) {
	w := newWorld(t)
	w.seedCompanies()
	w.seedPeople()
	w.sync()
	ctx := context.Background()
	for _, title := range []string{"VP Sales", "Vice President of Sales", "sales", "Head of Marketing", "Chief Executive Officer",
		"SVP Sales", "Director", "Software Engineer", "recruiter", "of the"} {
		m := compile(&prospector.Radar{Config: prospector.RadarConfig{Titles: []string{title}}})
		for _, co := range w.co {
			ids, err := w.ix.CompanyPeople(ctx, co.ID, prospector.PersonQuery{Titles: []string{title}})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range w.people {
				if *p.CompanyID != co.ID {
					continue
				}
				inIndex := false
				for _, id := range ids {
					inIndex = inIndex || id == p.ID
				}
				if ours := m.personOK(newPersonInfo(p)); ours != inIndex {
					t.Errorf("title %q, person %q: radar says %v, index says %v", title, p.Title, ours, inIndex)
				}
			}
		}
	}
}

// The people a company signal goes to are those CompanyPeople returns
// first for the same query.
func TestPickAgreesWithIndex(t *testing.T) {
	w := newWorld(t)
	w.seedCompanies()
	w.seedPeople()
	w.sync()
	ctx := context.Background()
	decision := []string{"Founder", "CXO", "VP", "Director", "Head"}
	for _, c := range []prospector.RadarConfig{
		{},
		{Titles: []string{"Sales"}},
		{Titles: []string{"VP Sales", "Sales", "Sales VP"}},
		{Titles: []string{"Director", "Head", "Sales"}},
		{Places: []prospector.Place{{Country: "US", Name: "Austin"}}},
		{Titles: []string{"sales"}, ExcludeKeywords: []string{"director"}},
		{Places: []prospector.Place{{Country: "DE"}}, Titles: []string{"engineer", "vp"}},
	} {
		m := compile(&prospector.Radar{Config: c})
		q := prospector.PersonQuery{Titles: c.Titles, Locations: c.Places, ExcludeTitles: c.ExcludeKeywords}
		if len(c.Titles) == 0 {
			q.Levels = decision
		}
		cards := w.eng.newCards()
		for _, co := range w.co {
			want, err := w.ix.CompanyPeople(ctx, co.ID, q)
			if err != nil {
				t.Fatal(err)
			}
			want = want[:min(len(want), maxPerCompany)]
			members, err := cards.members(ctx, co.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.pick(members); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%+v at %s: picked %v, index %v", c, co.Name, got, want)
			}
		}
	}
}

func TestRefNames(t *testing.T) {
	for _, c := range []struct {
		url, name string
		want      []string
	}{
		{"https://enrichbase.example", "", []string{"enrichbase"}},
		{"pipewell-crm.example", "", []string{"pipewell", "crm"}},
		{"https://network.example/in/ada-quill-8f3a2c1d", "", []string{"ada", "quill"}},
		{"https://network.example/company/acme-labs", "", []string{"acme", "labs"}},
		{"https://network.example/company/acme-labs", "Acme Laboratories Inc", []string{"acme", "laboratories", "inc"}},
	} {
		r := newRef(c.url, c.name)
		if len(r.name) != len(c.want) {
			t.Errorf("%s: name %v, want %v", c.url, r.name, c.want)
			continue
		}
		for i := range c.want {
			if r.name[i] != c.want[i] {
				t.Errorf("%s: name %v, want %v", c.url, r.name, c.want)
			}
		}
	}
	r := newRef("https://enrichbase.example/blog", "")
	for src, want := range map[string]bool{
		"https://enrichbase.example/blog/post-1": true, "https://www.enrichbase.example/blog": true,
		"https://enrichbase.example/blogger": false, "https://enrichbase.example/": false, "": false,
	} {
		if got := r.match(src, nil); got != want {
			t.Errorf("source %q under %s: %v, want %v", src, "enrichbase.example/blog", got, want)
		}
	}
}

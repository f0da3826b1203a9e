package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/email"
	"github.com/prospectorhq/prospector/taxonomy"
)

var testNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// memSink keeps everything and numbers companies and people from 1.
type memSink struct {
	companies  []*prospector.Company
	people     []*prospector.Person
	signals    []*prospector.Signal
	news       []*prospector.NewsEvent
	financings []*prospector.FinancingEvent
	fail       error // returned by Signals when set
}

func (s *memSink) Companies(_ context.Context, cs []*prospector.Company) error {
	for _, c := range cs {
		s.companies = append(s.companies, c)
		c.ID = int64(len(s.companies))
	}
	return nil
}

func (s *memSink) People(_ context.Context, ps []*prospector.Person) error {
	for _, p := range ps {
		s.people = append(s.people, p)
		p.ID = int64(len(s.people))
	}
	return nil
}

func (s *memSink) Signals(_ context.Context, ss []*prospector.Signal) error {
	if s.fail != nil {
		return s.fail
	}
	s.signals = append(s.signals, ss...)
	return nil
}

func (s *memSink) NewsEvents(_ context.Context, es []*prospector.NewsEvent) error {
	s.news = append(s.news, es...)
	return nil
}

func (s *memSink) FinancingEvents(_ context.Context, es []*prospector.FinancingEvent) error {
	s.financings = append(s.financings, es...)
	return nil
}

func generate(t testing.TB, companies, people int, seed int64) *memSink {
	t.Helper()
	s := &memSink{}
	if err := Generate(context.Background(), Config{companies, people, seed, testNow}, s, nil); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGenerateTotals(t *testing.T) {
	for _, tc := range []struct{ companies, people int }{
		{50, 400}, {1, 1}, {1, 7000}, {10, 0}, {0, 0}, {2500, 3000}, {1200, 30000},
	} {
		s := &memSink{}
		var last Progress
		calls := 0
		err := Generate(context.Background(), Config{tc.companies, tc.people, 1, testNow}, s, func(p Progress) {
			last = p
			calls++
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.companies) != tc.companies || len(s.people) != tc.people {
			t.Errorf("%+v: got %d companies, %d people", tc, len(s.companies), len(s.people))
		}
		want := Progress{len(s.companies), len(s.people), len(s.signals), len(s.news), len(s.financings)}
		if last != want {
			t.Errorf("%+v: last progress %+v, want %+v", tc, last, want)
		}
		if wantCalls := (tc.companies + chunkCompanies - 1) / chunkCompanies; calls != wantCalls {
			t.Errorf("%+v: %d progress calls, want %d", tc, calls, wantCalls)
		}
		perCompany := map[int64]int64{}
		for _, p := range s.people {
			perCompany[*p.CompanyID]++
		}
		for _, c := range s.companies {
			if n := perCompany[c.ID]; n > *c.EmployeeCount {
				t.Errorf("%+v: %s has %d people but %d employees", tc, c.Domain, n, *c.EmployeeCount)
			}
		}
	}
}

func TestGenerateDeterministic(t *testing.T) {
	dump := func(seed int64) []byte {
		s := generate(t, 300, 3000, seed)
		b, err := json.Marshal([]any{s.companies, s.people, s.signals, s.news, s.financings})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b := dump(7), dump(7)
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with the same Config differ")
	}
	if bytes.Equal(a, dump(8)) {
		t.Fatal("a different seed gives the same data")
	}
}

func TestGenerateCoverage(t *testing.T) {
	s := generate(t, 300, 3000, 3)
	types := map[string]int{}
	for _, sg := range s.signals {
		types[sg.Type]++
	}
	for _, typ := range append(prospector.SignalTypes(), "tech_changes") {
		if types[typ] == 0 {
			t.Errorf("no %s signal", typ)
		}
	}
	if len(types) != len(prospector.SignalTypes())+1 {
		t.Errorf("signal types %v", types)
	}
	perPerson := float64(len(s.signals)-types["company_hiring"]-types["funding_announcement"]-types["tech_changes"]) / 3000
	perCompany := float64(types["company_hiring"]+types["funding_announcement"]+types["tech_changes"]) / 300
	if perPerson < 0.2 || perPerson > 0.3 || perCompany < 1.7 || perCompany > 2.3 {
		t.Errorf("%.2f signals a person, %.2f company signals a company", perPerson, perCompany)
	}
	if n := float64(len(s.news)) / 300; n < 1.3 || n > 1.7 {
		t.Errorf("%.2f news events a company", n)
	}
	if n := float64(len(s.financings)) / 300; n < 0.2 || n > 0.45 {
		t.Errorf("%.2f financing events a company", n)
	}

	families := map[string]int{}
	for _, p := range s.people {
		ic := true
		for _, f := range []string{"VP", "Head of", "Founder", "Co-founder", "Chief", "Director", "Manager"} {
			if strings.Contains(p.Title, f) {
				families[f]++
				ic = false
			}
		}
		if ic {
			families["IC"]++
		}
	}
	for _, f := range []string{"VP", "Head of", "Founder", "Chief", "Director", "Manager", "IC"} {
		if families[f] == 0 {
			t.Errorf("no %s title in %v", f, families)
		}
	}
	if families["IC"] < families["Manager"] || families["Manager"] < families["VP"] {
		t.Errorf("titles are not a pyramid: %v", families)
	}

	industries, countries, ranges := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, c := range s.companies {
		industries[c.Industry] = true
		countries[c.CountryCode] = true
		ranges[c.EmployeeRange] = true
	}
	if len(industries) < 20 || len(countries) < 15 || len(ranges) < 6 {
		t.Errorf("%d industries, %d countries, %d ranges", len(industries), len(countries), len(ranges))
	}
}

func TestGenerateReferences(t *testing.T) {
	s := generate(t, 1500, 12000, 5)
	companies := map[int64]*prospector.Company{}
	for _, c := range s.companies {
		companies[c.ID] = c
	}
	people := map[int64]*prospector.Person{}
	for _, p := range s.people {
		people[p.ID] = p
		c := companies[*p.CompanyID]
		if c == nil || p.CompanyName != c.Name || p.CompanyDomain != c.Domain {
			t.Fatalf("person %s points at company %d", p.ExternalID, *p.CompanyID)
		}
		if p.JobLevel != "" || p.JobFunction != "" || p.Score != nil || p.Title == "" {
			t.Fatalf("person %+v", p)
		}
	}
	from, until := testNow.Add(-window), testNow
	inWindow := func(at time.Time) bool { return !at.Before(from) && !at.After(until) }
	ids := map[string]bool{}
	unique := func(id string) {
		if ids[id] {
			t.Fatalf("external id %s twice", id)
		}
		ids[id] = true
	}
	person := map[string]bool{"keyword_post": true, "keyword_comment": true, "competitor_engagement": true,
		"influencer_engagement": true, "asking_for_recommendations": true, "job_change": true, "event_rsvp": true}
	for _, sg := range s.signals {
		unique(sg.ExternalID)
		if !prospector.ValidSignalType(sg.Type) || !inWindow(sg.DetectedAt) || sg.Title == "" || sg.Detail == "" ||
			!strings.HasPrefix(sg.SourceURL, "https://news.example/") || sg.Score == nil || *sg.Score < 0 || *sg.Score > 100 {
			t.Fatalf("signal %+v", sg)
		}
		c := companies[*sg.CompanyID]
		if c == nil || c.Domain != sg.CompanyDomain {
			t.Fatalf("signal %s points at company %d", sg.ExternalID, *sg.CompanyID)
		}
		if person[sg.Type] {
			p := people[*sg.PersonID]
			if p == nil || sg.PersonKey != p.NaturalKey() || *p.CompanyID != c.ID {
				t.Fatalf("signal %s points at person %d", sg.ExternalID, *sg.PersonID)
			}
		} else if sg.PersonID != nil || sg.PersonKey != "" {
			t.Fatalf("company signal %s has a person", sg.ExternalID)
		}
	}
	for _, e := range s.news {
		unique(e.ExternalID)
		if c := companies[e.CompanyID]; c == nil || c.Domain != e.CompanyDomain || !inWindow(e.FoundAt) ||
			e.EventType != "news_event" || len(e.Categories) != 1 {
			t.Fatalf("news event %+v", e)
		}
		if e.EffectiveDate > day(e.FoundAt) {
			t.Fatalf("news event %s effective %s after found %s", e.ExternalID, e.EffectiveDate, e.FoundAt)
		}
	}
	for _, e := range s.financings {
		unique(e.ExternalID)
		if c := companies[e.CompanyID]; c == nil || c.Domain != e.CompanyDomain || !inWindow(e.FoundAt) ||
			e.EventType != "financing_event" || len(e.SourceURLs) == 0 || len(e.Investors) == 0 || len(e.Investors) > 4 {
			t.Fatalf("financing event %+v", e)
		}
		if e.EffectiveDate > day(e.FoundAt) || (e.Amount == "") != (e.AmountNormalized == nil) {
			t.Fatalf("financing event %+v", e)
		}
		for _, inv := range e.Investors {
			if !strings.HasPrefix(inv.ID, "investor-") || !strings.HasSuffix(*inv.Domain, ".example") || inv.Ticker != nil {
				t.Fatalf("investor %+v", inv)
			}
		}
	}
}

func TestGenerateEmails(t *testing.T) {
	s := generate(t, 400, 8000, 11)
	patterns := map[string]map[email.Pattern]bool{} // by company domain: patterns every email so far fits
	emails := map[string]bool{}
	known := 0
	for _, p := range s.people {
		if p.Email == "" {
			continue
		}
		known++
		if emails[p.Email] {
			t.Fatalf("email %s twice", p.Email)
		}
		emails[p.Email] = true
		local, domain, _ := strings.Cut(p.Email, "@")
		if domain != p.CompanyDomain {
			t.Fatalf("%s at %s", p.Email, p.CompanyDomain)
		}
		fits := map[email.Pattern]bool{}
		for _, pat := range demoPatterns {
			if pat.Local(foldEmail(p.FirstName), foldEmail(p.LastName)) == local {
				fits[pat] = true
			}
		}
		if prev, ok := patterns[domain]; ok {
			for pat := range fits {
				if !prev[pat] {
					delete(fits, pat)
				}
			}
		}
		if len(fits) == 0 {
			t.Fatalf("%s (%s) breaks the pattern of %s", p.Email, p.FullName, domain)
		}
		patterns[domain] = fits
	}
	if share := float64(known) / float64(len(s.people)); share < 0.25 || share > 0.32 {
		t.Errorf("%.2f of people have a known email", share)
	}
}

func TestGenerateUnique(t *testing.T) {
	s := generate(t, 20000, 20000, 2)
	domains, urls := map[string]bool{}, map[string]bool{}
	suffixed := 0
	for _, c := range s.companies {
		if !strings.HasSuffix(c.Domain, ".example") || prospector.NormalizeDomain(c.Domain) != c.Domain ||
			c.Website != "https://www."+c.Domain || domains[c.Domain] {
			t.Fatalf("company domain %q", c.Domain)
		}
		domains[c.Domain] = true
		if c.Domain[len(c.Domain)-len(".example")-1] <= '9' {
			suffixed++
		}
		if c.NetworkURL != "" {
			if prospector.NormalizeProfileURL(c.NetworkURL) != c.NetworkURL || urls[c.NetworkURL] ||
				!strings.HasPrefix(c.NetworkURL, "https://network.example/company/") {
				t.Fatalf("company url %q", c.NetworkURL)
			}
			urls[c.NetworkURL] = true
		}
		if c.EmployeeRange != employeeRange(*c.EmployeeCount) || len(c.Keywords) < 3 || len(c.Keywords) > 8 {
			t.Fatalf("company %+v", c)
		}
	}
	if suffixed > len(s.companies)/20 {
		t.Errorf("%d of %d domains needed a numeric suffix", suffixed, len(s.companies))
	}
	for _, p := range s.people {
		if p.NetworkURL == "" {
			continue
		}
		if prospector.NormalizeProfileURL(p.NetworkURL) != p.NetworkURL || urls[p.NetworkURL] ||
			!strings.HasPrefix(p.NetworkURL, "https://network.example/in/") {
			t.Fatalf("person url %q", p.NetworkURL)
		}
		urls[p.NetworkURL] = true
	}
}

func TestGenerateSkew(t *testing.T) {
	s := generate(t, 2000, 20000, 4)
	perCompany := map[int64]int{}
	for _, p := range s.people {
		perCompany[*p.CompanyID]++
	}
	var small, big, nSmall, nBig int
	for _, c := range s.companies {
		switch {
		case *c.EmployeeCount <= 50:
			small += perCompany[c.ID]
			nSmall++
		case *c.EmployeeCount > 1000:
			big += perCompany[c.ID]
			nBig++
		}
	}
	if nSmall == 0 || nBig == 0 || float64(big)/float64(nBig) < 5*float64(small)/float64(nSmall) {
		t.Errorf("small companies average %d/%d people, big ones %d/%d", small, nSmall, big, nBig)
	}
}

func TestNewsAttributes(t *testing.T) {
	s := generate(t, 300, 0, 9)
	categories := map[string]bool{}
	for _, e := range s.news {
		categories[e.Categories[0]] = true
		a := e.Attributes
		if a.AssetsTags == nil || a.FinancingTypeTags == nil || a.JobTitleTags == nil || a.ProductTags == nil || a.LocationData == nil {
			t.Fatalf("nil list in %+v", a)
		}
		if a.Summary == nil || a.ArticleSentence == nil || a.Confidence == nil || *a.Confidence < 0.5 || *a.Confidence > 1 {
			t.Fatalf("attributes %+v", a)
		}
		switch e.Categories[0] {
		case "launches", "integrates_with":
			if a.Product == nil || a.ProductData.Name == nil {
				t.Fatalf("%s without product", e.ExternalID)
			}
		case "expands_offices_to":
			if a.Location == nil || len(a.LocationData) != 1 {
				t.Fatalf("%s without location", e.ExternalID)
			}
		case "hires":
			if a.JobTitle == nil || len(a.JobTitleTags) == 0 {
				t.Fatalf("%s without job title", e.ExternalID)
			}
		case "increases_headcount_by":
			if a.Headcount == nil {
				t.Fatalf("%s without headcount", e.ExternalID)
			}
		case "receives_award":
			if a.Award == nil {
				t.Fatalf("%s without award", e.ExternalID)
			}
		}
	}
	for _, c := range []string{"launches", "partners_with", "integrates_with", "hires", "expands_offices_to", "receives_award"} {
		if !categories[c] {
			t.Errorf("no %s news", c)
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	ctx := context.Background()
	for _, cfg := range []Config{{Companies: -1, Now: testNow}, {People: 5, Now: testNow}, {Companies: 5}} {
		if err := Generate(ctx, cfg, &memSink{}, nil); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
	boom := errors.New("boom")
	if err := Generate(ctx, Config{10, 100, 1, testNow}, &memSink{fail: boom}, nil); !errors.Is(err, boom) {
		t.Errorf("sink error: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := Generate(cancelled, Config{10, 100, 1, testNow}, &memSink{}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestTables(t *testing.T) {
	if !slices.Equal(rangeLabels, taxonomy.EmployeeRanges()) {
		t.Errorf("ranges %v, taxonomy %v", rangeLabels, taxonomy.EmployeeRanges())
	}
	if len(taxonomy.JobLevels()) != numLevels || len(taxonomy.JobFunctions()) != numFunctions {
		t.Error("levels or functions out of step with the taxonomy")
	}
	for lv := lvCXO; lv < numLevels; lv++ {
		for fn := range numFunctions {
			if len(titles[lv][fn]) == 0 {
				t.Errorf("no title for level %d function %d", lv, fn)
			}
		}
	}
	// Brands must be unique strings so that counting (brand, noun) pairs
	// counts domains.
	brands := map[string]bool{}
	for _, h := range brandHeads {
		for _, tl := range brandTails {
			b := strings.ToLower(h + tl)
			if brands[b] {
				t.Errorf("brand %s twice", b)
			}
			brands[b] = true
		}
	}
	for _, f := range investorFirst {
		if brands[strings.ToLower(strings.ReplaceAll(f, " ", ""))] {
			t.Errorf("investor %s looks like a company brand", f)
		}
	}
	for _, n := range append(slices.Clone(firstNames), lastNames...) {
		if n.email == "" || n.slug == "" || strings.Trim(n.email, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
			t.Errorf("name %+v", n)
		}
	}
	if len(firstNames) < 300 || len(lastNames) < 300 {
		t.Errorf("%d first names, %d last names", len(firstNames), len(lastNames))
	}
	for _, n := range nouns {
		if strings.ContainsAny(n, " -") {
			t.Errorf("noun %q is not one word", n)
		}
	}
}

// discardSink numbers items and drops them.
type discardSink struct{ companies, people int64 }

func (s *discardSink) Companies(_ context.Context, cs []*prospector.Company) error {
	for _, c := range cs {
		s.companies++
		c.ID = s.companies
	}
	return nil
}

func (s *discardSink) People(_ context.Context, ps []*prospector.Person) error {
	for _, p := range ps {
		s.people++
		p.ID = s.people
	}
	return nil
}

func (*discardSink) Signals(context.Context, []*prospector.Signal) error                 { return nil }
func (*discardSink) NewsEvents(context.Context, []*prospector.NewsEvent) error           { return nil }
func (*discardSink) FinancingEvents(context.Context, []*prospector.FinancingEvent) error { return nil }

func BenchmarkGenerate(b *testing.B) {
	cfg := Config{Companies: 2000, People: 20000, Seed: 1, Now: testNow}
	b.ReportAllocs()
	for b.Loop() {
		if err := Generate(context.Background(), cfg, &discardSink{}, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cfg.People)*float64(b.N)/b.Elapsed().Seconds(), "people/s")
}

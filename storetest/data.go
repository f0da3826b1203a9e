package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

func runData(t *testing.T, open Opener) {
	t.Run("Companies", func(t *testing.T) { testCompanies(t, open(t)) })
	t.Run("CompaniesLargeBatch", func(t *testing.T) { testCompaniesLargeBatch(t, open(t)) })
	t.Run("People", func(t *testing.T) { testPeople(t, open(t)) })
	t.Run("MissingParents", func(t *testing.T) { testMissingParents(t, open(t)) })
	t.Run("Signals", func(t *testing.T) { testSignals(t, open(t)) })
	t.Run("Events", func(t *testing.T) { testEvents(t, open(t)) })
	t.Run("ChangeSequence", func(t *testing.T) { testChangeSequence(t, open(t)) })
	runBulk(t, open)
}

func i64(n int64) *int64     { return &n }
func f64(n float64) *float64 { return &n }
func str(s string) *string   { return &s }
func boolp(b bool) *bool     { return &b }

// utc parses a time literal of the suite; a malformed one is a bug of
// the suite itself.
func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic("storetest: " + err.Error())
	}
	return t.UTC()
}
func wantRes(t *testing.T, what string, got prospector.UpsertResult, err error, ins, upd, unch int) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if got != (prospector.UpsertResult{Inserted: ins, Updated: upd, Unchanged: unch}) {
		t.Fatalf("%s: %+v, want inserted %d updated %d unchanged %d", what, got, ins, upd, unch)
	}
}

func sampleCompanies() []*prospector.Company {
	return []*prospector.Company{
		{Name: "Acme Robotics", Domain: "acme-robotics.example", Website: "https://www.acme-robotics.example",
			Industry: "Software Development", Description: "Robots for warehouses.", Keywords: []string{"robotics", "saas"},
			City: "Austin", Region: "Texas", CountryCode: "US", EmployeeCount: i64(120), EmployeeRange: "51-200",
			Founded: i64(2015), RevenueUSD: i64(12000000), NetworkURL: "https://network.example/company/acme-robotics"},
		{Name: "Bluepeak", Domain: "bluepeak.example", Industry: "Financial Services", CountryCode: "GB"},
		{Name: "Cobalt", Domain: "cobalt.example", Industry: "Retail", CountryCode: "DE", Ticker: "CBLT"},
	}
}

func testCompanies(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	cs := sampleCompanies()
	res, err := s.UpsertCompanies(ctx, cs)
	wantRes(t, "first upsert", res, err, 3, 0, 0)
	for _, c := range cs {
		if c.ID == 0 {
			t.Fatalf("upsert did not fill the id of %s", c.Domain)
		}
	}
	if cs[0].ID == cs[1].ID || cs[1].ID == cs[2].ID {
		t.Fatalf("ids not distinct: %d %d %d", cs[0].ID, cs[1].ID, cs[2].ID)
	}
	again := sampleCompanies()
	res, err = s.UpsertCompanies(ctx, again)
	wantRes(t, "same rows again", res, err, 0, 0, 3)
	if again[0].ID != cs[0].ID {
		t.Fatalf("re-upsert changed the id: %d, was %d", again[0].ID, cs[0].ID)
	}
	changed := sampleCompanies()
	changed[1].EmployeeCount = i64(40)
	changed[1].EmployeeRange = "11-50"
	dupe := *changed[2]
	dupe.Name = "Cobalt GmbH"
	res, err = s.UpsertCompanies(ctx, append(changed, &dupe))
	wantRes(t, "one change and a repeat in the batch", res, err, 0, 2, 2)

	got, err := s.CompanyByDomain(ctx, "acme-robotics.example")
	if err != nil {
		t.Fatal(err)
	}
	want := sampleCompanies()[0]
	want.ID, want.Seq, want.CreatedAt, want.UpdatedAt = got.ID, got.Seq, got.CreatedAt, got.UpdatedAt
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read back\n%+v\nwant\n%+v", got, want)
	}
	if got.CreatedAt.IsZero() || got.UpdatedAt.Before(got.CreatedAt) {
		t.Errorf("timestamps %v %v", got.CreatedAt, got.UpdatedAt)
	}
	if c, err := s.CompanyByDomain(ctx, "cobalt.example"); err != nil {
		t.Fatal(err)
	} else if c.Name != "Cobalt GmbH" {
		t.Errorf("last value in the batch did not win: %q", c.Name)
	}
	if c, err := s.CompanyByDomain(ctx, "bluepeak.example"); err != nil {
		t.Fatal(err)
	} else if *c.EmployeeCount != 40 || c.EmployeeRange != "11-50" {
		t.Errorf("update not applied: %+v", c)
	}
	if c, err := s.CompanyByNetworkURL(ctx, "https://network.example/company/acme-robotics"); err != nil || c.ID != cs[0].ID {
		t.Fatalf("by network url: %v %v", c, err)
	}
	for _, fn := range []func() error{
		func() error { _, err := s.CompanyByDomain(ctx, "nope.example"); return err },
		func() error { _, err := s.CompanyByNetworkURL(ctx, ""); return err },
		func() error { _, err := s.CompanyByNetworkURL(ctx, "https://network.example/company/nope"); return err },
	} {
		if err := fn(); !errors.Is(err, prospector.ErrNotFound) {
			t.Errorf("unknown company: %v, want ErrNotFound", err)
		}
	}
	byID, err := s.CompaniesByID(ctx, []int64{cs[2].ID, cs[0].ID, 999999})
	if err != nil || len(byID) != 2 {
		t.Fatalf("by id: %d, %v", len(byID), err)
	}
	cards, err := s.CompanyCards(ctx, []int64{cs[0].ID, 999999})
	if err != nil || len(cards) != 1 {
		t.Fatalf("cards: %v %v", cards, err)
	}
	full := sampleCompanies()[0]
	wantCard := prospector.Company{ID: cs[0].ID, Name: full.Name, Domain: full.Domain, Website: full.Website,
		Industry: full.Industry, City: full.City, Region: full.Region, CountryCode: full.CountryCode,
		EmployeeCount: full.EmployeeCount, EmployeeRange: full.EmployeeRange, NetworkURL: full.NetworkURL}
	if !reflect.DeepEqual(*cards[0], wantCard) {
		t.Fatalf("company card\n%+v\nwant\n%+v", *cards[0], wantCard)
	}
	page1, err := s.ListCompanies(ctx, 0, 2)
	if err != nil || len(page1) != 2 || page1[0].ID >= page1[1].ID {
		t.Fatalf("list page 1: %v %v", page1, err)
	}
	page2, err := s.ListCompanies(ctx, page1[1].ID, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(page2) != 1 {
		t.Fatalf("list page 2: %d rows, want 1", len(page2))
	}
	if n, err := s.CountCompanies(ctx); err != nil || n != 3 {
		t.Fatalf("count %d %v", n, err)
	}
	ids, err := s.CompanyIDsByDomain(ctx, []string{"bluepeak.example", "nope.example"})
	if err != nil || len(ids) != 1 || ids["bluepeak.example"] != cs[1].ID {
		t.Fatalf("ids by domain: %v %v", ids, err)
	}
	urls, err := s.CompanyIDsByNetworkURL(ctx, []string{"https://network.example/company/acme-robotics"})
	if err != nil || urls["https://network.example/company/acme-robotics"] != cs[0].ID {
		t.Fatalf("ids by url: %v %v", urls, err)
	}
}

func testCompaniesLargeBatch(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	var cs []*prospector.Company
	for i := 0; i < 5000; i++ {
		cs = append(cs, &prospector.Company{Name: fmt.Sprintf("Company %d", i), Domain: fmt.Sprintf("c%d.example", i),
			Keywords: []string{"k"}, EmployeeCount: i64(int64(i))})
	}
	res, err := s.UpsertCompanies(ctx, cs)
	wantRes(t, "5000 in one batch", res, err, 5000, 0, 0)
	seen := map[int64]bool{}
	for _, c := range cs {
		if seen[c.ID] {
			t.Fatalf("id %d given twice", c.ID)
		}
		seen[c.ID] = true
	}
	got, err := s.CompanyByDomain(ctx, "c4999.example")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != cs[4999].ID || *got.EmployeeCount != 4999 {
		t.Fatalf("row 4999 read back as %+v", got)
	}
	var walked int
	for after := int64(0); ; {
		page, err := s.ListCompanies(ctx, after, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		walked += len(page)
		after = page[len(page)-1].ID
	}
	if walked != 5000 {
		t.Fatalf("keyset walk saw %d companies", walked)
	}
}

func testPeople(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	cs := sampleCompanies()
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	people := func() []*prospector.Person {
		return []*prospector.Person{
			{FullName: "Avery Quill", FirstName: "Avery", LastName: "Quill", Title: "VP of Sales", JobLevel: "VP",
				JobFunction: "Sales", CompanyID: &cs[0].ID, CompanyName: "Acme Robotics", CompanyDomain: "acme-robotics.example",
				NetworkURL: "https://network.example/in/avery-quill", Email: "avery.quill@acme-robotics.example",
				City: "Austin", Region: "Texas", CountryCode: "US", Score: f64(72.5)},
			{ExternalID: "crm-42", FullName: "Rowan Pike", Title: "Engineer", CompanyID: &cs[0].ID},
			{ExternalID: "crm-43", FullName: "Sky Vale"},
		}
	}
	ps := people()
	res, err := s.UpsertPeople(ctx, ps)
	wantRes(t, "people", res, err, 3, 0, 0)
	res, err = s.UpsertPeople(ctx, people())
	wantRes(t, "people again", res, err, 0, 0, 3)
	got, err := s.PersonByKey(ctx, "url:https://network.example/in/avery-quill")
	if err != nil {
		t.Fatal(err)
	}
	want := people()[0]
	want.ID, want.Seq, want.CreatedAt, want.UpdatedAt = got.ID, got.Seq, got.CreatedAt, got.UpdatedAt
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read back\n%+v\nwant\n%+v", got, want)
	}
	if p, err := s.PersonByKey(ctx, "id:crm-43"); err != nil || p.CompanyID != nil || p.Score != nil {
		t.Fatalf("person without company: %+v %v", p, err)
	}
	if _, err := s.PersonByKey(ctx, "id:nope"); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("unknown person: %v", err)
	}
	pcards, err := s.PersonCards(ctx, []int64{got.ID, ps[2].ID})
	if err != nil || len(pcards) != 2 {
		t.Fatalf("person cards: %v %v", pcards, err)
	}
	for _, c := range pcards {
		if c.ID == got.ID {
			want := prospector.Person{ID: got.ID, FullName: got.FullName, Title: got.Title, CompanyName: got.CompanyName,
				NetworkURL: got.NetworkURL, City: got.City, Region: got.Region, CountryCode: got.CountryCode, Score: got.Score}
			if !reflect.DeepEqual(*c, want) {
				t.Fatalf("person card\n%+v\nwant\n%+v", *c, want)
			}
		} else if c.ExternalID != "crm-43" || c.FullName != "Sky Vale" {
			t.Fatalf("person card without URL: %+v", c)
		}
	}
	at, err := s.PeopleAtCompany(ctx, cs[0].ID)
	if err != nil || len(at) != 2 {
		t.Fatalf("people at company: %d %v", len(at), err)
	}
	byID, err := s.PeopleByID(ctx, []int64{ps[2].ID})
	if err != nil || len(byID) != 1 || byID[0].FullName != "Sky Vale" {
		t.Fatalf("by id: %v %v", byID, err)
	}
	keys, err := s.PersonIDsByKey(ctx, []string{"id:crm-42", "id:missing"})
	if err != nil || len(keys) != 1 || keys["id:crm-42"] != ps[1].ID {
		t.Fatalf("ids by key: %v %v", keys, err)
	}
	moved := people()
	moved[1].CompanyID, moved[1].Title = &cs[1].ID, "Staff Engineer"
	res, err = s.UpsertPeople(ctx, moved)
	wantRes(t, "a job change", res, err, 0, 1, 2)
	if at, err := s.PeopleAtCompany(ctx, cs[1].ID); err != nil {
		t.Fatal(err)
	} else if len(at) != 1 || at[0].Title != "Staff Engineer" {
		t.Fatalf("moved person not at the new company: %v", at)
	}
	if n, err := s.CountPeople(ctx); err != nil {
		t.Fatal(err)
	} else if n != 3 {
		t.Fatalf("count %d", n)
	}
	if l, err := s.ListPeople(ctx, ps[0].ID, 10); err != nil {
		t.Fatal(err)
	} else if len(l) != 2 {
		t.Fatalf("list after first: %d", len(l))
	}
}

// testMissingParents: a person or signal that refers to a company or
// person that does not exist fails its whole batch, as a foreign key
// does, and the writes after it still check their references.
func testMissingParents(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	cs := sampleCompanies()
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	missing := cs[len(cs)-1].ID + 1000
	good := &prospector.Person{ExternalID: "fk-good", FullName: "Gale Good", CompanyID: &cs[0].ID}
	bad := &prospector.Person{ExternalID: "fk-bad", FullName: "Bo Orphan", CompanyID: &missing}
	if _, err := s.UpsertPeople(ctx, []*prospector.Person{good, bad}); err == nil {
		t.Fatal("a person at a company that does not exist was stored")
	}
	if _, err := s.PersonByKey(ctx, good.NaturalKey()); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("the failed batch left its good person behind: %v", err)
	}
	for _, sig := range []*prospector.Signal{
		{ExternalID: "fk-s1", Type: "company_hiring", CompanyID: &missing, DetectedAt: utc("2026-11-01T00:00:00Z")},
		{ExternalID: "fk-s2", Type: "job_change", PersonID: &missing, DetectedAt: utc("2026-11-01T00:00:00Z")},
	} {
		if _, err := s.UpsertSignals(ctx, []*prospector.Signal{sig}); err == nil {
			t.Fatalf("signal %s with a missing parent was stored", sig.ExternalID)
		}
	}
	// The bulk path must leave the store checking references for the
	// writes that follow it.
	if _, err := s.UpsertNewsEvents(ctx, []*prospector.NewsEvent{{ExternalID: "fk-n", CompanyID: missing,
		EventType: "news_event", EffectiveDate: "2026-11-01", FoundAt: utc("2026-11-01T00:00:00Z")}}); err == nil {
		t.Fatal("a news event at a company that does not exist was stored")
	}
	if _, err := s.UpsertPeople(ctx, []*prospector.Person{good}); err != nil {
		t.Fatalf("a good person alone: %v", err)
	}
}

func testSignals(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	cs := sampleCompanies()
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	p := &prospector.Person{ExternalID: "p1", FullName: "Avery Quill", CompanyID: &cs[0].ID}
	if _, err := s.UpsertPeople(ctx, []*prospector.Person{p}); err != nil {
		t.Fatal(err)
	}
	sigs := func() []*prospector.Signal {
		return []*prospector.Signal{
			{ExternalID: "s1", Type: "company_hiring", CompanyID: &cs[0].ID, CompanyDomain: cs[0].Domain,
				Title: "Hiring 3 AEs", Detail: "job board", SourceURL: "https://news.example/1",
				DetectedAt: utc("2026-10-01T10:00:00Z"), Score: f64(80)},
			{ExternalID: "s2", Type: "job_change", CompanyID: &cs[0].ID, CompanyDomain: cs[0].Domain, PersonID: &p.ID,
				Title: "Started as VP Sales", DetectedAt: utc("2026-11-01T10:00:00Z")},
			{ExternalID: "s3", Type: "tech_changes", CompanyID: &cs[1].ID, CompanyDomain: cs[1].Domain,
				Title: "Adopted a CRM", DetectedAt: utc("2026-09-01T10:00:00Z")},
		}
	}
	res, err := s.UpsertSignals(ctx, sigs())
	wantRes(t, "signals", res, err, 3, 0, 0)
	res, err = s.UpsertSignals(ctx, sigs())
	wantRes(t, "signals again", res, err, 0, 0, 3)
	got, err := s.SignalsByCompanies(ctx, []int64{cs[0].ID}, 10)
	if err != nil || len(got) != 2 {
		t.Fatalf("by company: %d %v", len(got), err)
	}
	if got[0].ExternalID != "s2" || got[1].ExternalID != "s1" {
		t.Fatalf("not newest first: %s, %s", got[0].ExternalID, got[1].ExternalID)
	}
	if *got[0].PersonID != p.ID || got[1].Score == nil || *got[1].Score != 80 || !got[1].DetectedAt.Equal(utc("2026-10-01T10:00:00Z")) {
		t.Fatalf("fields not kept: %+v %+v", got[0], got[1])
	}
	if l, err := s.SignalsByCompanies(ctx, []int64{cs[0].ID}, 1); err != nil {
		t.Fatal(err)
	} else if len(l) != 1 {
		t.Fatalf("limit not applied")
	}
	if n, err := s.CountSignals(ctx); err != nil {
		t.Fatal(err)
	} else if n != 3 {
		t.Fatalf("count %d", n)
	}
	if l, err := s.ListSignals(ctx, 0, 10); err != nil {
		t.Fatal(err)
	} else if len(l) != 3 {
		t.Fatalf("list %d", len(l))
	}
}

func testEvents(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	cs := sampleCompanies()
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	attrs := prospector.NewsAttributes{Summary: str("Acme launches Fleet"), Confidence: f64(0.9), Planning: boolp(false),
		Product: str("Fleet"), ProductData: prospector.ProductData{Name: str("Fleet"), FuzzyMatch: boolp(true)},
		ProductTags: []string{"robotics"}, LocationData: []prospector.LocationData{{City: str("Austin"), CountryCode: str("US")}}}
	news := func() []*prospector.NewsEvent {
		var out []*prospector.NewsEvent
		for i, day := range []string{"2026-08-01", "2026-09-01", "2026-10-01", "2026-11-01"} {
			out = append(out, &prospector.NewsEvent{ExternalID: fmt.Sprintf("n%d", i), CompanyID: cs[0].ID,
				EventType: "news_event", Categories: []string{"launches"}, EffectiveDate: day,
				FoundAt: utc(day + "T12:00:00Z"), Attributes: attrs})
		}
		return out
	}
	res, err := s.UpsertNewsEvents(ctx, news())
	wantRes(t, "news", res, err, 4, 0, 0)
	res, err = s.UpsertNewsEvents(ctx, news())
	wantRes(t, "news again", res, err, 0, 0, 4)
	all, err := s.NewsEvents(ctx, prospector.EventFilter{CompanyID: cs[0].ID, Limit: 10})
	if err != nil || len(all) != 4 || all[0].EffectiveDate != "2026-11-01" {
		t.Fatalf("news newest first: %v %v", all, err)
	}
	wantAttrs := attrs
	wantAttrs.Normalize()
	if !reflect.DeepEqual(all[0].Attributes, wantAttrs) || !reflect.DeepEqual(all[0].Categories, []string{"launches"}) {
		t.Fatalf("attributes round trip\n%+v\nwant\n%+v", all[0].Attributes, wantAttrs)
	}
	from, until := utc("2026-09-01T00:00:00Z"), utc("2026-10-01T12:00:00Z")
	window, err := s.NewsEvents(ctx, prospector.EventFilter{CompanyID: cs[0].ID, From: &from, Until: &until, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(window) != 2 || window[0].EffectiveDate != "2026-10-01" {
		t.Fatalf("window (inclusive bounds): %d events", len(window))
	}
	paged, err := s.NewsEvents(ctx, prospector.EventFilter{CompanyID: cs[0].ID, Offset: 1, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(paged) != 2 || paged[0].EffectiveDate != "2026-10-01" {
		t.Fatalf("offset/limit: %v", paged)
	}
	if none, err := s.NewsEvents(ctx, prospector.EventFilter{CompanyID: cs[1].ID, Limit: 10}); err != nil {
		t.Fatal(err)
	} else if len(none) != 0 {
		t.Fatalf("other company's news leaked: %d", len(none))
	}

	fin := func() []*prospector.FinancingEvent {
		return []*prospector.FinancingEvent{{ExternalID: "f1", CompanyID: cs[0].ID, EventType: "financing_event",
			Categories: []string{"venture"}, FinancingType: "Series A", FinancingTypeNormalized: "series_a",
			Amount: "$12M", AmountNormalized: f64(12e6), EffectiveDate: "2026-10-02", FoundAt: utc("2026-10-03T08:00:00Z"),
			SourceURLs: []string{"https://news.example/a"},
			Investors:  []prospector.Investor{{ID: "investor-granite", Name: "Granite Peak Ventures", Domain: str("granite.example")}}}}
	}
	res, err = s.UpsertFinancingEvents(ctx, fin())
	wantRes(t, "financing", res, err, 1, 0, 0)
	res, err = s.UpsertFinancingEvents(ctx, fin())
	wantRes(t, "financing again", res, err, 0, 0, 1)
	fs, err := s.FinancingEvents(ctx, prospector.EventFilter{CompanyID: cs[0].ID, Limit: 10})
	if err != nil || len(fs) != 1 {
		t.Fatalf("financing: %v %v", fs, err)
	}
	want := fin()[0]
	want.ID = fs[0].ID
	if !reflect.DeepEqual(fs[0], want) {
		t.Fatalf("financing round trip\n%+v\nwant\n%+v", fs[0], want)
	}
}

// testChangeSequence: every insert or update moves a row past the last
// seq a follower has seen; unchanged rows do not move.
func testChangeSequence(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	cs := sampleCompanies()
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	all, err := s.CompaniesChangedSince(ctx, 0, 10)
	if err != nil || len(all) != 3 {
		t.Fatalf("changed since 0: %d %v", len(all), err)
	}
	for i := 1; i < len(all); i++ {
		if all[i].Seq <= all[i-1].Seq || all[0].Seq <= 0 {
			t.Fatalf("seqs not ascending and positive: %d, %d", all[i-1].Seq, all[i].Seq)
		}
	}
	last := all[2].Seq
	if page, err := s.CompaniesChangedSince(ctx, 0, 2); err != nil {
		t.Fatal(err)
	} else if len(page) != 2 || page[1].Seq != all[1].Seq {
		t.Fatalf("limit not applied in seq order")
	}
	again := sampleCompanies()
	again[1].Name = "Bluepeak Ltd"
	if _, err := s.UpsertCompanies(ctx, again); err != nil {
		t.Fatal(err)
	}
	changed, err := s.CompaniesChangedSince(ctx, last, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(changed) != 1 || changed[0].Domain != "bluepeak.example" || changed[0].Seq <= last {
		t.Fatalf("after one update, changed since %d: %+v", last, changed)
	}
	// The fields the index keeps come back as stored, keywords that need
	// escaping included.
	odd := &prospector.Company{Name: "Quill & Co", Domain: "quill.example", Website: "https://quill.example",
		Industry: "Retail", Description: "Pens.", Keywords: []string{`say "hi"`, "naïve", `a","b`, `back\slash`},
		City: "Lyon", Region: "Rhône", CountryCode: "FR", EmployeeCount: i64(7), EmployeeRange: "2-10",
		RevenueUSD: i64(5), NetworkURL: "https://network.example/company/quill", Founded: i64(1999), Ticker: "QUIL"}
	if _, err := s.UpsertCompanies(ctx, []*prospector.Company{odd}); err != nil {
		t.Fatal(err)
	}
	coFeed, err := s.CompaniesChangedSince(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, domain := range []string{"acme-robotics.example", "bluepeak.example", "quill.example"} {
		stored, err := s.CompanyByDomain(ctx, domain)
		if err != nil {
			t.Fatal(err)
		}
		stored.Founded, stored.Ticker, stored.CreatedAt, stored.UpdatedAt = nil, "", time.Time{}, time.Time{}
		var got *prospector.Company
		for _, c := range coFeed {
			if c.ID == stored.ID {
				got = c
			}
		}
		if !reflect.DeepEqual(got, stored) {
			t.Errorf("company from the feed:\n got %+v\nwant %+v", got, stored)
		}
	}
	ps := []*prospector.Person{{ExternalID: "a", FullName: "A"}, {ExternalID: "b", FullName: "B"}}
	if _, err := s.UpsertPeople(ctx, ps); err != nil {
		t.Fatal(err)
	}
	people, err := s.PeopleChangedSince(ctx, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(people) != 2 || people[1].Seq <= people[0].Seq {
		t.Fatalf("people changed since 0: %+v", people)
	}
	ps[0].Title = "CTO"
	if _, err := s.UpsertPeople(ctx, ps); err != nil {
		t.Fatal(err)
	}
	if moved, err := s.PeopleChangedSince(ctx, people[1].Seq, 10); err != nil {
		t.Fatal(err)
	} else if len(moved) != 1 || moved[0].ExternalID != "a" {
		t.Fatalf("updated person not after the last seq: %+v", moved)
	}
	// The fields the index keeps come back as stored, the others empty.
	co := sampleCompanies()[0]
	if _, err := s.UpsertCompanies(ctx, []*prospector.Company{co}); err != nil {
		t.Fatal(err)
	}
	score := 0.75
	full := &prospector.Person{ExternalID: "feed-1", FullName: "Mira Feed", FirstName: "Mira", LastName: "Feed",
		Title: "VP Sales", JobLevel: "VP", JobFunction: "Sales", CompanyID: &co.ID, CompanyName: co.Name,
		CompanyDomain: co.Domain, NetworkURL: "https://network.example/in/mira-feed", Email: "mira@feed.example",
		Phone: "+1 555 0100", City: "Denver", Region: "Colorado", CountryCode: "US", Score: &score}
	if _, err := s.UpsertPeople(ctx, []*prospector.Person{full}); err != nil {
		t.Fatal(err)
	}
	stored, err := s.PersonByKey(ctx, full.NaturalKey())
	if err != nil {
		t.Fatal(err)
	}
	feed, err := s.PeopleChangedSince(ctx, stored.Seq-1, 1)
	if err != nil || len(feed) != 1 {
		t.Fatalf("person %d from the feed: %+v %v", stored.ID, feed, err)
	}
	want := prospector.Person{ID: stored.ID, Seq: stored.Seq, ExternalID: "feed-1", FullName: "Mira Feed", Title: "VP Sales",
		JobLevel: "VP", JobFunction: "Sales", CompanyName: co.Name, NetworkURL: "https://network.example/in/mira-feed",
		City: "Denver", Region: "Colorado", CountryCode: "US"}
	got := *feed[0]
	if got.CompanyID == nil || *got.CompanyID != co.ID || got.Score == nil || *got.Score != 0.75 {
		t.Errorf("feed company and score: %v %v, want %d and 0.75", got.CompanyID, got.Score, co.ID)
	}
	got.CompanyID, got.Score = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("feed person:\n got %+v\nwant %+v", got, want)
	}
}

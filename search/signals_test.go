package search_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

func f64(v float64) *float64 { return &v }

// sameSignals fails unless the index answers exactly what the store does
// for the companies of the fixture.
func (f *fixture) sameSignals(t *testing.T, perCompany int) []*prospector.Signal {
	t.Helper()
	var ids []int64
	for _, c := range f.co {
		ids = append(ids, c.ID)
	}
	want, err := f.st.SignalsByCompanies(context.Background(), ids, perCompany)
	if err != nil {
		t.Fatal(err)
	}
	got, missing := f.ix.CompanySignals(ids, perCompany)
	if len(missing) != 0 {
		t.Fatalf("index does not know companies %v", missing)
	}
	if len(got) != len(want) {
		t.Fatalf("index holds %d signals, store %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("signal %d:\nindex %+v\nstore %+v", i, *got[i], *want[i])
		}
	}
	return got
}

func TestCompanySignalsFollowStore(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	acme, blue := f.co["acme.example"], f.co["bluepeak.example"]
	at := func(day int) time.Time { return time.Date(2026, 10, day, 12, 0, 0, 123456789, time.UTC) }
	ss := []*prospector.Signal{
		{ExternalID: "s1", Type: "company_hiring", CompanyID: &acme.ID, CompanyDomain: acme.Domain, Title: "Hiring",
			Detail: "Three roles", SourceURL: "https://jobs.example/1", DetectedAt: at(3), Score: f64(71.5)},
		{ExternalID: "s2", Type: "job_change", CompanyID: &acme.ID, CompanyDomain: acme.Domain, PersonID: &f.per["p1"].ID,
			Title: "Started as VP of Sales", DetectedAt: at(9)},
		// Same time as s2: the later row comes first.
		{ExternalID: "s3", Type: "tech_changes", CompanyID: &acme.ID, CompanyDomain: acme.Domain, DetectedAt: at(9)},
		// A domain of its own (as imported) and no detection time.
		{ExternalID: "s4", Type: "funding_announcement", CompanyID: &blue.ID, CompanyDomain: "blue-peak.example"},
		// No company: the lists never hold it.
		{ExternalID: "s5", Type: "keyword_post", PersonID: &f.per["p6"].ID, DetectedAt: at(1)},
	}
	if _, err := f.st.UpsertSignals(ctx, ss); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.ix.CompanySignals([]int64{acme.ID}, 10); len(got) != 0 {
		t.Fatalf("signals before the index synced: %d", len(got))
	}
	if _, err := f.ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	got := f.sameSignals(t, 10)
	if len(got) != 4 || got[0].ExternalID != "s3" || got[1].ExternalID != "s2" || got[2].ExternalID != "s1" {
		t.Fatalf("order: %v", signalIDs(got))
	}
	if top, _ := f.ix.CompanySignals([]int64{acme.ID, acme.ID}, 2); len(top) != 2 || top[0].ExternalID != "s3" {
		t.Fatalf("perCompany 2 with a repeated id: %v", signalIDs(top))
	}

	// Updates move signals within and between companies.
	ss[0].DetectedAt, ss[0].Title = at(20), "Hiring fast"
	ss[2].CompanyID, ss[2].CompanyDomain = &blue.ID, blue.Domain
	ss[3].DetectedAt, ss[3].Score = at(2), f64(10)
	if _, err := f.st.UpsertSignals(ctx, ss); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	got = f.sameSignals(t, 10)
	if len(got) != 4 || got[0].ExternalID != "s1" || got[0].Title != "Hiring fast" || got[2].ExternalID != "s3" {
		t.Fatalf("after updates: %v", signalIDs(got))
	}
}

func TestCompanySignalsUnknownCompanies(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	late := &prospector.Company{Name: "Late Co", Domain: "late.example"}
	if _, err := f.st.UpsertCompanies(ctx, []*prospector.Company{late}); err != nil {
		t.Fatal(err)
	}
	ids := f.ix.CompanyIDsByDomain([]string{"acme.example", "late.example", "nowhere.example"})
	if len(ids) != 1 || ids["acme.example"] != f.co["acme.example"].ID {
		t.Fatalf("domains before sync: %v", ids)
	}
	if _, missing := f.ix.CompanySignals([]int64{f.co["acme.example"].ID, late.ID}, 5); len(missing) != 1 || missing[0] != late.ID {
		t.Fatalf("missing before sync: %v", missing)
	}
	if _, err := f.ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if ids := f.ix.CompanyIDsByDomain([]string{"late.example"}); ids["late.example"] != late.ID {
		t.Fatalf("domains after sync: %v", ids)
	}
	if _, missing := f.ix.CompanySignals([]int64{late.ID}, 5); len(missing) != 0 {
		t.Fatalf("missing after sync: %v", missing)
	}
}

// TestCompanySignalsManyPerCompany: a company with more signals than asked
// for gives the newest, in the store's order, whatever order they arrived in.
func TestCompanySignalsManyPerCompany(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	acme := f.co["acme.example"]
	var ss []*prospector.Signal
	for i := range 300 {
		ss = append(ss, &prospector.Signal{ExternalID: fmt.Sprintf("m%d", i), Type: "keyword_post", CompanyID: &acme.ID,
			CompanyDomain: acme.Domain, DetectedAt: time.Date(2026, 1, 1, 0, 0, (i*7919)%500, 0, time.UTC)})
	}
	for start := 0; start < len(ss); start += 100 {
		if _, err := f.st.UpsertSignals(ctx, ss[start:start+100]); err != nil {
			t.Fatal(err)
		}
		if _, err := f.ix.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	f.sameSignals(t, 50)
	f.sameSignals(t, 1000)
}

func signalIDs(ss []*prospector.Signal) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.ExternalID)
	}
	return out
}

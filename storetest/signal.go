package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// runSignal covers the reads of the signals endpoints: per-company
// batches and the workspace-wide feeds.
func runSignal(t *testing.T, open Opener) {
	t.Run("SignalsByCompanies", func(t *testing.T) { testSignalsByCompanies(t, open(t)) })
	t.Run("SignalsByCompaniesLargeBatch", func(t *testing.T) { testSignalsByCompaniesLargeBatch(t, open(t)) })
	t.Run("SignalFeed", func(t *testing.T) { testSignalFeed(t, open(t)) })
	t.Run("SignalsChangedSince", func(t *testing.T) { testSignalsChangedSince(t, open(t)) })
}

// testSignalsChangedSince: every insert and every content update moves a
// signal past the last seq a reader has seen; an unchanged re-import does
// not.
func testSignalsChangedSince(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	cs := sampleCompanies()
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	sigs := func() []*prospector.Signal {
		var ss []*prospector.Signal
		for i, ext := range []string{"s1", "s2", "s3"} {
			ss = append(ss, &prospector.Signal{ExternalID: ext, Type: "company_hiring", CompanyID: &cs[i].ID,
				CompanyDomain: cs[i].Domain, Title: "Hiring " + ext, DetectedAt: utc("2026-10-01T00:00:00Z")})
		}
		return ss
	}
	if _, err := s.UpsertSignals(ctx, sigs()); err != nil {
		t.Fatal(err)
	}
	all, err := s.SignalsChangedSince(ctx, 0, 10)
	if err != nil || len(all) != 3 {
		t.Fatalf("changed since 0: %d %v", len(all), err)
	}
	for i := range all {
		if all[i].Seq <= 0 || (i > 0 && all[i].Seq <= all[i-1].Seq) {
			t.Fatalf("seqs not ascending and positive: %s", externalIDs(all))
		}
	}
	if page, err := s.SignalsChangedSince(ctx, 0, 2); err != nil {
		t.Fatal(err)
	} else if len(page) != 2 || page[1].Seq != all[1].Seq {
		t.Fatalf("limit not applied in seq order: %s", externalIDs(page))
	}
	last := all[2].Seq
	again := sigs()
	if _, err := s.UpsertSignals(ctx, again); err != nil {
		t.Fatal(err)
	}
	if none, err := s.SignalsChangedSince(ctx, last, 10); err != nil {
		t.Fatal(err)
	} else if len(none) != 0 {
		t.Fatalf("an unchanged re-import moved signals: %s", externalIDs(none))
	}
	again[0].Title = "Hiring engineers"
	if _, err := s.UpsertSignals(ctx, again); err != nil {
		t.Fatal(err)
	}
	changed, err := s.SignalsChangedSince(ctx, last, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(changed) != 1 || changed[0].ExternalID != "s1" || changed[0].Title != "Hiring engineers" || changed[0].Seq <= last {
		t.Fatalf("after one update, changed since %d: %s", last, externalIDs(changed))
	}
	// Every field the index keeps comes back as stored.
	score := 0.25
	full := &prospector.Signal{ExternalID: "s-feed", Type: "funding", CompanyID: &cs[1].ID, CompanyDomain: "other.example",
		Title: "Series B", Detail: "Raised 20M", SourceURL: "https://news.example/b", Score: &score,
		DetectedAt: utc("2026-10-02T03:04:05.123456Z")}
	if _, err := s.UpsertSignals(ctx, []*prospector.Signal{full}); err != nil {
		t.Fatal(err)
	}
	feed, err := s.SignalsChangedSince(ctx, changed[0].Seq, 10)
	if err != nil || len(feed) != 1 {
		t.Fatalf("the new signal from the feed: %s %v", externalIDs(feed), err)
	}
	got := feed[0]
	if got.ID != full.ID || got.Seq <= changed[0].Seq || got.Type != "funding" || got.CompanyID == nil ||
		*got.CompanyID != cs[1].ID || got.CompanyDomain != "other.example" || got.Title != "Series B" ||
		got.Detail != "Raised 20M" || got.SourceURL != "https://news.example/b" || got.Score == nil ||
		*got.Score != 0.25 || !got.DetectedAt.Equal(full.DetectedAt) || got.CreatedAt.IsZero() {
		t.Errorf("feed signal: %+v, want %+v", got, full)
	}
}

// externalIDs lists the signals' external ids, space-separated.
func externalIDs(ss []*prospector.Signal) string {
	var out []string
	for _, s := range ss {
		out = append(out, s.ExternalID)
	}
	return strings.Join(out, " ")
}

func testSignalsByCompanies(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	cs := sampleCompanies()
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	acme, blue, cobalt := cs[0], cs[1], cs[2]
	p := &prospector.Person{ExternalID: "p1", FullName: "Avery Quill", CompanyID: &acme.ID}
	if _, err := s.UpsertPeople(ctx, []*prospector.Person{p}); err != nil {
		t.Fatal(err)
	}
	sig := func(ext, typ string, c *prospector.Company, at string) *prospector.Signal {
		return &prospector.Signal{ExternalID: ext, Type: typ, CompanyID: &c.ID, CompanyDomain: c.Domain, DetectedAt: utc(at)}
	}
	// a2 and a3 share a time: the later row (higher id) comes first.
	ss := []*prospector.Signal{
		sig("a1", "company_hiring", acme, "2026-09-01T00:00:00Z"),
		sig("a2", "tech_changes", acme, "2026-10-01T00:00:00Z"),
		sig("a3", "funding_announcement", acme, "2026-10-01T00:00:00Z"),
		sig("a4", "company_hiring", acme, "2026-08-01T00:00:00Z"),
		sig("b1", "company_hiring", blue, "2026-07-01T00:00:00Z"),
	}
	ss[1].PersonID = &p.ID
	if _, err := s.UpsertSignals(ctx, ss); err != nil {
		t.Fatal(err)
	}
	wantOrder := func(what string, got []*prospector.Signal, err error, want string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		// Ordered by company id, then newest first.
		if acme.ID > blue.ID {
			t.Fatalf("test bug: company ids do not ascend with insertion order")
		}
		if g := externalIDs(got); g != want {
			t.Errorf("%s: got %q, want %q", what, g, want)
		}
	}
	got, err := s.SignalsByCompanies(ctx, []int64{blue.ID, cobalt.ID, acme.ID, 999999}, 10)
	wantOrder("every signal", got, err, "a3 a2 a1 a4 b1")
	got, err = s.SignalsByCompanies(ctx, []int64{acme.ID, blue.ID}, 2)
	wantOrder("two per company", got, err, "a3 a2 b1")
	got, err = s.SignalsByCompanies(ctx, []int64{acme.ID, acme.ID, blue.ID, acme.ID}, 1)
	wantOrder("repeated ids count once", got, err, "a3 b1")
	got, err = s.SignalsByCompanies(ctx, []int64{cobalt.ID}, 10)
	wantOrder("a company without signals", got, err, "")
	got, err = s.SignalsByCompanies(ctx, nil, 10)
	wantOrder("no ids", got, err, "")

	// Rows are whole: the person, score and times survive.
	got, err = s.SignalsByCompanies(ctx, []int64{acme.ID}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].PersonID == nil || *got[1].PersonID != p.ID || *got[1].CompanyID != acme.ID ||
		got[1].Type != "tech_changes" || !got[1].DetectedAt.Equal(utc("2026-10-01T00:00:00Z")) || got[1].ID != ss[1].ID {
		t.Fatalf("fields not kept: %+v", got)
	}
}

// testSignalsByCompaniesLargeBatch: more companies than one statement
// takes still come back complete and in order.
func testSignalsByCompaniesLargeBatch(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	var cs []*prospector.Company
	for i := range 300 {
		cs = append(cs, &prospector.Company{Name: fmt.Sprintf("Batch %d", i), Domain: fmt.Sprintf("batch%d.example", i)})
	}
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	var ss []*prospector.Signal
	base := utc("2026-01-01T00:00:00Z")
	for i, c := range cs {
		for j := range 3 {
			ss = append(ss, &prospector.Signal{ExternalID: fmt.Sprintf("s%d-%d", i, j), Type: "company_hiring",
				CompanyID: &c.ID, CompanyDomain: c.Domain, DetectedAt: base.Add(time.Duration(j) * time.Hour)})
		}
	}
	if _, err := s.UpsertSignals(ctx, ss); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for i := len(cs) - 1; i >= 0; i-- {
		ids = append(ids, cs[i].ID)
	}
	got, err := s.SignalsByCompanies(ctx, ids, 2)
	if err != nil || len(got) != 2*len(cs) {
		t.Fatalf("%d signals of %d companies (%v), want 2 each", len(got), len(cs), err)
	}
	for i, c := range cs {
		a, b := got[2*i], got[2*i+1]
		if *a.CompanyID != c.ID || *b.CompanyID != c.ID || a.ExternalID != fmt.Sprintf("s%d-2", i) || b.ExternalID != fmt.Sprintf("s%d-1", i) {
			t.Fatalf("company %d: got %s, %s", i, a.ExternalID, b.ExternalID)
		}
	}
}

func testSignalFeed(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	cs := sampleCompanies() // Software Development/US, Financial Services/GB, Retail/DE
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	acme, blue, cobalt := cs[0], cs[1], cs[2]
	sig := func(ext, typ string, c *prospector.Company, at string) *prospector.Signal {
		return &prospector.Signal{ExternalID: ext, Type: typ, CompanyID: &c.ID, CompanyDomain: c.Domain, DetectedAt: utc(at)}
	}
	ss := []*prospector.Signal{
		sig("h1", "company_hiring", acme, "2026-09-01T00:00:00Z"),
		sig("h2", "company_hiring", blue, "2026-10-01T00:00:00Z"),
		sig("h3", "company_hiring", cobalt, "2026-11-01T00:00:00Z"),
		sig("h4", "company_hiring", acme, "2026-11-01T00:00:00Z"), // ties h3: higher id first
		sig("h5", "company_hiring", acme, "2026-06-01T00:00:00Z"),
		sig("f1", "funding_announcement", blue, "2026-10-15T00:00:00Z"),
		sig("t1", "tech_changes", acme, "2026-12-01T00:00:00Z"),
	}
	if _, err := s.UpsertSignals(ctx, ss); err != nil {
		t.Fatal(err)
	}
	since := utc("2026-10-01T00:00:00Z")
	for _, c := range []struct {
		name string
		f    prospector.SignalFeedFilter
		want string
	}{
		{"one type, newest first", prospector.SignalFeedFilter{Type: "company_hiring", Limit: 10}, "h4 h3 h2 h1 h5"},
		{"other type", prospector.SignalFeedFilter{Type: "funding_announcement", Limit: 10}, "f1"},
		{"no such type", prospector.SignalFeedFilter{Type: "job_change", Limit: 10}, ""},
		{"since is inclusive", prospector.SignalFeedFilter{Type: "company_hiring", Since: &since, Limit: 10}, "h4 h3 h2"},
		{"company", prospector.SignalFeedFilter{Type: "company_hiring", CompanyID: &acme.ID, Limit: 10}, "h4 h1 h5"},
		{"industry", prospector.SignalFeedFilter{Type: "company_hiring", Industry: "Retail", Limit: 10}, "h3"},
		{"country", prospector.SignalFeedFilter{Type: "company_hiring", Country: "GB", Limit: 10}, "h2"},
		{"industry and country", prospector.SignalFeedFilter{Type: "company_hiring", Industry: "Retail", Country: "GB", Limit: 10}, ""},
		{"every filter", prospector.SignalFeedFilter{Type: "company_hiring", Since: &since, CompanyID: &acme.ID,
			Industry: "Software Development", Country: "US", Limit: 10}, "h4"},
		{"limit", prospector.SignalFeedFilter{Type: "company_hiring", Limit: 2}, "h4 h3"},
		{"offset", prospector.SignalFeedFilter{Type: "company_hiring", Offset: 2, Limit: 2}, "h2 h1"},
		{"past the end", prospector.SignalFeedFilter{Type: "company_hiring", Offset: 5, Limit: 2}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := s.SignalFeed(ctx, c.f)
			if err != nil {
				t.Fatal(err)
			}
			if g := externalIDs(got); g != c.want {
				t.Errorf("got %q, want %q", g, c.want)
			}
		})
	}
	got, err := s.SignalFeed(ctx, prospector.SignalFeedFilter{Type: "company_hiring", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ID != ss[3].ID || *got[0].CompanyID != acme.ID || !got[0].DetectedAt.Equal(utc("2026-11-01T00:00:00Z")) {
		t.Fatalf("fields not kept: %+v", got)
	}
}

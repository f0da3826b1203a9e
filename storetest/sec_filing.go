package storetest

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// runSEC covers SEC issuers and filings, news stories and token buckets.
func runSEC(t *testing.T, open Opener) {
	t.Run("SECFilingIdempotent", func(t *testing.T) { testSECFilingIdempotent(t, open(t)) })
	t.Run("SECAmendment", func(t *testing.T) { testSECAmendment(t, open(t)) })
	t.Run("SECAmendmentFirst", func(t *testing.T) { testSECAmendmentFirst(t, open(t)) })
	t.Run("SECPooledFund", func(t *testing.T) { testSECPooledFund(t, open(t)) })
	t.Run("SECUnresolvedThenMapped", func(t *testing.T) { testSECUnresolvedThenMapped(t, open(t)) })
	t.Run("SECResolvedByLaterFiling", func(t *testing.T) { testSECResolvedByLaterFiling(t, open(t)) })
	t.Run("SECRefused", func(t *testing.T) { testSECRefused(t, open(t)) })
	t.Run("IssuerCandidates", func(t *testing.T) { testIssuerCandidates(t, open(t)) })
	t.Run("NewsDedup", func(t *testing.T) { testNewsDedup(t, open(t)) })
	t.Run("NewsRefused", func(t *testing.T) { testNewsRefused(t, open(t)) })
	t.Run("SourcesConcurrent", func(t *testing.T) { testSourcesConcurrent(t, open(t)) })
	t.Run("TokenBucket", func(t *testing.T) { testTokenBucket(t, open(t)) })
}

const (
	secCIK       = "1234567"
	secOriginal  = "0001234567-26-000001"
	secAmendment = "0001234567-26-000009"
)

func secURL(acc string) string {
	return "https://www.sec.example/Archives/edgar/data/1234567/" + acc + "-index.htm"
}

// formD is a Form D of the issuer Acme Robotics, Inc. for the offering
// that began with secOriginal, selling sold dollars.
func formD(acc, form, filed string, sold int64) *prospector.SECFiling {
	day, _ := time.Parse(time.DateOnly, filed)
	amount := float64(sold)
	urls := []string{secURL(secOriginal)}
	if acc != secOriginal {
		urls = append(urls, secURL(acc))
	}
	return &prospector.SECFiling{
		Accession: acc, Form: form, Filed: filed, URL: secURL(acc), Kind: prospector.FilingFinancing,
		Issuer: prospector.SECIssuer{CIK: secCIK, Name: "Acme Robotics, Inc.", State: "CA", City: "San Francisco"},
		Offering: &prospector.SECOffering{IndustryGroup: "Other Technology", Securities: []string{"equity"},
			Exemptions: []string{"06b"}, TotalOffering: i64(10_000_000), TotalSold: i64(sold),
			TotalRemaining: i64(10_000_000 - sold), FirstSale: "2026-04-20", Original: secOriginal},
		Financing: &prospector.FinancingEvent{ExternalID: "sec-formd-" + secCIK + "-" + secOriginal,
			EventType: "financing_event", Categories: []string{"venture"},
			FinancingType: "Equity (Form D, Rule 506(b))", FinancingTypeNormalized: "equity",
			Amount: "$" + strconv.FormatInt(sold, 10), AmountNormalized: &amount, EffectiveDate: "2026-04-20",
			FoundAt: day, SourceURLs: urls, Investors: []prospector.Investor{}},
		People: []prospector.FilingPerson{
			{Role: prospector.PersonRelated, Name: "Dana Example", Title: "Executive Officer, Director", City: "San Francisco", State: "CA"},
			{Role: prospector.PersonRelated, Name: "Lee Sample", Title: "Promoter"},
		},
		ProcessedAt: day.Add(time.Hour),
	}
}

// eightK is an 8-K of the issuer naming one appointment.
func eightK(acc, filed string) *prospector.SECFiling {
	day, _ := time.Parse(time.DateOnly, filed)
	sig := "sec-8k-" + secCIK + "-jane-roe-appointed-2026-05-01"
	return &prospector.SECFiling{
		Accession: acc, Form: "8-K", Filed: filed, URL: secURL(acc), Kind: prospector.FilingExecutive,
		Issuer: prospector.SECIssuer{CIK: secCIK, Name: "Acme Robotics, Inc.", State: "CA", City: "San Francisco"},
		Signals: []*prospector.Signal{{ExternalID: sig, Type: "job_change", Title: "Jane Roe appointed Chief Financial Officer",
			Detail:    "SEC 8-K Item 5.02 of Acme Robotics, Inc.: the Board appointed Jane Roe as Chief Financial Officer.",
			SourceURL: secURL(acc), DetectedAt: day}},
		People: []prospector.FilingPerson{{Role: prospector.PersonExecutive, Name: "Jane Roe", Title: "Chief Financial Officer",
			Action: "appointed", EffectiveDate: "2026-05-01", Note: "The Board appointed Jane Roe as Chief Financial Officer.",
			SignalID: sig}},
		Unparsed:    []string{"Mr. Example's arrangement was amended as described below."},
		ProcessedAt: day.Add(time.Hour),
	}
}

// secCompany stores the company Acme Robotics and returns it.
func secCompany(t *testing.T, s prospector.Store, name, domain string) *prospector.Company {
	t.Helper()
	c := &prospector.Company{Name: name, Domain: domain, Website: "https://" + domain, City: "San Francisco", Region: "California",
		CountryCode: "US"}
	if _, err := s.UpsertCompanies(context.Background(), []*prospector.Company{c}); err != nil {
		t.Fatal(err)
	}
	return c
}

func resolvedTo(c *prospector.Company) prospector.IssuerMatch {
	return prospector.IssuerMatch{CompanyID: c.ID, Confidence: 0.9, Reason: prospector.MatchNameStateCity, Resolved: true}
}

func applyFiling(t *testing.T, s prospector.Store, f *prospector.SECFiling, want prospector.FilingResult) {
	t.Helper()
	got, err := s.ApplyFiling(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("filing %s: %+v, want %+v", f.Accession, got, want)
	}
}

func financingEvents(t *testing.T, s prospector.Store, companyID int64) []*prospector.FinancingEvent {
	t.Helper()
	es, err := s.FinancingEvents(context.Background(), prospector.EventFilter{CompanyID: companyID, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// companySignals returns a company's signals of every type by id.
func companySignals(t *testing.T, s prospector.Store, companyID int64) map[string]*prospector.Signal {
	t.Helper()
	ss, err := s.SignalsByCompanies(context.Background(), []int64{companyID}, 100)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*prospector.Signal{}
	for _, sg := range ss {
		out[sg.ExternalID] = sg
	}
	return out
}

func testSECFilingIdempotent(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	co := secCompany(t, s, "Acme Robotics", "acme-robotics.example")
	d := formD(secOriginal, "D", "2026-05-04", 2_500_000)
	d.Match = resolvedTo(co)
	applyFiling(t, s, d, prospector.FilingResult{Status: prospector.FilingApplied, EventsInserted: 1, SignalsInserted: 1})
	es := financingEvents(t, s, co.ID)
	if len(es) != 1 || es[0].ExternalID != d.Financing.ExternalID || es[0].Amount != "$2500000" ||
		!reflect.DeepEqual(es[0].SourceURLs, []string{secURL(secOriginal)}) || !es[0].FoundAt.Equal(utc("2026-05-04T00:00:00Z")) {
		t.Fatalf("financing events %+v", es)
	}
	sg := companySignals(t, s, co.ID)[d.Financing.ExternalID]
	if sg == nil || sg.Type != "funding_announcement" || sg.CompanyDomain != co.Domain || sg.SourceURL != secURL(secOriginal) ||
		sg.Title != "Raised $2500000: Equity (Form D, Rule 506(b))" {
		t.Fatalf("funding signal %+v", sg)
	}
	seq := maxSignalSeq(t, s)

	k := eightK("0001234567-26-000020", "2026-05-05")
	applyFiling(t, s, k, prospector.FilingResult{Status: prospector.FilingApplied, SignalsInserted: 1})
	jc := companySignals(t, s, co.ID)["sec-8k-"+secCIK+"-jane-roe-appointed-2026-05-01"]
	if jc == nil || jc.Type != "job_change" || jc.Title != "Jane Roe appointed Chief Financial Officer" ||
		jc.SourceURL != secURL(k.Accession) || *jc.CompanyID != co.ID || jc.Seq <= seq {
		t.Fatalf("job change signal %+v", jc)
	}
	seq = maxSignalSeq(t, s)

	// Processing both again, even with a new match or time, writes nothing.
	for _, f := range []*prospector.SECFiling{formD(secOriginal, "D", "2026-05-04", 2_500_000), eightK(k.Accession, "2026-05-05")} {
		f.ProcessedAt = f.ProcessedAt.Add(24 * time.Hour)
		applyFiling(t, s, f, prospector.FilingResult{Status: prospector.FilingApplied, Duplicate: true})
	}
	if got := maxSignalSeq(t, s); got != seq {
		t.Fatalf("re-processing moved the signals' seq from %d to %d", seq, got)
	}
	if es := financingEvents(t, s, co.ID); len(es) != 1 {
		t.Fatalf("%d financing events after re-processing", len(es))
	}

	fs, err := s.SECFilings(ctx, prospector.SECFilingFilter{CIK: secCIK})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 || fs[0].Accession != k.Accession || fs[1].Accession != secOriginal {
		t.Fatalf("filings %d, newest first", len(fs))
	}
	got, want := fs[1], formD(secOriginal, "D", "2026-05-04", 2_500_000)
	if got.Status != prospector.FilingApplied || *got.CompanyID != co.ID || got.AppliedAt == nil ||
		!reflect.DeepEqual(got.People, want.People) || !reflect.DeepEqual(got.Offering, want.Offering) ||
		got.Financing.ExternalID != want.Financing.ExternalID || got.Issuer.Name != "Acme Robotics, Inc." {
		t.Fatalf("stored Form D %+v", got)
	}
	if g := fs[0]; !reflect.DeepEqual(g.People, k.People) || !reflect.DeepEqual(g.Unparsed, k.Unparsed) || len(g.Signals) != 1 {
		t.Fatalf("stored 8-K %+v", g)
	}
	iss, err := s.SECIssuer(ctx, secCIK)
	if err != nil || *iss.CompanyID != co.ID || iss.CompanyDomain != co.Domain || iss.Match != prospector.MatchNameStateCity ||
		iss.Confidence != 0.9 || iss.State != "CA" || iss.ResolvedAt == nil {
		t.Fatalf("issuer %+v, %v", iss, err)
	}
}

func testSECAmendment(t *testing.T, s prospector.Store) {
	co := secCompany(t, s, "Acme Robotics", "acme-robotics.example")
	d := formD(secOriginal, "D", "2026-05-04", 2_500_000)
	d.Match = resolvedTo(co)
	applyFiling(t, s, d, prospector.FilingResult{Status: prospector.FilingApplied, EventsInserted: 1, SignalsInserted: 1})
	before := financingEvents(t, s, co.ID)[0]

	da := formD(secAmendment, "D/A", "2026-06-15", 4_000_000)
	da.Match = resolvedTo(co)
	applyFiling(t, s, da, prospector.FilingResult{Status: prospector.FilingApplied, EventsUpdated: 1, SignalsUpdated: 1})
	es := financingEvents(t, s, co.ID)
	if len(es) != 1 || es[0].ID != before.ID || es[0].Amount != "$4000000" || *es[0].AmountNormalized != 4e6 ||
		!es[0].FoundAt.Equal(before.FoundAt) || !reflect.DeepEqual(es[0].SourceURLs, []string{secURL(secOriginal), secURL(secAmendment)}) {
		t.Fatalf("after the amendment: %+v", es)
	}
	sigs := companySignals(t, s, co.ID)
	if len(sigs) != 1 || sigs[d.Financing.ExternalID].Title != "Raised $4000000: Equity (Form D, Rule 506(b))" ||
		!sigs[d.Financing.ExternalID].DetectedAt.Equal(before.FoundAt) {
		t.Fatalf("funding signals after the amendment: %+v", sigs)
	}
	// The original processed again (a backfill) leaves the amended figures.
	orig := formD(secOriginal, "D", "2026-05-04", 2_500_000)
	orig.Offering.TotalRemaining = i64(1) // a corrected parse: stored anew
	applyFiling(t, s, orig, prospector.FilingResult{Status: prospector.FilingApplied})
	if es := financingEvents(t, s, co.ID); len(es) != 1 || es[0].Amount != "$4000000" {
		t.Fatalf("the original re-processed after its amendment: %+v", es)
	}
}

func testSECAmendmentFirst(t *testing.T, s prospector.Store) {
	co := secCompany(t, s, "Acme Robotics", "acme-robotics.example")
	da := formD(secAmendment, "D/A", "2026-06-15", 4_000_000)
	da.Match = resolvedTo(co)
	applyFiling(t, s, da, prospector.FilingResult{Status: prospector.FilingApplied, EventsInserted: 1, SignalsInserted: 1})
	d := formD(secOriginal, "D", "2026-05-04", 2_500_000)
	d.Match = resolvedTo(co)
	applyFiling(t, s, d, prospector.FilingResult{Status: prospector.FilingApplied, EventsUpdated: 1, SignalsUpdated: 1})
	es := financingEvents(t, s, co.ID)
	if len(es) != 1 || es[0].Amount != "$4000000" || !es[0].FoundAt.Equal(utc("2026-05-04T00:00:00Z")) {
		t.Fatalf("an original after its amendment: %+v", es)
	}
}

func testSECPooledFund(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fund := formD("0007654321-26-000003", "D", "2026-05-04", 50_000_000)
	fund.Issuer = prospector.SECIssuer{CIK: "7654321", Name: "Quiet Harbor Ventures Fund II, L.P.", State: "DE"}
	fund.Skip = "pooled investment fund (Venture Capital Fund)"
	fund.Financing = nil
	applyFiling(t, s, fund, prospector.FilingResult{Status: prospector.FilingRecorded})
	applyFiling(t, s, fund, prospector.FilingResult{Status: prospector.FilingRecorded, Duplicate: true})
	if n, err := s.CountSignals(ctx); err != nil || n != 0 {
		t.Fatalf("a pooled fund made %d signals (%v)", n, err)
	}
	un, err := s.UnresolvedIssuers(ctx, 0)
	if err != nil || len(un) != 0 {
		t.Fatalf("a fund with nothing to apply waits for resolution: %+v, %v", un, err)
	}
	fs, err := s.SECFilings(ctx, prospector.SECFilingFilter{CIK: "7654321"})
	if err != nil || len(fs) != 1 || fs[0].Skip != fund.Skip || fs[0].Financing != nil || len(fs[0].People) != 2 {
		t.Fatalf("the fund's filing is kept with its reason: %+v, %v", fs, err)
	}
}

func testSECUnresolvedThenMapped(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	co := secCompany(t, s, "Acme Robotics", "acme-robotics.example")
	d := formD(secOriginal, "D", "2026-05-04", 2_500_000)
	d.Match = prospector.IssuerMatch{CompanyID: co.ID, Confidence: 0.5, Reason: prospector.MatchName}
	applyFiling(t, s, d, prospector.FilingResult{Status: prospector.FilingPending})
	da := formD(secAmendment, "D/A", "2026-06-15", 4_000_000)
	applyFiling(t, s, da, prospector.FilingResult{Status: prospector.FilingPending})
	k := eightK("0001234567-26-000020", "2026-05-05")
	applyFiling(t, s, k, prospector.FilingResult{Status: prospector.FilingPending})
	applyFiling(t, s, k, prospector.FilingResult{Status: prospector.FilingPending, Duplicate: true})
	if n, _ := s.CountSignals(ctx); n != 0 || len(financingEvents(t, s, co.ID)) != 0 {
		t.Fatalf("an unresolved issuer's filings wrote %d signals", n)
	}
	blue := eightK("0002222222-26-000001", "2026-05-05")
	blue.Issuer.CIK, blue.Issuer.Name = "2222222", "Bluefield Coatings LLC"
	blue.Match = prospector.IssuerMatch{CompanyID: co.ID, Confidence: 0.3, Reason: prospector.MatchName}
	applyFiling(t, s, blue, prospector.FilingResult{Status: prospector.FilingPending})
	un, err := s.UnresolvedIssuers(ctx, 0)
	if err != nil || len(un) != 2 || un[0].CIK != secCIK || un[0].Pending != 3 || un[0].CompanyID != nil ||
		un[0].CandidateID != nil || un[0].Match != "" || un[1].Pending != 1 || *un[1].CandidateID != co.ID ||
		un[1].Confidence != 0.3 || un[1].Name != "Bluefield Coatings LLC" {
		t.Fatalf("unresolved, most pending first: %+v, %v", un, err)
	}
	if un, _ := s.UnresolvedIssuers(ctx, 1); len(un) != 1 {
		t.Fatalf("limit 1: %d", len(un))
	}
	if _, err := s.MapIssuer(ctx, "999", co.Domain, srcT0); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("map an unknown CIK: %v", err)
	}
	if _, err := s.MapIssuer(ctx, secCIK, "nobody.example", srcT0); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("map to an unknown domain: %v", err)
	}
	res, err := s.MapIssuer(ctx, secCIK, "WWW.Acme-Robotics.example", srcT0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Applied != 3 || res.EventsInserted != 1 || res.SignalsInserted != 2 || *res.Issuer.CompanyID != co.ID ||
		res.Issuer.Match != prospector.MatchManual {
		t.Fatalf("map: %+v", res)
	}
	es := financingEvents(t, s, co.ID)
	if len(es) != 1 || es[0].Amount != "$4000000" || !es[0].FoundAt.Equal(utc("2026-05-04T00:00:00Z")) {
		t.Fatalf("mapped filings' event: %+v", es)
	}
	if sigs := companySignals(t, s, co.ID); len(sigs) != 2 {
		t.Fatalf("mapped filings' signals: %d", len(sigs))
	}
	if un, _ := s.UnresolvedIssuers(ctx, 0); len(un) != 1 || un[0].CIK != "2222222" {
		t.Fatalf("still unresolved: %+v", un)
	}
	// Exactly once: mapping again, or the source reading the filings
	// again, adds nothing.
	seq := maxSignalSeq(t, s)
	res, err = s.MapIssuer(ctx, secCIK, co.Domain, srcT0)
	if err != nil || res.Applied != 3 || res.EventsInserted+res.EventsUpdated+res.SignalsInserted+res.SignalsUpdated != 0 {
		t.Fatalf("map again: %+v, %v", res, err)
	}
	applyFiling(t, s, k, prospector.FilingResult{Status: prospector.FilingApplied, Duplicate: true})
	if got := maxSignalSeq(t, s); got != seq {
		t.Fatalf("mapping again moved the signals' seq")
	}
	// Mapping to another company moves the filings' event and signals.
	other := secCompany(t, s, "Acme Robotics Holdings", "acme-holdings.example")
	res, err = s.MapIssuer(ctx, secCIK, other.Domain, srcT0)
	if err != nil || res.EventsUpdated != 1 || res.SignalsUpdated != 2 {
		t.Fatalf("re-map: %+v, %v", res, err)
	}
	if len(financingEvents(t, s, co.ID)) != 0 || len(financingEvents(t, s, other.ID)) != 1 ||
		len(companySignals(t, s, other.ID)) != 2 || len(companySignals(t, s, co.ID)) != 0 {
		t.Fatal("re-mapping did not move the event and signals")
	}
}

func testSECResolvedByLaterFiling(t *testing.T, s prospector.Store) {
	co := secCompany(t, s, "Acme Robotics", "acme-robotics.example")
	applyFiling(t, s, eightK("0001234567-26-000020", "2026-05-05"), prospector.FilingResult{Status: prospector.FilingPending})
	d := formD(secOriginal, "D", "2026-05-06", 2_500_000)
	d.Match = resolvedTo(co)
	// The Form D resolves the issuer: the waiting 8-K is applied with it.
	applyFiling(t, s, d, prospector.FilingResult{Status: prospector.FilingApplied, EventsInserted: 1, SignalsInserted: 2})
	if sigs := companySignals(t, s, co.ID); len(sigs) != 2 {
		t.Fatalf("%d signals", len(sigs))
	}
}

func testSECRefused(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	d := formD(secOriginal, "D", "2026-05-04", 2_500_000)
	d.People[0].Name = "Dana\x00Example"
	if _, err := s.ApplyFiling(ctx, d); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("NUL in a related person's name: %v", err)
	}
	d = formD(secOriginal, "D", "2026-05-04", 2_500_000)
	d.Financing.FinancingType = "Equity\x00"
	if _, err := s.ApplyFiling(ctx, d); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("NUL in the event: %v", err)
	}
	d = formD(secOriginal, "D", "2026-05-04", 2_500_000)
	d.Match = prospector.IssuerMatch{CompanyID: 424242, Confidence: 0.99, Reason: prospector.MatchDomain, Resolved: true}
	if _, err := s.ApplyFiling(ctx, d); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("a match to no company: %v", err)
	}
	if _, err := s.SECIssuer(ctx, secCIK); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("a refused filing left its issuer behind: %v", err)
	}
}

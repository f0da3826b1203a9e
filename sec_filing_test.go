package prospector

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func testFormD(acc, filed string, sold int64, urls ...string) *SECFiling {
	amount := float64(sold)
	day, _ := time.Parse(time.DateOnly, filed)
	return &SECFiling{Accession: acc, Form: "D", Filed: filed, URL: urls[len(urls)-1], Kind: FilingFinancing,
		Issuer: SECIssuer{CIK: "1234567", Name: "Acme Robotics, Inc.", State: "CA", City: "San Francisco"},
		Financing: &FinancingEvent{ExternalID: "sec-formd-1234567-0001234567-26-000001", EventType: "financing_event",
			Categories: []string{"venture"}, FinancingType: "Equity (Form D, Rule 506(b))", FinancingTypeNormalized: "equity",
			Amount: "$" + thousands(sold), AmountNormalized: &amount, EffectiveDate: "2026-04-20",
			FoundAt: day, SourceURLs: urls, Investors: []Investor{}}}
}

// thousands writes 2500000 as 2,500,000.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func TestMergeFinancingAmendment(t *testing.T) {
	const orig, amend = "https://sec.example/d-index.htm", "https://sec.example/da-index.htm"
	d := testFormD("0001234567-26-000001", "2026-05-04", 2_500_000, orig).Financing
	da := testFormD("0001234567-26-000009", "2026-06-15", 4_000_000, orig, amend).Financing
	d.CompanyID, da.CompanyID = 7, 7

	// In order: the amendment's figures, the original's found_at.
	stored := MergeFinancing(nil, d, true)
	stored.ID = 11
	got := MergeFinancing(stored, da, true)
	if got.ID != 11 || got.Amount != "$4,000,000" || *got.AmountNormalized != 4e6 || !got.FoundAt.Equal(d.FoundAt) ||
		!reflect.DeepEqual(got.SourceURLs, []string{orig, amend}) {
		t.Fatalf("D then D/A: %+v", got)
	}
	// The original processed after its amendment: still the amendment's
	// figures, and now the original's found_at.
	stored = MergeFinancing(nil, da, true)
	got = MergeFinancing(stored, d, false)
	if got.Amount != "$4,000,000" || !got.FoundAt.Equal(d.FoundAt) || !reflect.DeepEqual(got.SourceURLs, []string{orig, amend}) {
		t.Fatalf("D/A then D: %+v", got)
	}
	// Merging does not touch its inputs.
	if len(da.SourceURLs) != 2 || d.Amount != "$2,500,000" {
		t.Fatalf("inputs changed: %v %v", da.SourceURLs, d.Amount)
	}
}

func TestFilingOutputs(t *testing.T) {
	f := testFormD("0001234567-26-000001", "2026-05-04", 2_500_000, "https://sec.example/d-index.htm")
	e, sigs := f.Outputs(7, "acme-robotics.example", nil, true)
	if e.CompanyID != 7 || e.CompanyDomain != "acme-robotics.example" || f.Financing.CompanyID != 0 {
		t.Fatalf("event %+v (filing's %+v)", e, f.Financing)
	}
	if len(sigs) != 1 {
		t.Fatalf("%d signals", len(sigs))
	}
	s := sigs[0]
	if s.ExternalID != e.ExternalID || s.Type != "funding_announcement" || *s.CompanyID != 7 ||
		s.Title != "Raised $2,500,000: Equity (Form D, Rule 506(b))" || s.SourceURL != "https://sec.example/d-index.htm" ||
		!s.DetectedAt.Equal(e.FoundAt) || !strings.HasPrefix(s.Detail, "Funding: ") ||
		!strings.Contains(s.Detail, "SEC Form D of Acme Robotics, Inc.") {
		t.Fatalf("funding signal %+v", s)
	}
	f.Skip = "pooled investment fund"
	if e, sigs := f.Outputs(7, "acme-robotics.example", nil, true); e != nil || sigs != nil || f.StatusFor(true) != FilingRecorded {
		t.Fatalf("a skipped filing yields %v %v", e, sigs)
	}

	k := &SECFiling{Accession: "0009999999-26-000002", Form: "8-K", Kind: FilingExecutive,
		Signals: []*Signal{{ExternalID: "sec-8k-1-jane-roe-appointed-2026-05-01", Type: "job_change", Title: "Jane Roe appointed CFO"}}}
	_, sigs = k.Outputs(9, "beta.example", nil, true)
	if len(sigs) != 1 || *sigs[0].CompanyID != 9 || sigs[0].CompanyDomain != "beta.example" || k.Signals[0].CompanyID != nil {
		t.Fatalf("8-K signals %+v", sigs[0])
	}
	if k.StatusFor(false) != FilingPending || k.StatusFor(true) != FilingApplied {
		t.Fatal("8-K with a change: pending until resolved, then applied")
	}
}

func TestFilingValidate(t *testing.T) {
	ok := func() *SECFiling {
		return testFormD("0001234567-26-000001", "2026-05-04", 1, "https://sec.example/d-index.htm")
	}
	if err := ok().Validate(); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		edit  func(*SECFiling)
		field string
	}{
		"accession":      {func(f *SECFiling) { f.Accession = "12-3" }, "accession"},
		"form":           {func(f *SECFiling) { f.Form = "10-K" }, "form"},
		"kind":           {func(f *SECFiling) { f.Form = "8-K" }, "kind"},
		"date":           {func(f *SECFiling) { f.Filed = "May 4" }, "filed"},
		"url":            {func(f *SECFiling) { f.URL = "ftp://x" }, "url"},
		"cik":            {func(f *SECFiling) { f.Issuer.CIK = "0001234567" }, "issuer.cik"},
		"issuer NUL":     {func(f *SECFiling) { f.Issuer.Name = "Acme\x00" }, "issuer.name"},
		"no event":       {func(f *SECFiling) { f.Financing = nil }, "financing"},
		"event NUL":      {func(f *SECFiling) { f.Financing.Amount = "$1\x00" }, "financing.amount"},
		"person NUL":     {func(f *SECFiling) { f.People = []FilingPerson{{Role: PersonRelated, Name: "J\x00 Roe"}} }, "people.name"},
		"person role":    {func(f *SECFiling) { f.People = []FilingPerson{{Role: "ceo", Name: "Jane Roe"}} }, "people.role"},
		"unparsed NUL":   {func(f *SECFiling) { f.Unparsed = []string{"resigned\x00"} }, "unparsed"},
		"match reason":   {func(f *SECFiling) { f.Match = IssuerMatch{Reason: "guess"} }, "match.reason"},
		"match resolved": {func(f *SECFiling) { f.Match = IssuerMatch{Resolved: true, Reason: MatchDomain} }, "match.company_id"},
	} {
		f := ok()
		c.edit(f)
		err := f.Validate()
		if ErrorCode(err) != EINVALID || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: err = %v, want a validation error naming %s", name, err, c.field)
		}
	}
}

func TestIssuerAbsorb(t *testing.T) {
	at := time.Date(2026, 5, 5, 0, 0, 0, 0, time.UTC)
	i := &SECIssuer{CIK: "1"}
	facts := SECIssuer{Name: "Acme Robotics, Inc.", State: "CA", City: "San Francisco"}
	if !i.Absorb(facts, "2026-05-04", IssuerMatch{CompanyID: 3, Confidence: 0.5, Reason: MatchName}, at) ||
		i.Resolved() || *i.CandidateID != 3 || i.Name != "Acme Robotics, Inc." {
		t.Fatalf("unresolved match: %+v", i)
	}
	if i.Absorb(facts, "2026-05-04", IssuerMatch{CompanyID: 3, Confidence: 0.5, Reason: MatchName}, at) {
		t.Fatal("the same facts and match again changed the issuer")
	}
	older := facts
	older.City = "Oakland"
	i.Absorb(older, "2026-01-02", IssuerMatch{}, at)
	if i.City != "San Francisco" || i.FactsFiled != "2026-05-04" {
		t.Fatalf("an older filing's facts replaced newer ones: %+v", i)
	}
	if !i.Absorb(facts, "2026-05-04", IssuerMatch{CompanyID: 3, Confidence: 0.9, Reason: MatchNameStateCity, Resolved: true}, at) ||
		*i.CompanyID != 3 || i.CandidateID != nil || i.Match != MatchNameStateCity || !i.ResolvedAt.Equal(at) {
		t.Fatalf("resolved: %+v", i)
	}
	i.Absorb(facts, "2026-06-01", IssuerMatch{CompanyID: 4, Confidence: 0.99, Reason: MatchDomain, Resolved: true}, at)
	if *i.CompanyID != 3 {
		t.Fatal("a later automatic match moved a resolved issuer")
	}
	i.MapTo(4, at)
	if *i.CompanyID != 4 || i.Match != MatchManual || i.Confidence != 1 {
		t.Fatalf("mapped: %+v", i)
	}
}

func TestDomainAndParents(t *testing.T) {
	for in, want := range map[string][]string{
		"https://ir.acme.example/investors": {"ir.acme.example", "acme.example"},
		"www.acme.example":                  {"acme.example"},
		"a.b.c.example":                     {"a.b.c.example", "b.c.example", "c.example"},
		"":                                  nil,
	} {
		if got := DomainAndParents(in); !reflect.DeepEqual(got, want) {
			t.Errorf("DomainAndParents(%q) = %v, want %v", in, got, want)
		}
	}
	if got := LegalNameKeys([]string{"Acme Robotics, Inc.", "ACME ROBOTICS", "", "Acme Holdings"}); !reflect.DeepEqual(got,
		[]string{"acme robotics", "acme"}) {
		t.Errorf("LegalNameKeys = %v", got)
	}
}

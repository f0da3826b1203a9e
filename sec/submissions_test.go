package sec

import (
	"errors"
	"testing"

	"github.com/prospectorhq/prospector/sec/sectest"
)

func fixtureSubmissions(t *testing.T, cik string) *Submissions {
	t.Helper()
	b, ok := sectest.Fixture("/submissions/CIK" + PadCIK(cik) + ".json")
	if !ok {
		t.Fatalf("no submissions fixture for %s", cik)
	}
	s, err := ParseSubmissions(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseSubmissions(t *testing.T) {
	s := fixtureSubmissions(t, "1900001")
	if s.CIK != "1900001" || s.Name != "Acme Robotics, Inc." || s.Website != "https://www.acme-robotics.example" ||
		s.SIC != "3569" || s.Business.City != "SAN FRANCISCO" || s.Business.State != "CA" || s.Phone != "415-555-0142" {
		t.Errorf("record = %+v", s)
	}
	if len(s.FormerNames) != 1 || s.FormerNames[0].Name != "Acme Automation Labs, Inc." {
		t.Errorf("former names = %+v", s.FormerNames)
	}
	if len(s.Filings) != 3 || s.Filings[0].Form != "D/A" || s.Filings[0].FileNumber != "021-555001" {
		t.Errorf("filings = %+v", s.Filings)
	}
	n := fixtureSubmissions(t, "1900003")
	if len(n.Tickers) != 1 || n.Tickers[0] != "NWAN" || n.Filings[0].Items != "5.02,9.01" || n.InvestorWebsite == "" {
		t.Errorf("northwind = %+v", n)
	}
	// The cik has been seen as a number; columns of unequal length are
	// read as far as they go.
	r, err := ParseSubmissions([]byte(`{"cik": 1900009, "name": "Ostrander Kilns", "filings": {"recent":
		{"accessionNumber": ["0001900009-26-000001", "bad", "0001900009-26-000002"], "form": ["D"]}}}`))
	if err != nil || r.CIK != "1900009" || len(r.Filings) != 2 || r.Filings[1].Form != "" {
		t.Errorf("numeric cik: %+v %v", r, err)
	}
	for _, bad := range []string{`[]`, `{"name": "No Cik"}`, `{"cik": {}, "name": "x"}`, `not json`} {
		if _, err := ParseSubmissions([]byte(bad)); !errors.Is(err, ErrNotSubmissions) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func TestResolveOriginal(t *testing.T) {
	subs := &Submissions{CIK: "1900001", Name: "Acme Robotics, Inc.", Filings: []SubmissionFiling{
		{Accession: "0001900001-26-000009", FilingDate: "2026-08-01", Form: "D/A", FileNumber: "021-555001"},
		{Accession: "0001900001-26-000004", FilingDate: "2026-06-01", Form: "D/A", FileNumber: "021-555001"},
		{Accession: "0001900001-26-000003", FilingDate: "2026-05-20", Form: "D", FileNumber: "021-555777"},
		{Accession: "0001900001-26-000001", FilingDate: "2026-05-04", Form: "D", FileNumber: "021-555001"},
		{Accession: "0001900001-24-000003", FilingDate: "2024-09-12", Form: "D", FileNumber: "021-498877"},
	}}
	for _, tc := range []struct {
		name      string
		o         Offering
		subs      *Submissions
		want, how string
	}{
		{"a notice is its own original", Offering{Accession: "0001900001-26-000001"}, subs, "0001900001-26-000001", OriginalSelf},
		// The second amendment names the first: the file number still
		// finds the notice.
		{"chain by file number", Offering{Accession: "0001900001-26-000009", IsAmendment: true, PreviousAccession: "0001900001-26-000004"},
			subs, "0001900001-26-000001", OriginalFileNumber},
		{"previous accession without a record", Offering{Accession: "0001900001-26-000009", IsAmendment: true, PreviousAccession: "0001900001-26-000004"},
			nil, "0001900001-26-000004", OriginalPrevious},
		{"latest prior notice", Offering{Accession: "0001900001-26-000010", IsAmendment: true, Filed: "2026-07-01"},
			subs, "0001900001-26-000003", OriginalLatestNotice},
		{"nothing tells", Offering{Accession: "0001900001-26-000010", IsAmendment: true}, nil, "0001900001-26-000010", OriginalUnknown},
	} {
		o := tc.o
		ResolveOriginal(&o, tc.subs)
		if o.Original != tc.want || o.OriginalMethod != tc.how {
			t.Errorf("%s: %s (%s), want %s (%s)", tc.name, o.Original, o.OriginalMethod, tc.want, tc.how)
		}
	}
}

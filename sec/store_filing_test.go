package sec

import (
	"context"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sec/sectest"
)

// The fixture day's filings, as the SEC source would hand them to the
// store: every one valid, Form Ds with their event and people, the fund
// skipped, the 8-K's executives tied to its signals.
func TestFilingsForTheStore(t *testing.T) {
	srv := sectest.New()
	defer srv.Close()
	c := newTestClient(t, srv, Options{})
	ctx := context.Background()
	es, _, err := c.DailyIndex(ctx, sectest.DefaultDay)
	if err != nil {
		t.Fatal(err)
	}
	acme := &prospector.Company{ID: 7, Name: "Acme Robotics", Domain: "acme-robotics.example"}
	at := time.Date(2026, 5, 5, 6, 0, 0, 0, time.UTC)
	got := map[string]*prospector.SECFiling{}
	for _, e := range es {
		subs, err := c.Submissions(ctx, e.CIK)
		if err != nil {
			t.Fatal(err)
		}
		var f *prospector.SECFiling
		switch e.FormType {
		case FormD, FormDA:
			o, err := c.FormD(ctx, e)
			if err != nil {
				t.Fatal(err)
			}
			ResolveOriginal(o, subs)
			facts := o.Facts(subs)
			f = o.Filing(c.BaseURL(), facts, Resolve(facts, []*prospector.Company{acme}), at)
		default:
			r, err := c.ExecutiveChanges(ctx, e)
			if err != nil {
				t.Fatal(err)
			}
			facts := r.Facts(subs)
			f = r.Filing(facts, Resolve(facts, []*prospector.Company{acme}), at)
		}
		if err := f.Validate(); err != nil {
			t.Fatalf("%s %s: %v", e.FormType, e.Accession, err)
		}
		got[e.Accession] = f
	}
	d, da := got["0001900001-26-000001"], got["0001900001-26-000002"]
	key := "sec-formd-1900001-0001900001-26-000001"
	if d == nil || da == nil || d.Financing.ExternalID != key || da.Financing.ExternalID != key || da.Form != FormDA ||
		d.Match != (prospector.IssuerMatch{CompanyID: 7, Confidence: ConfidenceDomain, Reason: "domain", Resolved: true}) ||
		*d.Offering.TotalSold != 2_500_000 || *da.Offering.TotalSold != 4_000_000 || da.Offering.Original != "0001900001-26-000001" ||
		len(d.People) == 0 || d.People[0].Role != prospector.PersonRelated || d.Issuer.CIK != "1900001" ||
		d.Issuer.Website == "" || len(d.Issuer.FormerNames) == 0 {
		t.Fatalf("Acme's D %+v and D/A %+v", d, da)
	}
	if q := (IssuerFacts{Name: d.Issuer.Name, FormerNames: d.Issuer.FormerNames, Website: d.Issuer.Website}).Query(); len(q.Names) < 2 ||
		q.Website != d.Issuer.Website {
		t.Fatalf("candidate query %+v", q)
	}
	fund := got["0001900002-26-000001"]
	if fund == nil || fund.Skip == "" || fund.Financing != nil || fund.StatusFor(true) != prospector.FilingRecorded ||
		fund.Match.Resolved {
		t.Fatalf("the fund %+v", fund)
	}
	nw := got["0001900003-26-000007"]
	if nw == nil || len(nw.Signals) != 4 || len(nw.People) != 4 || nw.Skip != "" || nw.Issuer.Name == "" || nw.Match.Resolved {
		t.Fatalf("Northwind's 8-K %+v", nw)
	}
	for i, p := range nw.People {
		if p.Role != prospector.PersonExecutive || p.SignalID != nw.Signals[i].ExternalID || p.Note == "" {
			t.Errorf("executive %d %+v does not name its signal %s", i, p, nw.Signals[i].ExternalID)
		}
	}
	if fh := got["0001900005-26-000011"]; fh == nil || fh.Skip != "no Item 5.02" || fh.HasOutput() {
		t.Fatalf("Fernhill's 8-K without Item 5.02: %+v", fh)
	}
}

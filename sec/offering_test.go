package sec

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector/sec/sectest"
)

func fixtureOffering(t *testing.T, cik, acc, form string) *Offering {
	t.Helper()
	path := "/" + strings.TrimPrefix(FilingFolderURL("", cik, acc), "/") + "primary_doc.xml"
	b, ok := sectest.Fixture(path)
	if !ok {
		t.Fatalf("fixture %s missing", path)
	}
	d, err := ParseFormDDoc(b)
	if err != nil {
		t.Fatal(err)
	}
	return NewOffering(d, IndexEntry{FormType: form, CIK: cik, DateFiled: "2026-05-04", Accession: acc}, DefaultBaseURL)
}

func TestFormDFixtureOffering(t *testing.T) {
	o := fixtureOffering(t, "1900001", "0001900001-26-000001", "D")
	is := o.Issuer
	if is.CIK != "1900001" || is.Name != "Acme Robotics, Inc." || is.State != "CA" || is.City != "San Francisco" ||
		is.Street1 != "400 Harbor Loop" || is.Phone != "415-555-0142" || is.EntityType != "Corporation" || is.YearOfInc != 2023 {
		t.Errorf("issuer = %+v", is)
	}
	if o.Skip != "" || o.IndustryGroup != "Other Technology" || o.FinancingTypeNormalized != FinancingEquity ||
		o.FinancingType != "Equity (Form D, Rule 506(b))" || o.Category != "venture" {
		t.Errorf("classification = %q %q %q %q", o.Skip, o.FinancingType, o.FinancingTypeNormalized, o.Category)
	}
	if *o.TotalOffering != 5000000 || *o.TotalSold != 2500000 || *o.TotalRemaining != 2500000 || o.FirstSale != "2026-04-20" ||
		*o.MinimumInvestment != 25000 || *o.InvestorCount != 7 {
		t.Errorf("amounts = %d %d %d %s", *o.TotalOffering, *o.TotalSold, *o.TotalRemaining, o.FirstSale)
	}
	if o.IsAmendment || o.Original != o.Accession || o.OriginalMethod != OriginalSelf {
		t.Errorf("original = %s (%s)", o.Original, o.OriginalMethod)
	}
	want := []RelatedPerson{
		{Name: "Marisol T Quenby", First: "Marisol", Middle: "T", Last: "Quenby", Relationships: []string{"Executive Officer", "Director"},
			Clarification: "Chief Executive Officer", City: "San Francisco", State: "CA"},
		{Name: "Dorian Achterberg", First: "Dorian", Last: "Achterberg", Relationships: []string{"Executive Officer"},
			Clarification: "Chief Financial Officer", City: "San Francisco", State: "CA"},
		{Name: "Priya Velankar", First: "Priya", Last: "Velankar", Relationships: []string{"Director"}, City: "Palo Alto", State: "CA"},
	}
	if !reflect.DeepEqual(o.RelatedPersons, want) {
		t.Errorf("related persons = %+v", o.RelatedPersons)
	}
	e := o.Event(DefaultBaseURL)
	if e.ExternalID != "sec-formd-1900001-0001900001-26-000001" || e.Amount != "$2,500,000" || *e.AmountNormalized != 2500000 ||
		e.EffectiveDate != "2026-04-20" || e.FoundAt.Format("2006-01-02") != "2026-05-04" || e.EventType != "financing_event" ||
		!reflect.DeepEqual(e.Categories, []string{"venture"}) || len(e.Investors) != 0 || e.Investors == nil ||
		!reflect.DeepEqual(e.SourceURLs, []string{"https://www.sec.gov/Archives/edgar/data/1900001/000190000126000001/0001900001-26-000001-index.htm"}) {
		t.Errorf("event = %+v", e)
	}
}

// The D/A maps to the D's event, with the amended amount and both
// filings as sources.
func TestFormDAmendmentUpdatesTheSameEvent(t *testing.T) {
	d := fixtureOffering(t, "1900001", "0001900001-26-000001", "D").Event(DefaultBaseURL)
	o := fixtureOffering(t, "1900001", "0001900001-26-000002", "D/A")
	if !o.IsAmendment || o.PreviousAccession != "0001900001-26-000001" || o.OriginalMethod != OriginalPrevious {
		t.Fatalf("amendment = %v %q %q", o.IsAmendment, o.PreviousAccession, o.OriginalMethod)
	}
	a := o.Event(DefaultBaseURL)
	if a.ExternalID != d.ExternalID || a.Amount != "$4,000,000" || *o.TotalRemaining != 1000000 {
		t.Errorf("amended event = %s %s, original %s", a.ExternalID, a.Amount, d.ExternalID)
	}
	if len(a.SourceURLs) != 2 || a.SourceURLs[0] != d.SourceURLs[0] || !strings.Contains(a.SourceURLs[1], "0001900001-26-000002-index.htm") {
		t.Errorf("sources = %v", a.SourceURLs)
	}
}

func TestPooledFundIsSkipped(t *testing.T) {
	o := fixtureOffering(t, "1900002", "0001900002-26-000001", "D")
	if o.Skip != "pooled investment fund (Venture Capital Fund)" || o.Event(DefaultBaseURL) != nil {
		t.Errorf("skip = %q", o.Skip)
	}
	if o.TotalOffering != nil || !o.OfferingIndefinite || !o.RemainingIndefinite || *o.TotalSold != 18750000 {
		t.Error("indefinite amounts")
	}
	// An entity named as promoter has "N/A" as first name.
	if o.RelatedPersons[0].Name != "Quiet Harbor GP, LLC" {
		t.Errorf("promoter = %q", o.RelatedPersons[0].Name)
	}
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name       string
		o          Offering
		skip, kind string
		ftype      string
		category   string
	}{
		{"equity 506(c)", Offering{Securities: []string{"equity"}, Exemptions: []string{"06c"}, IndustryGroup: "Biotechnology"},
			"", FinancingEquity, "Equity (Form D, Rule 506(c))", "venture"},
		{"equity and debt", Offering{Securities: []string{"debt", "equity"}},
			"", FinancingEquity, "Equity (Form D)", "venture"},
		{"debt with warrants", Offering{Securities: []string{"debt", "option"}, Exemptions: []string{"06b"}, IndustryGroup: "Manufacturing"},
			"", FinancingDebt, "Debt (Form D, Rule 506(b))", "other"},
		{"SAFE", Offering{Securities: []string{"other"}, OtherDescription: "Simple Agreements for Future Equity"},
			"", FinancingSAFE, "SAFE (Form D)", "venture"},
		{"convertible", Offering{Securities: []string{"debt", "other"}, OtherDescription: "Convertible Promissory Notes"},
			"", FinancingConvertibleNote, "Convertible Note (Form D)", "venture"},
		{"options only", Offering{Securities: []string{"option", "security_to_be_acquired"}, Exemptions: []string{"04.1"}},
			"", FinancingOption, "Options or Warrants (Form D, Rule 504(b)(1)(i))", "other"},
		{"business combination", Offering{Securities: []string{"equity"}, BusinessCombination: true},
			"", FinancingBusinessCombination, "Business Combination (Form D)", "other"},
		{"real estate equity", Offering{Securities: []string{"equity"}, IndustryGroup: "Residential"},
			"", FinancingEquity, "Equity (Form D)", "other"},
		{"tenant in common", Offering{Securities: []string{"tenant_in_common"}},
			"", FinancingOther, "Other (Form D)", "other"},
		{"other described", Offering{Securities: []string{"other"}, OtherDescription: "Membership units"},
			"", FinancingOther, "Other: Membership units (Form D)", "other"},
		{"pooled interests", Offering{Securities: []string{"pooled_fund"}, IndustryGroup: "Other Real Estate"},
			"pooled investment fund interests offered", FinancingOther, "Other (Form D)", "other"},
		{"private fund exclusion", Offering{Securities: []string{"equity"}, Exemptions: []string{"06b", "3C.7"}, IndustryGroup: "Investing"},
			"private fund: claims Investment Company Act Section 3(c)(7)", FinancingEquity, "Equity (Form D, Rule 506(b))", "other"},
	} {
		o := tc.o
		classify(&o)
		if o.Skip != tc.skip || o.FinancingTypeNormalized != tc.kind || o.FinancingType != tc.ftype || o.Category != tc.category {
			t.Errorf("%s: got %q %q %q %q", tc.name, o.Skip, o.FinancingTypeNormalized, o.FinancingType, o.Category)
		}
	}
}

func TestFormDEdgeCases(t *testing.T) {
	doc := func(body string) []byte {
		return []byte(`<?xml version="1.0" encoding="ISO-8859-1"?><edgarSubmission><submissionType>D</submissionType>` +
			`<primaryIssuer><cik>0001900301</cik><entityName>Caf` + "\xe9" + ` Lumi` + "\xe8" + `re Inc.</entityName></primaryIssuer>` + body + `</edgarSubmission>`)
	}
	d, err := ParseFormDDoc(doc(`<offeringData><typeOfFiling><newOrAmendment><isAmendment>false</isAmendment></newOrAmendment>` +
		`<dateOfFirstSale><yetToOccur>true</yetToOccur></dateOfFirstSale></typeOfFiling>` +
		`<typesOfSecuritiesOffered><isEquityType>true</isEquityType></typesOfSecuritiesOffered>` +
		`<offeringSalesAmounts><totalOfferingAmount>1000000</totalOfferingAmount><totalAmountSold>0</totalAmountSold>` +
		`<totalRemaining>1000000</totalRemaining></offeringSalesAmounts></offeringData>`))
	if err != nil {
		t.Fatal(err)
	}
	o := NewOffering(d, IndexEntry{CIK: "1900301", Accession: "0001900301-26-000001", DateFiled: "2026-05-04"}, DefaultBaseURL)
	if o.Issuer.Name != "Café Lumière Inc." {
		t.Errorf("latin-1 name = %q", o.Issuer.Name)
	}
	e := o.Event(DefaultBaseURL)
	if !o.FirstSaleYetToOccur || e.EffectiveDate != "" || e.Amount != "" || e.AmountNormalized != nil {
		t.Errorf("yet to occur, nothing sold: %+v", e)
	}
	// A D/A naming no previous filing is keyed on itself until resolved.
	d.SubmissionType = FormDA
	o = NewOffering(d, IndexEntry{CIK: "1900301", Accession: "0001900301-26-000002"}, DefaultBaseURL)
	if !o.IsAmendment || o.OriginalMethod != OriginalUnknown || o.Event(DefaultBaseURL).ExternalID != "sec-formd-1900301-0001900301-26-000002" {
		t.Errorf("unresolved amendment: %s %s", o.OriginalMethod, o.Original)
	}
	for _, bad := range []string{`<ownershipDocument/>`, `<edgarSubmission><submissionType>10-K</submissionType></edgarSubmission>`, `<edgarSubmission>`} {
		if _, err := ParseFormDDoc([]byte(bad)); !errors.Is(err, ErrNotFormD) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if v, ok, indef := amount(" 1,250,000 "); v != 1250000 || !ok || indef {
		t.Error("amount with separators")
	}
	if ExemptionName("3C.1") != "Investment Company Act Section 3(c)(1)" || ExemptionName("zz") != "zz" {
		t.Error("ExemptionName")
	}
}

package sec

import (
	"testing"

	"github.com/prospectorhq/prospector"
)

func TestNormalizeLegalName(t *testing.T) {
	for in, want := range map[string]string{
		"Acme Robotics, Inc.":                  "acme robotics",
		"ACME ROBOTICS INC":                    "acme robotics",
		"Acme Robotics Incorporated":           "acme robotics",
		"The Acme Robotics Co., Inc.":          "acme robotics",
		"Acme Robotics Holdings, L.L.C.":       "acme robotics",
		"Acme Robotics Corporation":            "acme robotics",
		"Acme Robotics Ltd":                    "acme robotics",
		"Acme Robotics Limited Partnership":    "acme robotics",
		"Acme Robotics, LP":                    "acme robotics",
		"Acme Robotics PLC":                    "acme robotics",
		"Tamsin & Crowe, LLC":                  "tamsin and crowe",
		"Tamsin and Crowe Company":             "tamsin and crowe",
		"Smith & Co.":                          "smith",
		"Café Lumière S.A.":                    "cafe lumiere",
		"O'Hare-Whitfield Group, Inc.":         "ohare whitfield group",
		"The Company":                          "company",
		"Holdings Inc":                         "holdings",
		"The":                                  "the",
		"Acme Robotic Systems":                 "acme robotic systems",
		"  Northwind   Analytics,   Inc.  ":    "northwind analytics",
		"Quiet Harbor Ventures Fund II, L.P.":  "quiet harbor ventures fund ii",
		"Orchard Lane Capital Partners L.L.P.": "orchard lane capital partners",
	} {
		if got := NormalizeLegalName(in); got != want {
			t.Errorf("NormalizeLegalName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestResolve(t *testing.T) {
	acmeSF := &prospector.Company{ID: 1, Name: "Acme Robotics", Domain: "acme-robotics.example", City: "San Francisco", Region: "California", CountryCode: "US"}
	acmeTX := &prospector.Company{ID: 2, Name: "Acme Robotics Inc", Domain: "acmerobotics-tx.example", City: "Austin", Region: "TX", CountryCode: "US"}
	systems := &prospector.Company{ID: 3, Name: "Acme Robotic Systems", Domain: "acme-systems.example", City: "San Francisco", Region: "CA"}
	noPlace := &prospector.Company{ID: 4, Name: "Bluefield Coatings", Domain: "bluefield.example"}
	oakland := &prospector.Company{ID: 5, Name: "Acme Robotics, Inc.", Domain: "acme-oak.example", City: "Oakland", Region: "CA", CountryCode: "US"}
	canada := &prospector.Company{ID: 6, Name: "Acme Robotics", Domain: "acme.example.ca", Region: "California", CountryCode: "CA"}

	facts := IssuerFacts{Name: "Acme Robotics, Inc.", State: "CA", StateDesc: "CALIFORNIA", City: "San Francisco"}
	withSite := facts
	withSite.Website = "https://www.acme-robotics.example/"
	for _, tc := range []struct {
		name     string
		f        IssuerFacts
		cands    []*prospector.Company
		want     *prospector.Company
		conf     float64
		reason   string
		resolved bool
	}{
		{"website domain wins over names", withSite, []*prospector.Company{acmeTX, acmeSF}, acmeSF, ConfidenceDomain, "domain", true},
		{"investor site on a subdomain", IssuerFacts{Name: "Other Name", Website: "ir.acme-robotics.example"}, []*prospector.Company{acmeSF}, acmeSF, ConfidenceSubdomain, "subdomain", true},
		{"name, state and city", facts, []*prospector.Company{acmeTX, acmeSF, systems}, acmeSF, ConfidenceNameStateCity, "name_state_city", true},
		{"name and state, city unknown", IssuerFacts{Name: "ACME ROBOTICS INC", State: "TX"}, []*prospector.Company{acmeTX}, acmeTX, ConfidenceNameState, "name_state", true},
		{"name and state, another city", facts, []*prospector.Company{oakland}, oakland, ConfidenceNameState - penaltyCity, "name_state", true},
		{"name alone is below the threshold", IssuerFacts{Name: "Bluefield Coatings LLC", State: "OH", City: "Columbus"}, []*prospector.Company{noPlace}, noPlace, ConfidenceName, "name", false},
		{"name in another state", facts, []*prospector.Company{acmeTX}, acmeTX, ConfidenceName - penaltyState, "name", false},
		{"a US state is not abroad", facts, []*prospector.Company{canada}, canada, ConfidenceName - penaltyState, "name", false},
		{"near miss: Robotic Systems is another company", facts, []*prospector.Company{systems}, nil, 0, "", false},
		{"former name", IssuerFacts{Name: "Acme Robotics Group", FormerNames: []string{"Acme Robotics, Inc."}, State: "CA", City: "San Francisco"},
			[]*prospector.Company{acmeSF}, acmeSF, ConfidenceNameStateCity - penaltyFormerName, "name_state_city", true},
		{"two namesakes tie", IssuerFacts{Name: "Acme Robotics"}, []*prospector.Company{acmeSF, oakland}, acmeSF, ConfidenceName, "ambiguous", false},
		{"no candidates", facts, nil, nil, 0, "", false},
	} {
		m := Resolve(tc.f, tc.cands)
		if m.Company != tc.want || (m.Confidence-tc.conf) > 1e-9 || (tc.conf-m.Confidence) > 1e-9 || m.Reason != tc.reason || m.Resolved != tc.resolved {
			t.Errorf("%s: got %v %.2f %q %v, want %v %.2f %q %v", tc.name, name(m.Company), m.Confidence, m.Reason, m.Resolved,
				name(tc.want), tc.conf, tc.reason, tc.resolved)
		}
	}
}

func name(c *prospector.Company) string {
	if c == nil {
		return "<nil>"
	}
	return c.Name + "/" + c.Domain
}

func TestOfferingFacts(t *testing.T) {
	o := fixtureOffering(t, "1900001", "0001900001-26-000001", "D")
	f := o.Facts(fixtureSubmissions(t, "1900001"))
	if f.Website != "https://www.acme-robotics.example" || f.City != "San Francisco" || f.State != "CA" ||
		len(f.FormerNames) != 1 || f.FormerNames[0] != "Acme Automation Labs, Inc." {
		t.Errorf("facts = %+v", f)
	}
	n := fixtureSubmissions(t, "1900003").Facts()
	if n.Website != "northwind-analytics.example" || n.City != "AUSTIN" {
		t.Errorf("northwind facts = %+v", n)
	}
	b := fixtureSubmissions(t, "1900004").Facts()
	if b.Website != "" {
		t.Errorf("bluefield has no website: %+v", b)
	}
}

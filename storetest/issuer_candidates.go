package storetest

import (
	"context"
	"slices"
	"testing"

	"github.com/prospectorhq/prospector"
)

func candidateDomains(t *testing.T, s prospector.Store, q prospector.IssuerCandidateQuery) []string {
	t.Helper()
	cs, err := s.IssuerCandidates(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cs {
		if c.Name == "" || c.Domain == "" {
			t.Fatalf("candidate without name or domain: %+v", c)
		}
		out = append(out, c.Domain)
	}
	slices.Sort(out)
	return out
}

func testIssuerCandidates(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	for _, c := range []struct{ name, domain string }{
		{"Acme Robotics", "acme-robotics.example"},
		{"ACME ROBOTICS, INC.", "acmerobotics-tx.example"},
		{"Acme Robotic Systems", "acme-systems.example"},
		{"Bluefield Coatings", "bluefield.example"},
		{"The Tamsin & Crowe Company", "tamsin.example"},
	} {
		secCompany(t, s, c.name, c.domain)
	}
	q := prospector.IssuerCandidateQuery{Names: []string{"Acme Robotics Corp", "Acme Robotics Corporation"}}
	if got := candidateDomains(t, s, q); !slices.Equal(got, []string{"acme-robotics.example", "acmerobotics-tx.example"}) {
		t.Fatalf("by name: %v", got)
	}
	q = prospector.IssuerCandidateQuery{Names: []string{"Tamsin and Crowe, LLC"}, Website: "https://ir.bluefield.example/sec"}
	if got := candidateDomains(t, s, q); !slices.Equal(got, []string{"bluefield.example", "tamsin.example"}) {
		t.Fatalf("by name and by a parent domain of the website: %v", got)
	}
	if got := candidateDomains(t, s, prospector.IssuerCandidateQuery{Names: []string{"Acme Robotics"}, Limit: 1}); len(got) != 1 {
		t.Fatalf("limit 1 per name: %v", got)
	}
	// Companies written after a lookup are found by the next: a new one,
	// and one renamed (under its new name only).
	secCompany(t, s, "Acme Robotics LLC", "acme-new.example")
	if _, err := s.UpsertCompanies(ctx, []*prospector.Company{{Name: "Northwind Analytics", Domain: "acme-systems.example",
		Website: "https://acme-systems.example"}}); err != nil {
		t.Fatal(err)
	}
	if got := candidateDomains(t, s, prospector.IssuerCandidateQuery{Names: []string{"Acme Robotics"}}); len(got) != 3 {
		t.Fatalf("after a new company: %v", got)
	}
	if got := candidateDomains(t, s, prospector.IssuerCandidateQuery{Names: []string{"Acme Robotic Systems Inc"}}); len(got) != 0 {
		t.Fatalf("a renamed company found under its old name: %v", got)
	}
	if got := candidateDomains(t, s, prospector.IssuerCandidateQuery{Names: []string{"Northwind Analytics, Inc."}}); len(got) != 1 {
		t.Fatalf("a renamed company not found under its new name: %v", got)
	}
}

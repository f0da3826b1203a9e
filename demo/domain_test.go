package demo

import (
	"context"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// companySink keeps the companies a generation hands over.
type companySink struct{ domains []string }

func (s *companySink) Companies(_ context.Context, cs []*prospector.Company) error {
	for i, c := range cs {
		c.ID = int64(len(s.domains) + i + 1)
	}
	for _, c := range cs {
		s.domains = append(s.domains, c.Domain)
	}
	return nil
}
func (s *companySink) People(_ context.Context, ps []*prospector.Person) error {
	for i, p := range ps {
		p.ID = int64(i + 1)
	}
	return nil
}
func (*companySink) Signals(context.Context, []*prospector.Signal) error                 { return nil }
func (*companySink) NewsEvents(context.Context, []*prospector.NewsEvent) error           { return nil }
func (*companySink) FinancingEvents(context.Context, []*prospector.FinancingEvent) error { return nil }

// Every domain the generator makes is recognised, the repeated pairs'
// "-n" included.
func TestIsCompanyDomainKnowsEveryGeneratedDomain(t *testing.T) {
	sink := &companySink{}
	if err := Generate(context.Background(), Config{Companies: 20000, People: 0, Seed: 3, Now: time.Now()}, sink, nil); err != nil {
		t.Fatal(err)
	}
	counted := 0
	for _, d := range sink.domains {
		if !IsCompanyDomain(d) {
			t.Fatalf("generated domain %q not recognised", d)
		}
		if len(d) > 0 && d[len(d)-len(".example")-2] == '-' {
			counted++
		}
	}
	if counted == 0 {
		t.Fatal("no repeated pair in 20,000 companies: the -n form went untested")
	}
}

func TestIsCompanyDomainRefusesOthers(t *testing.T) {
	for _, d := range []string{
		"northwind-labs.com",          // a real TLD
		"northwind-labs.example.com",  // under a real domain
		"mail.northwind-labs.example", // a subdomain
		"lumen.example",               // no noun
		"acme-labs.example",           // not a generated brand
		"northwind-banana.example",    // not an industry noun
		"northwind-labs-1.example",    // counters start at 2
		"northwind-labs-02.example",
		"northwind-labs-x.example",
		"north-labs.example", // a head without a tail
		"northwind-labs.test",
		"investor-granite-peak.example",
		"",
	} {
		if IsCompanyDomain(d) {
			t.Errorf("%q recognised as a demo company domain", d)
		}
	}
	for _, d := range []string{"northwind-labs.example", "bluepeak-cloud-3.example", "wrenfield-consulting-12.example"} {
		if !IsCompanyDomain(d) {
			t.Errorf("%q not recognised", d)
		}
	}
}

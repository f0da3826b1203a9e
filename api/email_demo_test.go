package api_test

import (
	"context"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/demo"
	"github.com/prospectorhq/prospector/email"
	"github.com/prospectorhq/prospector/importer"
)

// noMailResolver answers every MX lookup as the public DNS answers for
// a domain without mail servers (the reserved .example included), and
// counts the lookups.
type noMailResolver struct{ calls atomic.Int64 }

func (r *noMailResolver) LookupMX(_ context.Context, name string) ([]*net.MX, error) {
	r.calls.Add(1)
	return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
}

// TestEnrichEmailOnDemoData: the demo's companies (reserved .example
// domains of the generator's shape) are answered as mail domains, so a
// demo person's address is found from the company's pattern, unverified,
// for one credit, with no DNS lookup. The same company and people under
// a real-looking domain are answered exactly as before: DNS is asked,
// and a domain without mail servers gets no address and no charge.
func TestEnrichEmailOnDemoData(t *testing.T) {
	res := &noMailResolver{}
	withDemo := func(c *apiConfig) {
		c.Emails = email.New(email.Config{Resolver: res, People: c.Store, Synthetic: demo.IsCompanyDomain})
	}
	e := newEnv(t, withDemo)
	ctx := context.Background()
	sink := &importer.StoreSink{Store: e.store}
	if err := demo.Generate(ctx, demo.Config{Companies: 5, People: 80, Seed: 1, Now: time.Now()}, sink, nil); err != nil {
		t.Fatal(err)
	}
	if err := sink.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	sink.Close()
	people, err := e.store.ListPeople(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var subject *prospector.Person
	staff := map[int64][]*prospector.Person{}
	for _, p := range people {
		staff[*p.CompanyID] = append(staff[*p.CompanyID], p)
	}
	for _, p := range people {
		if p.NetworkURL != "" && p.Email == "" && subject == nil {
			for _, c := range staff[*p.CompanyID] {
				if c.Email != "" {
					subject = p
				}
			}
		}
	}
	if subject == nil {
		t.Fatal("no demo person to look up")
	}
	// The subject's company again, under a real-looking domain, with the
	// same people and addresses.
	real := strings.TrimSuffix(subject.CompanyDomain, ".example") + ".com"
	co := &prospector.Company{Name: subject.CompanyName + " Real", Domain: real, Industry: "Software Development"}
	if _, err := e.store.UpsertCompanies(ctx, []*prospector.Company{co}); err != nil {
		t.Fatal(err)
	}
	var copies []*prospector.Person
	for _, p := range staff[*subject.CompanyID] {
		c := *p
		c.ID, c.ExternalID, c.NetworkURL, c.CompanyID, c.CompanyDomain = 0, "copy-"+p.ExternalID, "", &co.ID, real
		if local, _, ok := strings.Cut(p.Email, "@"); ok {
			c.Email = local + "@" + real
		}
		copies = append(copies, &c)
	}
	if _, err := e.store.UpsertPeople(ctx, copies); err != nil {
		t.Fatal(err)
	}
	e.sync()
	w, key := e.workspace("newcomer", prospector.PlanGrowth, prospector.PlanGrowth)

	got := e.do("POST", enrichPath, key, map[string]any{"network_url": subject.NetworkURL}).emailAnswer(t)
	if !strings.HasSuffix(got.email, "@"+subject.CompanyDomain) || got.verified || got.confidence <= 0 || got.confidence > 0.8 {
		t.Fatalf("demo person: %+v", got)
	}
	if n := creditsUsed(t, e, w); n != 1 {
		t.Fatalf("demo answer charged %d credits, want 1", n)
	}
	if n := res.calls.Load(); n != 0 {
		t.Fatalf("%d DNS lookups for a demo domain", n)
	}

	realReq := map[string]any{"name": subject.FullName, "company": real}
	got = e.do("POST", enrichPath, key, realReq).emailAnswer(t)
	if got != (emailAnswer{"", false, 0}) || creditsUsed(t, e, w) != 1 || res.calls.Load() != 1 {
		t.Fatalf("real-looking domain without mail: %+v, %d credits, %d lookups", got, creditsUsed(t, e, w), res.calls.Load())
	}

	// Before: a finder without synthetic domains answers the real-looking
	// domain alike, and the demo person with nothing.
	before := &noMailResolver{}
	old := newEnvOn(t, e.store, func(c *apiConfig) {
		c.Emails = email.New(email.Config{Resolver: before, People: c.Store})
	})
	_, oldKey := old.workspace("before", prospector.PlanGrowth, prospector.PlanGrowth)
	if got := old.do("POST", enrichPath, oldKey, realReq).emailAnswer(t); got != (emailAnswer{"", false, 0}) || before.calls.Load() != 1 {
		t.Fatalf("real-looking domain before: %+v, %d lookups", got, before.calls.Load())
	}
	if got := old.do("POST", enrichPath, oldKey, map[string]any{"network_url": subject.NetworkURL}).emailAnswer(t); got.email != "" {
		t.Fatalf("demo person before: %+v", got)
	}
}

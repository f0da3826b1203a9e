package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"

	"github.com/prospectorhq/prospector"
)

// benchSample is what the contacts and email benchmarks ask about:
// domains of companies with people, and profile URLs of people.
type benchSample struct {
	domains  []string
	profiles []string
}

// benchSampleOf reads 500 people spread over the dataset and their
// companies' domains.
func benchSampleOf(ctx context.Context, st prospector.Store) (benchSample, error) {
	var s benchSample
	n, err := st.CountPeople(ctx)
	if err != nil {
		return s, err
	}
	step := max(n/500, 1)
	seen := map[string]bool{}
	for after := int64(0); after < n && len(s.profiles) < 500; after += step {
		ps, err := st.ListPeople(ctx, after, 1)
		if err != nil {
			return s, fmt.Errorf("bench sample: %w", err)
		}
		for _, p := range ps {
			if p.NetworkURL != "" && p.CompanyID != nil {
				s.profiles = append(s.profiles, p.NetworkURL)
			}
			if p.CompanyDomain != "" && !seen[p.CompanyDomain] {
				seen[p.CompanyDomain] = true
				s.domains = append(s.domains, p.CompanyDomain)
			}
		}
	}
	if len(s.domains) == 0 || len(s.profiles) == 0 {
		return s, fmt.Errorf("bench sample: the store holds no people with companies and profile URLs")
	}
	return s, nil
}

// contactRequest returns the body of one contacts or email request, or
// nil for the other endpoints.
func contactRequest(endpoint string, size int, r *rand.Rand, s benchSample, titles, levels, functions, countries []string) map[string]any {
	pick := func(vs []string) string { return vs[r.IntN(len(vs))] }
	domain := pick(s.domains)
	switch endpoint {
	case "contacts/find":
		return map[string]any{"company_domain": domain, "target_titles": []string{pick(titles), pick(titles)},
			"max_contacts": min(size, 50)}
	case "contacts/waterfall-icp":
		return map[string]any{"company_domain": domain, "max_results": min(size, 25), "cascade": []map[string]any{
			{"role": "decision_maker", "include_titles": []string{pick(titles)}, "exclude_titles": []string{"Assistant"}},
			{"role": "budget_owner", "include_titles": []string{pick(titles), pick(titles)}},
			{"role": "influencer", "include_titles": []string{pick(titles)}, "locations": []string{pick(countries), "WORLD"}},
		}}
	case "contacts/employee-finder":
		return map[string]any{"company_domain": domain, "job_levels": []string{pick(levels)},
			"job_functions": []string{pick(functions)}, "max_results": size}
	case "enrich/email":
		return map[string]any{"network_url": pick(s.profiles)}
	}
	return nil
}

// anyMX is the benchmark's DNS: every domain has one mail exchanger, so
// the figures are the service's own and no query leaves the machine.
type anyMX struct{}

func (anyMX) LookupMX(_ context.Context, name string) ([]*net.MX, error) {
	return []*net.MX{{Host: "mx." + name + ".", Pref: 10}}, nil
}

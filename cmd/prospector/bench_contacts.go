package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/url"
	"strconv"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/loadgen"
)

// benchSample is what the contacts, email and signals benchmarks ask
// about: domains of companies with people (sampled through people, so
// larger companies come up more often, as they do in prospecting), domains
// of companies drawn uniformly, and profile URLs of people.
type benchSample struct {
	domains   []string
	companies []string
	profiles  []string
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
	nc, err := st.CountCompanies(ctx)
	if err != nil {
		return s, err
	}
	for after := int64(0); after < nc && len(s.companies) < 1000; after += max(nc/1000, 1) {
		cs, err := st.ListCompanies(ctx, after, 1)
		if err != nil {
			return s, fmt.Errorf("bench sample: %w", err)
		}
		for _, c := range cs {
			s.companies = append(s.companies, c.Domain)
		}
	}
	if len(s.domains) == 0 || len(s.profiles) == 0 || len(s.companies) == 0 {
		return s, fmt.Errorf("bench sample: the store holds no people with companies and profile URLs")
	}
	return s, nil
}

// sampledRequest returns one request (method, the URL's query and body)
// of the endpoints that ask about companies and people of the dataset,
// and false for the others.
func sampledRequest(endpoint string, size int, r *rand.Rand, s benchSample, titles, levels, functions, countries []string) (loadgen.Request, bool) {
	pick := func(vs []string) string { return vs[r.IntN(len(vs))] }
	domain := pick(s.domains)
	var body any
	switch endpoint {
	case "contacts/find":
		body = map[string]any{"company_domain": domain, "target_titles": []string{pick(titles), pick(titles)},
			"max_contacts": min(size, 50)}
	case "contacts/waterfall-icp":
		body = map[string]any{"company_domain": domain, "max_results": min(size, 25), "cascade": []map[string]any{
			{"role": "decision_maker", "include_titles": []string{pick(titles)}, "exclude_titles": []string{"Assistant"}},
			{"role": "budget_owner", "include_titles": []string{pick(titles), pick(titles)}},
			{"role": "influencer", "include_titles": []string{pick(titles)}, "locations": []string{pick(countries), "WORLD"}},
		}}
	case "contacts/employee-finder":
		body = map[string]any{"company_domain": domain, "job_levels": []string{pick(levels)},
			"job_functions": []string{pick(functions)}, "max_results": size}
	case "enrich/email":
		body = map[string]any{"network_url": pick(s.profiles)}
	case "signals/bulk":
		domains := make([]string, 100)
		for i := range domains {
			domains[i] = pick(s.companies)
		}
		body = map[string]any{"company_domains": domains}
	case "signals/news-events":
		return loadgen.Request{Method: "GET", URL: "?company_domain=" + url.QueryEscape(pick(s.companies)) + "&limit=" + strconv.Itoa(min(size, 50))}, true
	default:
		return loadgen.Request{}, false
	}
	b, _ := json.Marshal(body)
	return loadgen.Request{Method: "POST", Body: b}, true
}

// anyMX is the benchmark's DNS: every domain has one mail exchanger, so
// the figures are the service's own and no query leaves the machine.
type anyMX struct{}

func (anyMX) LookupMX(_ context.Context, name string) ([]*net.MX, error) {
	return []*net.MX{{Host: "mx." + name + ".", Pref: 10}}, nil
}

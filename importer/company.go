package importer

import (
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

// parseCompany maps a record (our layout or the free company dataset's)
// to a normalised company.
func parseCompany(r record) (*prospector.Company, error) {
	c := &prospector.Company{}
	var err error
	get := func(dst *string, names ...string) {
		if err == nil {
			*dst, err = r.str(names...)
		}
	}
	var domain, website, industry, country, size, network, location string
	get(&c.Name, "name", "company_name", "company")
	get(&domain, "domain", "company_domain", "website", "website_url", "url")
	get(&website, "website", "website_url", "url")
	get(&industry, "industry")
	get(&c.Description, "description", "short_description", "about")
	get(&c.City, "city", "locality")
	get(&c.Region, "region", "state")
	get(&country, "country_code", "country", "hq_country")
	get(&location, "location", "hq_location")
	get(&size, "employee_range", "employee_size", "size", "company_size")
	get(&network, "network_url", "linkedin_url", "company_linkedin_url", "profile_url")
	get(&c.Ticker, "ticker")
	if err != nil {
		return nil, err
	}
	if err := required("name", c.Name); err != nil {
		return nil, err
	}
	if c.Domain = prospector.NormalizeDomain(domain); c.Domain == "" {
		if domain == "" {
			return nil, badLine("domain: required (or a website to take it from)")
		}
		return nil, badLine("domain: %q is not a domain", domain)
	}
	c.Website = website
	if c.Website == "" {
		c.Website = "https://" + c.Domain
	} else if !strings.Contains(c.Website, "://") {
		c.Website = "https://" + c.Website
	}
	if industry != "" {
		canonical, ok := taxonomy.NormalizeIndustry(industry)
		if !ok {
			return nil, badLine("industry: %q is not an industry of the taxonomy", industry)
		}
		c.Industry = canonical
	}
	if c.City, c.Region, c.CountryCode, err = placeOf(c.City, c.Region, country, location); err != nil {
		return nil, err
	}
	if c.Keywords, err = r.list("keywords", "tags", "specialties"); err != nil {
		return nil, err
	}
	for i, k := range c.Keywords {
		c.Keywords[i] = strings.ToLower(k)
	}
	if c.EmployeeCount, err = r.integer("employee_count", "employees", "headcount", "estimated_num_employees"); err != nil {
		return nil, err
	}
	if c.EmployeeCount != nil && *c.EmployeeCount < 0 {
		return nil, badLine("employee_count: must not be negative")
	}
	switch {
	case size != "":
		bucket, ok := taxonomy.NormalizeEmployeeRange(size)
		if !ok {
			return nil, badLine("employee_range: %q is not one of %s", size, strings.Join(taxonomy.EmployeeRanges(), ", "))
		}
		c.EmployeeRange = bucket
	case c.EmployeeCount != nil:
		c.EmployeeRange = taxonomy.EmployeeRangeOf(*c.EmployeeCount)
	}
	if c.Founded, err = r.integer("founded", "founded_year", "year_founded"); err != nil {
		return nil, err
	}
	if c.Founded != nil && (*c.Founded < 1600 || *c.Founded > int64(time.Now().Year()+1)) {
		return nil, badLine("founded: %d is not a plausible year", *c.Founded)
	}
	if c.RevenueUSD, err = r.integer("revenue_usd", "annual_revenue", "revenue"); err != nil {
		return nil, err
	}
	if network != "" {
		if c.NetworkURL = prospector.NormalizeProfileURL(network); c.NetworkURL == "" {
			return nil, badLine("network_url: %q is not a profile URL", network)
		}
	}
	return c, nil
}

// placeOf normalises a city/region/country triple, filling gaps from a
// free-text "City, Region, Country" location.
func placeOf(city, region, country, location string) (string, string, string, error) {
	if location != "" && city == "" && country == "" {
		parts := strings.Split(location, ",")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		last := parts[len(parts)-1]
		if len(parts) == 2 && usStates[strings.ToUpper(last)] {
			// "Austin, TX": a two-letter state after a city is far more
			// common in exports than a country code ("CA" is not Canada).
			country = "US"
		} else if code, ok := taxonomy.NormalizeCountry(last); ok && code != taxonomy.WorldCode {
			country, parts = code, parts[:len(parts)-1]
		}
		if len(parts) > 0 {
			city = parts[0]
		}
		if len(parts) > 1 {
			region = strings.Join(parts[1:], ", ")
		}
	}
	if country == "" {
		return city, region, "", nil
	}
	code, ok := taxonomy.NormalizeCountry(country)
	if !ok || code == taxonomy.WorldCode {
		return "", "", "", badLine("country: %q is not a country name or ISO 3166-1 code", country)
	}
	return city, region, code, nil
}

// usStates are the two-letter codes of the US states and DC.
var usStates = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Fields(`AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ
		NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY`) {
		m[s] = true
	}
	return m
}()

package importer

import (
	"regexp"
	"strings"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

var emailShape = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)

// personRef is a parsed person with the company reference still to
// resolve against the store.
type personRef struct {
	person         *prospector.Person
	companyNetwork string
}

// parsePerson maps a record (our layout or a common people export) to a
// normalised person.
func parsePerson(r record) (*personRef, error) {
	p := &prospector.Person{}
	var err error
	get := func(dst *string, names ...string) {
		if err == nil {
			*dst, err = r.str(names...)
		}
	}
	var network, companyDomain, companyNetwork, country, location string
	get(&p.ExternalID, "id", "external_id", "person_id")
	get(&p.FullName, "full_name", "name")
	get(&p.FirstName, "first_name", "firstname", "given_name")
	get(&p.LastName, "last_name", "lastname", "family_name", "surname")
	get(&p.Title, "title", "job_title", "position")
	get(&p.CompanyName, "company", "company_name", "organization", "organization_name")
	get(&companyDomain, "company_domain", "company_website", "website", "domain")
	get(&companyNetwork, "company_network_url", "company_linkedin_url", "company_profile_url")
	get(&network, "network_url", "linkedin_url", "person_linkedin_url", "profile_url")
	get(&p.Email, "email", "work_email", "email_address")
	get(&p.Phone, "phone", "phone_number", "mobile_phone", "work_direct_phone")
	get(&p.City, "city", "locality")
	get(&p.Region, "region", "state")
	get(&country, "country_code", "country")
	get(&location, "location")
	if err != nil {
		return nil, err
	}
	if p.FullName == "" {
		p.FullName = strings.TrimSpace(p.FirstName + " " + p.LastName)
	}
	if err := required("full_name (or first_name and last_name)", p.FullName); err != nil {
		return nil, err
	}
	if p.FirstName == "" && p.LastName == "" {
		if first, last, ok := strings.Cut(p.FullName, " "); ok {
			p.FirstName, p.LastName = first, strings.TrimSpace(last)
		}
	}
	if network != "" {
		if p.NetworkURL = prospector.NormalizeProfileURL(network); p.NetworkURL == "" {
			return nil, badLine("network_url: %q is not a profile URL", network)
		}
	}
	if p.NetworkURL == "" && p.ExternalID == "" {
		return nil, badLine("network_url or id: one is required to identify the person")
	}
	if p.Email != "" {
		p.Email = strings.ToLower(p.Email)
		if !emailShape.MatchString(p.Email) {
			return nil, badLine("email: %q is not an email address", p.Email)
		}
	}
	if companyDomain != "" {
		if p.CompanyDomain = prospector.NormalizeDomain(companyDomain); p.CompanyDomain == "" {
			return nil, badLine("company_domain: %q is not a domain", companyDomain)
		}
	}
	ref := &personRef{person: p}
	if companyNetwork != "" {
		if ref.companyNetwork = prospector.NormalizeProfileURL(companyNetwork); ref.companyNetwork == "" {
			return nil, badLine("company_network_url: %q is not a profile URL", companyNetwork)
		}
	}
	if p.City, p.Region, p.CountryCode, err = placeOf(p.City, p.Region, country, location); err != nil {
		return nil, err
	}
	if p.Score, err = r.number("score"); err != nil {
		return nil, err
	}
	if p.Score != nil && (*p.Score < 0 || *p.Score > 100) {
		return nil, badLine("score: must be between 0 and 100")
	}
	DeriveTitle(p)
	return ref, nil
}

// DeriveTitle fills the person's job level and function from the title:
// the one place both imports and the demo generator take them from.
func DeriveTitle(p *prospector.Person) {
	t := taxonomy.ParseTitle(p.Title)
	p.JobLevel, p.JobFunction = t.Level, t.Function
}

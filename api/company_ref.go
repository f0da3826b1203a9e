package api

import (
	"context"
	"errors"

	"github.com/prospectorhq/prospector"
)

// companyRef resolves the company a contacts request names: by domain
// when given, else by company profile URL. A company the data does not
// hold is 404 not_found: the contract's "company data unavailable".
func (s *Server) companyRef(ctx context.Context, domainField string, domain *string, urlFields []string, urls ...*string) (*prospector.Company, error) {
	if d := str(domain); d != "" {
		norm := prospector.NormalizeDomain(d)
		if norm == "" {
			return nil, filterErr(domainField, "%q is not a domain", d)
		}
		c, err := s.store.CompanyByDomain(ctx, norm)
		return companyOr404(c, err, domainField, norm)
	}
	for i, u := range urls {
		if v := str(u); v != "" {
			norm := prospector.NormalizeProfileURL(v)
			if norm == "" {
				return nil, filterErr(urlFields[i], "%q is not an http(s) profile URL", v)
			}
			c, err := s.store.CompanyByNetworkURL(ctx, norm)
			return companyOr404(c, err, urlFields[i], norm)
		}
	}
	names := domainField
	for _, f := range urlFields {
		names += " or " + f
	}
	return nil, filterErr(names, "required: give the company's domain or its profile URL")
}

// companyOr404 turns a store lookup's ErrNotFound into the caller's 404.
func companyOr404(c *prospector.Company, err error, field, value string) (*prospector.Company, error) {
	if errors.Is(err, prospector.ErrNotFound) {
		return nil, prospector.Errorf(prospector.ENOTFOUND, "company data unavailable for %s %s", field, value)
	}
	return c, err
}

package signals

import (
	"context"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
	"github.com/prospectorhq/prospector/taxonomy"
	"github.com/prospectorhq/prospector/wire"
)

// FeedRequest filters a feed. Its fields are the query parameters of GET
// /signals/hiring and /signals/funding, as text; "" is absent.
type FeedRequest struct {
	Since         string `json:"since"` // a day (YYYY-MM-DD) or an RFC 3339 time
	CompanyDomain string `json:"company_domain"`
	Industry      string `json:"industry"`
	Location      string `json:"location"` // a country, or WORLD
	Page          string `json:"page"`
	Limit         string `json:"limit"`
}

// FeedPagination is a feed page's position.
type FeedPagination struct {
	Page     int  `json:"page"`
	PerPage  int  `json:"per_page"`
	HasMore  bool `json:"has_more"`
	NextPage *int `json:"next_page"`
}

// Feed is a page of a feed.
type Feed struct {
	Items      []wire.Signal  `json:"items"`
	Pagination FeedPagination `json:"pagination"`
}

// Hiring returns a page of the hiring feed (company_hiring signals);
// a validation error names the parameter, a company_domain nobody has
// is 404.
func (s *Service) Hiring(ctx context.Context, req FeedRequest) (*Feed, error) {
	return s.feed(ctx, "company_hiring", req)
}

// Funding returns a page of the funding feed (funding_announcement
// signals); errors as Hiring.
func (s *Service) Funding(ctx context.Context, req FeedRequest) (*Feed, error) {
	return s.feed(ctx, "funding_announcement", req)
}

// feed answers a feed of one signal type over the whole dataset, which
// every workspace shares. It reads one row past the page to tell whether
// another page follows.
func (s *Service) feed(ctx context.Context, typ string, req FeedRequest) (*Feed, error) {
	f := prospector.SignalFeedFilter{Type: typ}
	var err error
	if f.Since, err = input.Time("since", req.Since, false); err != nil {
		return nil, err
	}
	if err := input.Len("company_domain", req.CompanyDomain, input.MaxURLText); err != nil {
		return nil, err
	}
	norm := prospector.NormalizeDomain(req.CompanyDomain)
	if req.CompanyDomain != "" && norm == "" {
		return nil, input.Errorf("company_domain", "%q is not a domain", req.CompanyDomain)
	}
	if inds, err := input.Industry("industry", req.Industry); err != nil {
		return nil, err
	} else if len(inds) > 0 {
		f.Industry = inds[0]
	}
	if f.Country, err = feedCountry("location", req.Location); err != nil {
		return nil, err
	}
	page, err := input.Int("page", req.Page, 1, input.MaxPage, 1)
	if err != nil {
		return nil, err
	}
	perPage, err := input.Int("limit", req.Limit, 1, maxFeedLimit, 25)
	if err != nil {
		return nil, err
	}
	f.Offset, f.Limit = (page-1)*perPage, perPage+1
	var known map[int64]*prospector.Company
	if norm != "" {
		co, err := s.Store.CompanyByDomain(ctx, norm)
		if co, err = input.KnownCompany(co, err, "company_domain", norm); err != nil {
			return nil, err
		}
		f.CompanyID, known = &co.ID, map[int64]*prospector.Company{co.ID: co}
	}
	sigs, err := s.Store.SignalFeed(ctx, f)
	if err != nil {
		return nil, err
	}
	pg := FeedPagination{Page: page, PerPage: perPage, HasMore: len(sigs) > perPage}
	if pg.HasMore {
		sigs = sigs[:perPage]
		next := page + 1
		pg.NextPage = &next
	}
	recs, err := s.records(ctx, sigs, known)
	if err != nil {
		return nil, err
	}
	return &Feed{Items: recs, Pagination: pg}, nil
}

// feedCountry reads the feeds' location: a country (name, code or alias)
// or WORLD (any country, returned as "").
func feedCountry(field, v string) (string, error) {
	if v == "" {
		return "", nil
	}
	if err := input.Len(field, v, input.MaxText); err != nil {
		return "", err
	}
	code, ok := taxonomy.NormalizeCountry(v)
	if !ok {
		return "", input.Errorf(field, "%q is not a country: use a country name, an ISO 3166-1 alpha-2 code or WORLD", v)
	}
	if code == taxonomy.WorldCode {
		return "", nil
	}
	return code, nil
}

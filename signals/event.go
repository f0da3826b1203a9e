package signals

import (
	"context"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
	"github.com/prospectorhq/prospector/wire"
)

// EventsPage is a page of a company's news or financing events.
type EventsPage[T any] struct {
	CompanyDomain string `json:"company_domain"`
	Type          string `json:"type"`
	Count         int    `json:"count"`
	Items         []T    `json:"items"`
}

// NewsRequest asks for a company's news events. Its fields are the
// query parameters of GET /signals/news-events, as text; "" is absent.
type NewsRequest struct {
	CompanyDomain string `json:"company_domain"`
	FoundAtFrom   string `json:"found_at_from"`  // a day (YYYY-MM-DD) or an RFC 3339 time
	FoundAtUntil  string `json:"found_at_until"` // a day (its whole) or an RFC 3339 time
	Page          string `json:"page"`
	Limit         string `json:"limit"`
}

// News returns a page of the company's news events, newest first. Every
// parameter is checked before the company is looked up, so a bad
// request is 400 even for an unknown company, which is 404.
func (s *Service) News(ctx context.Context, req NewsRequest) (*EventsPage[wire.News], error) {
	co, f, err := s.eventFilter(ctx, eventQuery{domain: req.CompanyDomain, fromName: "found_at_from", from: req.FoundAtFrom,
		untilName: "found_at_until", until: req.FoundAtUntil, page: req.Page, limit: req.Limit})
	if err != nil {
		return nil, err
	}
	es, err := s.Store.NewsEvents(ctx, f)
	if err != nil {
		return nil, err
	}
	out := &EventsPage[wire.News]{CompanyDomain: co.Domain, Type: "news_events", Items: make([]wire.News, 0, len(es))}
	for _, e := range es {
		out.Items = append(out.Items, wire.NewNews(e))
	}
	out.Count = len(out.Items)
	return out, nil
}

// FinancingRequest asks for a company's financing events, as
// NewsRequest does (GET /signals/financing-events).
type FinancingRequest struct {
	CompanyDomain    string `json:"company_domain"`
	FirstSeenAtFrom  string `json:"first_seen_at_from"`
	FirstSeenAtUntil string `json:"first_seen_at_until"`
	Page             string `json:"page"`
	Limit            string `json:"limit"`
}

// Financing returns a page of the company's financing events; errors as
// News.
func (s *Service) Financing(ctx context.Context, req FinancingRequest) (*EventsPage[wire.Financing], error) {
	co, f, err := s.eventFilter(ctx, eventQuery{domain: req.CompanyDomain, fromName: "first_seen_at_from",
		from: req.FirstSeenAtFrom, untilName: "first_seen_at_until", until: req.FirstSeenAtUntil, page: req.Page,
		limit: req.Limit})
	if err != nil {
		return nil, err
	}
	es, err := s.Store.FinancingEvents(ctx, f)
	if err != nil {
		return nil, err
	}
	out := &EventsPage[wire.Financing]{CompanyDomain: co.Domain, Type: "financing_events",
		Items: make([]wire.Financing, 0, len(es))}
	for _, e := range es {
		out.Items = append(out.Items, wire.NewFinancing(e, co))
	}
	out.Count = len(out.Items)
	return out, nil
}

// eventQuery is the query of both event workflows, whose found-time
// bounds are named fromName and untilName.
type eventQuery struct {
	domain, fromName, from, untilName, until, page, limit string
}

// eventFilter checks q and returns the company and the filter it asks
// for.
func (s *Service) eventFilter(ctx context.Context, q eventQuery) (*prospector.Company, prospector.EventFilter, error) {
	var f prospector.EventFilter
	if q.domain == "" {
		return nil, f, input.Errorf("company_domain", "required")
	}
	if err := input.Len("company_domain", q.domain, input.MaxURLText); err != nil {
		return nil, f, err
	}
	norm := prospector.NormalizeDomain(q.domain)
	if norm == "" {
		return nil, f, input.Errorf("company_domain", "%q is not a domain", q.domain)
	}
	var err error
	if f.From, err = input.Time(q.fromName, q.from, false); err != nil {
		return nil, f, err
	}
	if f.Until, err = input.Time(q.untilName, q.until, true); err != nil {
		return nil, f, err
	}
	if f.From != nil && f.Until != nil && f.From.After(*f.Until) {
		return nil, f, input.Errorf(q.fromName, "must not be after %s", q.untilName)
	}
	page, err := input.Int("page", q.page, 1, input.MaxPage, 1)
	if err != nil {
		return nil, f, err
	}
	if f.Limit, err = input.Int("limit", q.limit, 1, maxEventLimit, 10); err != nil {
		return nil, f, err
	}
	f.Offset = (page - 1) * f.Limit
	co, err := s.Store.CompanyByDomain(ctx, norm)
	if co, err = input.KnownCompany(co, err, "company_domain", norm); err != nil {
		return nil, f, err
	}
	f.CompanyID = co.ID
	return co, f, nil
}

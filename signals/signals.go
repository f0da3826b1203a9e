// Package signals holds the signal workflows: the recent signals of many
// companies at once (bulk) or of one, a company's news and financing
// events, and the hiring and funding feeds over the whole dataset
// (docs/decisions.md, "Signals").
package signals

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
	"github.com/prospectorhq/prospector/wire"
)

// Service runs the signal workflows for every front end.
type Service struct {
	Store Store
	// Catalog reads domains, companies' recent signals and the cards of
	// the companies and people they name: the index, then the store.
	Catalog prospector.Catalog
}

// Store is what Service reads beside its Catalog.
type Store interface {
	CompanyByDomain(ctx context.Context, domain string) (*prospector.Company, error)
	CompanyByNetworkURL(ctx context.Context, url string) (*prospector.Company, error)
	NewsEvents(ctx context.Context, f prospector.EventFilter) ([]*prospector.NewsEvent, error)
	FinancingEvents(ctx context.Context, f prospector.EventFilter) ([]*prospector.FinancingEvent, error)
	SignalFeed(ctx context.Context, f prospector.SignalFeedFilter) ([]*prospector.Signal, error)
}

// Bounds of the signals workflows (docs/decisions.md).
const (
	maxBulkDomains    = 100 // company_domains of signals/bulk
	bulkPerCompany    = 50  // signals per domain in signals/bulk
	maxCompanySignals = 100 // signals of signals/company/{id}
	maxEventLimit     = 50  // limit of news-events and financing-events
	maxFeedLimit      = 50  // limit of the hiring and funding feeds
)

// BulkRequest is POST /signals/bulk's body.
type BulkRequest struct {
	CompanyDomains []string `json:"company_domains"`
}

// BulkResult holds each requested domain's newest signals: every domain
// asked for (normalised, once), with none for a company nobody has.
type BulkResult struct {
	Domains []string // sorted
	Signals map[string][]wire.Signal
}

// AppendJSON appends the result as encoding/json writes a map: an object
// with the domains in order. Bulk answers hold hundreds of records, so
// they render without reflection.
func (r *BulkResult) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	for i, d := range r.Domains {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(wire.AppendString(b, d), ':', '[')
		recs := r.Signals[d]
		for j := range recs {
			if j > 0 {
				b = append(b, ',')
			}
			b = recs[j].AppendJSON(b)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// MarshalJSON renders the result for encoding/json.
func (r *BulkResult) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// Bulk returns the newest signals of the companies at the domains, up to
// 50 each: a validation error names the domain at fault.
func (s *Service) Bulk(ctx context.Context, req *BulkRequest) (*BulkResult, error) {
	if len(req.CompanyDomains) == 0 {
		return nil, input.Errorf("company_domains", "required: give one or more domains")
	}
	if len(req.CompanyDomains) > maxBulkDomains {
		return nil, input.Errorf("company_domains", "at most %d domains per call", maxBulkDomains)
	}
	data := make(map[string][]wire.Signal, len(req.CompanyDomains))
	domains := make([]string, 0, len(req.CompanyDomains))
	for i, d := range req.CompanyDomains {
		field := fmt.Sprintf("company_domains[%d]", i)
		if err := input.Len(field, strings.TrimSpace(d), input.MaxURLText); err != nil {
			return nil, err
		}
		norm := prospector.NormalizeDomain(d)
		if norm == "" {
			return nil, input.Errorf(field, "%q is not a domain", d)
		}
		if _, dup := data[norm]; !dup {
			data[norm] = []wire.Signal{}
			domains = append(domains, norm)
		}
	}
	ids, err := s.Catalog.CompanyIDsByDomain(ctx, domains)
	if err != nil {
		return nil, err
	}
	domainOf := make(map[int64]string, len(ids))
	companyIDs := make([]int64, 0, len(ids))
	for d, id := range ids {
		domainOf[id] = d
		companyIDs = append(companyIDs, id)
	}
	sigs, err := s.Catalog.CompanySignals(ctx, companyIDs, bulkPerCompany)
	if err != nil {
		return nil, err
	}
	recs, err := s.records(ctx, sigs, nil)
	if err != nil {
		return nil, err
	}
	for i, sg := range sigs {
		d := domainOf[*sg.CompanyID]
		data[d] = append(data[d], recs[i])
	}
	slices.Sort(domains)
	return &BulkResult{Domains: domains, Signals: data}, nil
}

// Company returns the newest signals of the company id names: its public
// id ("company:acme.io"), a profile URL or a domain. Something that is
// none of these is 400; a company the data does not hold is 404.
func (s *Service) Company(ctx context.Context, id string) ([]wire.Signal, error) {
	co, err := s.companyByID(ctx, "id", id)
	if err != nil {
		return nil, err
	}
	sigs, err := s.Catalog.CompanySignals(ctx, []int64{co.ID}, maxCompanySignals)
	if err != nil {
		return nil, err
	}
	return s.records(ctx, sigs, map[int64]*prospector.Company{co.ID: co})
}

// companyByID resolves a company identifier: its public id
// ("company:acme.io"), a profile URL (looked up as such first, then by its
// domain) or a domain.
func (s *Service) companyByID(ctx context.Context, field, v string) (*prospector.Company, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, input.Errorf(field, "required: a company domain, profile URL or company id")
	}
	if err := input.Len(field, v, input.MaxURLText); err != nil {
		return nil, err
	}
	if rest, ok := strings.CutPrefix(v, "company:"); ok {
		norm := prospector.NormalizeDomain(rest)
		if norm == "" {
			return nil, input.Errorf(field, "%q is not a company id: company: must be followed by a domain", v)
		}
		c, err := s.Store.CompanyByDomain(ctx, norm)
		return input.KnownCompany(c, err, field, v)
	}
	if u := prospector.NormalizeProfileURL(v); u != "" {
		c, err := s.Store.CompanyByNetworkURL(ctx, u)
		if !errors.Is(err, prospector.ErrNotFound) {
			return c, err
		}
	}
	norm := prospector.NormalizeDomain(v)
	if norm == "" {
		return nil, input.Errorf(field, "%q is not a domain, a company profile URL or a company id", v)
	}
	c, err := s.Store.CompanyByDomain(ctx, norm)
	return input.KnownCompany(c, err, field, v)
}

// records renders signals in their order. Companies in known are used as
// they are; the other companies and the people the signals name are read
// in one batch each, through the Catalog.
func (s *Service) records(ctx context.Context, sigs []*prospector.Signal, known map[int64]*prospector.Company) ([]wire.Signal, error) {
	var companyIDs, personIDs []int64
	seenCo, seenP := map[int64]bool{}, map[int64]bool{}
	for _, sg := range sigs {
		if id := sg.CompanyID; id != nil && known[*id] == nil && !seenCo[*id] {
			seenCo[*id] = true
			companyIDs = append(companyIDs, *id)
		}
		if id := sg.PersonID; id != nil && !seenP[*id] {
			seenP[*id] = true
			personIDs = append(personIDs, *id)
		}
	}
	companies, err := s.Catalog.CompanyCards(ctx, companyIDs)
	if err != nil {
		return nil, err
	}
	byCo := make(map[int64]*prospector.Company, len(known)+len(companies))
	for id, c := range known {
		byCo[id] = c
	}
	for _, c := range companies {
		byCo[c.ID] = c
	}
	people, err := s.Catalog.PersonCards(ctx, personIDs)
	if err != nil {
		return nil, err
	}
	byP := make(map[int64]*prospector.Person, len(people))
	for _, p := range people {
		byP[p.ID] = p
	}
	out := make([]wire.Signal, 0, len(sigs))
	for _, sg := range sigs {
		var (
			co *prospector.Company
			p  *prospector.Person
		)
		if sg.CompanyID != nil {
			co = byCo[*sg.CompanyID]
		}
		if sg.PersonID != nil {
			p = byP[*sg.PersonID]
		}
		out = append(out, wire.NewSignal(sg, co, p))
	}
	return out, nil
}

// Profile returns the company id names (as Company takes it) as a
// search result card, for a front end's company page: 400 for an id
// that is none of the forms, 404 for a company the data does not hold.
func (s *Service) Profile(ctx context.Context, id string) (*wire.Company, error) {
	co, err := s.companyByID(ctx, "id", id)
	if err != nil {
		return nil, err
	}
	c := wire.NewCompany(co)
	return &c, nil
}

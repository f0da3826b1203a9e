package api

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

// Bounds of the signals endpoints (docs/decisions.md).
const (
	maxBulkDomains    = 100 // company_domains of signals/bulk
	bulkPerCompany    = 50  // signals per domain in signals/bulk
	maxCompanySignals = 100 // signals of signals/company/{id}
	maxEventLimit     = 50  // limit of news-events and financing-events
	maxFeedLimit      = 50  // limit of the hiring and funding feeds
)

type bulkSignalsRequest struct {
	CompanyDomains []string `json:"company_domains"`
}

// bulkSignals: POST /api/v1/signals/bulk
func (s *Server) bulkSignals(w http.ResponseWriter, r *http.Request) error {
	var req bulkSignalsRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	if len(req.CompanyDomains) == 0 {
		return filterErr("company_domains", "required: give one or more domains")
	}
	if len(req.CompanyDomains) > maxBulkDomains {
		return filterErr("company_domains", "at most %d domains per call", maxBulkDomains)
	}
	data := make(map[string][]signalRecord, len(req.CompanyDomains))
	domains := make([]string, 0, len(req.CompanyDomains))
	for i, d := range req.CompanyDomains {
		norm := prospector.NormalizeDomain(d)
		if norm == "" {
			return filterErr(fmt.Sprintf("company_domains[%d]", i), "%q is not a domain", d)
		}
		if _, dup := data[norm]; !dup {
			data[norm] = []signalRecord{}
			domains = append(domains, norm)
		}
	}
	ids, err := s.companyIDsByDomain(r.Context(), domains)
	if err != nil {
		return err
	}
	domainOf := make(map[int64]string, len(ids))
	companyIDs := make([]int64, 0, len(ids))
	for d, id := range ids {
		domainOf[id] = d
		companyIDs = append(companyIDs, id)
	}
	sigs, err := s.companySignalList(r.Context(), companyIDs, bulkPerCompany)
	if err != nil {
		return err
	}
	recs, err := s.signalRecords(r.Context(), sigs, nil)
	if err != nil {
		return err
	}
	for i, sg := range sigs {
		d := domainOf[*sg.CompanyID]
		data[d] = append(data[d], recs[i])
	}
	// Hundreds of records per call: rendered without reflection, as
	// writeData would (keys sorted).
	slices.Sort(domains)
	bp := rawPool.Get().(*[]byte)
	defer putRaw(bp)
	b := append((*bp)[:0], `{"data":{`...)
	for i, d := range domains {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendJSONString(b, d), ':', '[')
		for j := range data[d] {
			if j > 0 {
				b = append(b, ',')
			}
			b = data[d][j].appendJSON(b)
		}
		b = append(b, ']')
	}
	b = append(b, "}}\n"...)
	writeRawJSON(w, http.StatusOK, b)
	*bp = b
	return nil
}

// companySignals: GET /api/v1/signals/company/{id}
func (s *Server) companySignals(w http.ResponseWriter, r *http.Request) error {
	co, err := s.companyByID(r.Context(), "id", r.PathValue("id"))
	if err != nil {
		return err
	}
	sigs, err := s.companySignalList(r.Context(), []int64{co.ID}, maxCompanySignals)
	if err != nil {
		return err
	}
	recs, err := s.signalRecords(r.Context(), sigs, map[int64]*prospector.Company{co.ID: co})
	if err != nil {
		return err
	}
	writeData(w, recs)
	return nil
}

// companyIDsByDomain resolves domains through the search index, asking
// the store only for those the index does not know (yet).
func (s *Server) companyIDsByDomain(ctx context.Context, domains []string) (map[string]int64, error) {
	ids := s.searcher.CompanyIDsByDomain(domains)
	if len(ids) == len(domains) {
		return ids, nil
	}
	var rest []string
	for _, d := range domains {
		if _, ok := ids[d]; !ok {
			rest = append(rest, d)
		}
	}
	stored, err := s.store.CompanyIDsByDomain(ctx, rest)
	if err != nil {
		return nil, err
	}
	for d, id := range stored {
		ids[d] = id
	}
	return ids, nil
}

// companySignalList returns the newest perCompany signals of each company,
// ordered by company id, then newest first: from the search index, which
// keeps them in memory, and from the store for companies the index does
// not know (yet).
func (s *Server) companySignalList(ctx context.Context, companyIDs []int64, perCompany int) ([]*prospector.Signal, error) {
	sigs, missing := s.searcher.CompanySignals(companyIDs, perCompany)
	if len(missing) == 0 {
		return sigs, nil
	}
	stored, err := s.store.SignalsByCompanies(ctx, missing, perCompany)
	if err != nil {
		return nil, err
	}
	sigs = append(sigs, stored...)
	slices.SortStableFunc(sigs, func(a, b *prospector.Signal) int { return cmp.Compare(*a.CompanyID, *b.CompanyID) })
	return sigs, nil
}

// companyByID resolves a company identifier: its public id
// ("company:acme.io"), a profile URL (looked up as such first, then by its
// domain) or a domain. Something that is none of these is 400; a company
// the data does not hold is 404.
func (s *Server) companyByID(ctx context.Context, field, v string) (*prospector.Company, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, filterErr(field, "required: a company domain, profile URL or company id")
	}
	if rest, ok := strings.CutPrefix(v, "company:"); ok {
		norm := prospector.NormalizeDomain(rest)
		if norm == "" {
			return nil, filterErr(field, "%q is not a company id: company: must be followed by a domain", v)
		}
		c, err := s.store.CompanyByDomain(ctx, norm)
		return companyOr404(c, err, field, v)
	}
	if u := prospector.NormalizeProfileURL(v); u != "" {
		c, err := s.store.CompanyByNetworkURL(ctx, u)
		if !errors.Is(err, prospector.ErrNotFound) {
			return c, err
		}
	}
	norm := prospector.NormalizeDomain(v)
	if norm == "" {
		return nil, filterErr(field, "%q is not a domain, a company profile URL or a company id", v)
	}
	c, err := s.store.CompanyByDomain(ctx, norm)
	return companyOr404(c, err, field, v)
}

type eventsResult[T any] struct {
	CompanyDomain string `json:"company_domain"`
	Type          string `json:"type"`
	Count         int    `json:"count"`
	Items         []T    `json:"items"`
}

// newsEvents: GET /api/v1/signals/news-events
func (s *Server) newsEvents(w http.ResponseWriter, r *http.Request) error {
	co, f, err := s.eventQuery(r, "found_at_from", "found_at_until")
	if err != nil {
		return err
	}
	es, err := s.store.NewsEvents(r.Context(), f)
	if err != nil {
		return err
	}
	out := eventsResult[newsItem]{CompanyDomain: co.Domain, Type: "news_events", Items: make([]newsItem, 0, len(es))}
	for _, e := range es {
		out.Items = append(out.Items, newNewsItem(e))
	}
	out.Count = len(out.Items)
	writeData(w, out)
	return nil
}

// financingEvents: GET /api/v1/signals/financing-events
func (s *Server) financingEvents(w http.ResponseWriter, r *http.Request) error {
	co, f, err := s.eventQuery(r, "first_seen_at_from", "first_seen_at_until")
	if err != nil {
		return err
	}
	es, err := s.store.FinancingEvents(r.Context(), f)
	if err != nil {
		return err
	}
	out := eventsResult[financingItem]{CompanyDomain: co.Domain, Type: "financing_events", Items: make([]financingItem, 0, len(es))}
	for _, e := range es {
		out.Items = append(out.Items, newFinancingItem(e, co))
	}
	out.Count = len(out.Items)
	writeData(w, out)
	return nil
}

// eventQuery reads the query of both event endpoints, whose found-time
// bounds are named fromName and untilName. Every parameter is checked
// before the company is looked up, so a bad request is 400 even for an
// unknown company.
func (s *Server) eventQuery(r *http.Request, fromName, untilName string) (*prospector.Company, prospector.EventFilter, error) {
	var f prospector.EventFilter
	q, err := readQuery(r)
	if err != nil {
		return nil, f, err
	}
	domain, err := q.get("company_domain")
	if err != nil {
		return nil, f, err
	}
	if domain == "" {
		return nil, f, filterErr("company_domain", "required")
	}
	norm := prospector.NormalizeDomain(domain)
	if norm == "" {
		return nil, f, filterErr("company_domain", "%q is not a domain", domain)
	}
	if f.From, err = q.time(fromName, false); err != nil {
		return nil, f, err
	}
	if f.Until, err = q.time(untilName, true); err != nil {
		return nil, f, err
	}
	if f.From != nil && f.Until != nil && f.From.After(*f.Until) {
		return nil, f, filterErr(fromName, "must not be after %s", untilName)
	}
	page, err := q.int("page", 1, maxPage, 1)
	if err != nil {
		return nil, f, err
	}
	if f.Limit, err = q.int("limit", 1, maxEventLimit, 10); err != nil {
		return nil, f, err
	}
	f.Offset = (page - 1) * f.Limit
	co, err := s.store.CompanyByDomain(r.Context(), norm)
	if co, err = companyOr404(co, err, "company_domain", norm); err != nil {
		return nil, f, err
	}
	f.CompanyID = co.ID
	return co, f, nil
}

type feedPagination struct {
	Page     int  `json:"page"`
	PerPage  int  `json:"per_page"`
	HasMore  bool `json:"has_more"`
	NextPage *int `json:"next_page"`
}

type signalFeedResult struct {
	Items      []signalRecord `json:"items"`
	Pagination feedPagination `json:"pagination"`
}

// hiringSignals: GET /api/v1/signals/hiring
func (s *Server) hiringSignals(w http.ResponseWriter, r *http.Request) error {
	return s.signalFeed(w, r, "company_hiring")
}

// fundingSignals: GET /api/v1/signals/funding
func (s *Server) fundingSignals(w http.ResponseWriter, r *http.Request) error {
	return s.signalFeed(w, r, "funding_announcement")
}

// signalFeed answers a feed of one signal type over the whole dataset,
// which every workspace shares. It reads one row past the page to tell
// whether another page follows.
func (s *Server) signalFeed(w http.ResponseWriter, r *http.Request, typ string) error {
	f := prospector.SignalFeedFilter{Type: typ}
	q, err := readQuery(r)
	if err != nil {
		return err
	}
	if f.Since, err = q.time("since", false); err != nil {
		return err
	}
	domain, err := q.get("company_domain")
	if err != nil {
		return err
	}
	norm := prospector.NormalizeDomain(domain)
	if domain != "" && norm == "" {
		return filterErr("company_domain", "%q is not a domain", domain)
	}
	ind, err := q.get("industry")
	if err != nil {
		return err
	}
	if inds, err := industry("industry", ind); err != nil {
		return err
	} else if len(inds) > 0 {
		f.Industry = inds[0]
	}
	loc, err := q.get("location")
	if err != nil {
		return err
	}
	if f.Country, err = feedCountry("location", loc); err != nil {
		return err
	}
	page, err := q.int("page", 1, maxPage, 1)
	if err != nil {
		return err
	}
	perPage, err := q.int("limit", 1, maxFeedLimit, 25)
	if err != nil {
		return err
	}
	f.Offset, f.Limit = (page-1)*perPage, perPage+1
	var known map[int64]*prospector.Company
	if norm != "" {
		co, err := s.store.CompanyByDomain(r.Context(), norm)
		if co, err = companyOr404(co, err, "company_domain", norm); err != nil {
			return err
		}
		f.CompanyID, known = &co.ID, map[int64]*prospector.Company{co.ID: co}
	}
	sigs, err := s.store.SignalFeed(r.Context(), f)
	if err != nil {
		return err
	}
	pg := feedPagination{Page: page, PerPage: perPage, HasMore: len(sigs) > perPage}
	if pg.HasMore {
		sigs = sigs[:perPage]
		next := page + 1
		pg.NextPage = &next
	}
	recs, err := s.signalRecords(r.Context(), sigs, known)
	if err != nil {
		return err
	}
	writeData(w, signalFeedResult{Items: recs, Pagination: pg})
	return nil
}

// feedCountry reads the feeds' location: a country (name, code or alias)
// or WORLD (any country, returned as "").
func feedCountry(field, v string) (string, error) {
	if v == "" {
		return "", nil
	}
	code, ok := taxonomy.NormalizeCountry(v)
	if !ok {
		return "", filterErr(field, "%q is not a country: use a country name, an ISO 3166-1 alpha-2 code or WORLD", v)
	}
	if code == taxonomy.WorldCode {
		return "", nil
	}
	return code, nil
}

// queryValues are a GET request's parameters. Unknown ones are ignored;
// one given twice is a 400, as a duplicate body member is: frameworks
// disagree about which copy wins. Blank values count as absent.
type queryValues url.Values

func readQuery(r *http.Request) (queryValues, error) {
	v, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, prospector.Errorf(prospector.EINVALID, "query: malformed query string")
	}
	return queryValues(v), nil
}

func (q queryValues) get(name string) (string, error) {
	vs := q[name]
	switch len(vs) {
	case 0:
		return "", nil
	case 1:
		return strings.TrimSpace(vs[0]), nil
	}
	return "", filterErr(name, "given %d times; give it once", len(vs))
}

// int reads an optional integer parameter with inclusive bounds.
func (q queryValues) int(name string, lo, hi, def int) (int, error) {
	v, err := q.get(name)
	if err != nil || v == "" {
		return def, err
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, filterErr(name, "must be an integer between %d and %d", lo, hi)
	}
	return bounded(name, &n, lo, hi, def)
}

// time reads an optional time bound: an RFC 3339 timestamp, or a day
// (YYYY-MM-DD, UTC) meaning its first instant, or its last when
// endOfDay, so that an upper bound of a day includes the whole day.
func (q queryValues) time(name string, endOfDay bool) (*time.Time, error) {
	v, err := q.get(name)
	if err != nil || v == "" {
		return nil, err
	}
	if d, err := time.Parse(time.DateOnly, v); err == nil {
		if endOfDay {
			d = d.Add(24*time.Hour - time.Nanosecond)
		}
		return &d, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return nil, filterErr(name, "%q is not a date (YYYY-MM-DD) or an RFC 3339 timestamp (2026-01-31T09:30:00Z; encode + as %%2B)", v)
	}
	t = t.UTC()
	return &t, nil
}

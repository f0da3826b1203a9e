package api

import (
	"context"
	"strconv"

	"github.com/prospectorhq/prospector"
)

// signalRecord is the contract's Signal record.
type signalRecord struct {
	ID            string   `json:"id"`
	Type          string   `json:"type"`
	Company       *string  `json:"company"`
	CompanyDomain *string  `json:"company_domain"`
	LeadID        string   `json:"lead_id"`
	LeadName      string   `json:"lead_name"`
	LeadTitle     *string  `json:"lead_title"`
	NetworkURL    *string  `json:"network_url"`
	Title         *string  `json:"title"`
	Detail        *string  `json:"detail"`
	SourceURL     *string  `json:"source_url"`
	DetectedAt    *string  `json:"detected_at"`
	Score         *float64 `json:"score"`
}

// newSignalRecord renders a signal with its company and person (either
// may be nil). The lead is the person when the signal names one, else the
// company (docs/decisions.md); the id is the lead's id and the signal's
// stored row id, which no later import changes.
func newSignalRecord(sg *prospector.Signal, co *prospector.Company, p *prospector.Person) signalRecord {
	r := signalRecord{Type: sg.Type, Title: orNull(sg.Title), Detail: orNull(sg.Detail), SourceURL: orNull(sg.SourceURL),
		Score: sg.Score}
	if !sg.DetectedAt.IsZero() {
		at := timestamp(sg.DetectedAt)
		r.DetectedAt = &at
	}
	if co != nil {
		r.Company, r.CompanyDomain = orNull(co.Name), orNull(co.Domain)
	}
	switch {
	case p != nil:
		r.LeadID, r.LeadName, r.LeadTitle, r.NetworkURL = p.PublicID(), p.FullName, orNull(p.Title), orNull(p.NetworkURL)
	case co != nil:
		r.LeadID, r.LeadName, r.NetworkURL = co.PublicID(), co.Name, orNull(co.NetworkURL)
	default:
		// Imports refuse signals that name nothing stored and deletes
		// cascade, so this is a safety net, not a documented shape.
		r.LeadID = "signal:" + sg.ExternalID
	}
	r.ID = r.LeadID + ":" + strconv.FormatInt(sg.ID, 10)
	return r
}

// signalRecords renders signals in their order. Companies in known are
// used as they are; the other companies and the people the signals name
// are read in one batch each (from the searcher's cards when it has them).
func (s *Server) signalRecords(ctx context.Context, sigs []*prospector.Signal, known map[int64]*prospector.Company) ([]signalRecord, error) {
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
	companies, err := items(ctx, companyIDs, s.searcher.CompanyCards, s.store.CompanyCards,
		func(c *prospector.Company) int64 { return c.ID }, self[prospector.Company])
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
	people, err := items(ctx, personIDs, s.searcher.PersonCards, s.store.PersonCards,
		func(p *prospector.Person) int64 { return p.ID }, self[prospector.Person])
	if err != nil {
		return nil, err
	}
	byP := make(map[int64]*prospector.Person, len(people))
	for _, p := range people {
		byP[p.ID] = p
	}
	out := make([]signalRecord, 0, len(sigs))
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
		out = append(out, newSignalRecord(sg, co, p))
	}
	return out, nil
}

func self[T any](v *T) *T { return v }

// newsItem is the contract's News event item.
type newsItem struct {
	ID            string                    `json:"id"`
	EventType     string                    `json:"event_type"`
	Categories    []string                  `json:"categories"`
	EffectiveDate *string                   `json:"effective_date"`
	FoundAt       string                    `json:"found_at"`
	Attributes    prospector.NewsAttributes `json:"attributes"`
}

// newNewsItem renders a news event; its id is the event's source id, the
// natural key imports upsert by.
func newNewsItem(e *prospector.NewsEvent) newsItem {
	attrs := e.Attributes
	attrs.Normalize()
	return newsItem{ID: e.ExternalID, EventType: e.EventType, Categories: orEmpty(e.Categories),
		EffectiveDate: orNull(e.EffectiveDate), FoundAt: timestamp(e.FoundAt), Attributes: attrs}
}

// financingCompany is the company member of a Financing event item.
type financingCompany struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Domain string  `json:"domain"`
	Ticker *string `json:"ticker"`
}

// financingItem is the contract's Financing event item.
type financingItem struct {
	ID                      string                `json:"id"`
	EventType               string                `json:"event_type"`
	Categories              []string              `json:"categories"`
	FinancingType           *string               `json:"financing_type"`
	FinancingTypeNormalized *string               `json:"financing_type_normalized"`
	Amount                  *string               `json:"amount"`
	AmountNormalized        *float64              `json:"amount_normalized"`
	EffectiveDate           *string               `json:"effective_date"`
	FoundAt                 string                `json:"found_at"`
	SourceURLs              []string              `json:"source_urls"`
	Company                 financingCompany      `json:"company"`
	Investors               []prospector.Investor `json:"investors"`
}

// newFinancingItem renders a financing event of company co.
func newFinancingItem(e *prospector.FinancingEvent, co *prospector.Company) financingItem {
	investors := e.Investors
	if investors == nil {
		investors = []prospector.Investor{}
	}
	return financingItem{ID: e.ExternalID, EventType: e.EventType, Categories: orEmpty(e.Categories),
		FinancingType: orNull(e.FinancingType), FinancingTypeNormalized: orNull(e.FinancingTypeNormalized),
		Amount: orNull(e.Amount), AmountNormalized: e.AmountNormalized, EffectiveDate: orNull(e.EffectiveDate),
		FoundAt: timestamp(e.FoundAt), SourceURLs: orEmpty(e.SourceURLs),
		Company:   financingCompany{ID: co.PublicID(), Name: co.Name, Domain: co.Domain, Ticker: orNull(co.Ticker)},
		Investors: investors}
}

// orEmpty maps nil to [], for list fields.
func orEmpty(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

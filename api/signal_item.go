package api

import (
	"context"
	"strconv"
	"time"

	"github.com/prospectorhq/prospector"
)

// signalRecord is the contract's Signal record. Empty optional strings
// and a zero DetectedAt render as null. It renders itself (appendJSON):
// signals/bulk writes hundreds per call, and plain fields cost no
// allocation per member the way pointers for null would.
type signalRecord struct {
	RowID         int64 // the signal's stored row id: id is <lead_id>:<row id>
	Type          string
	Company       string
	CompanyDomain string
	LeadID        string
	LeadName      string
	LeadTitle     string
	NetworkURL    string
	Title         string
	Detail        string
	SourceURL     string
	DetectedAt    time.Time
	Score         *float64
}

// newSignalRecord renders a signal with its company and person (either
// may be nil). The lead is the person when the signal names one, else the
// company (docs/decisions.md); the id is the lead's id and the signal's
// stored row id, which no later import changes.
func newSignalRecord(sg *prospector.Signal, co *prospector.Company, p *prospector.Person) signalRecord {
	r := signalRecord{RowID: sg.ID, Type: sg.Type, Title: sg.Title, Detail: sg.Detail, SourceURL: sg.SourceURL,
		DetectedAt: sg.DetectedAt, Score: sg.Score}
	if co != nil {
		r.Company, r.CompanyDomain = co.Name, co.Domain
	}
	switch {
	case p != nil:
		r.LeadID, r.LeadName, r.LeadTitle, r.NetworkURL = p.PublicID(), p.FullName, p.Title, p.NetworkURL
	case co != nil:
		r.LeadID, r.LeadName, r.NetworkURL = co.PublicID(), co.Name, co.NetworkURL
	default:
		// Imports refuse signals that name nothing stored and deletes
		// cascade, so this is a safety net, not a documented shape.
		r.LeadID = "signal:" + sg.ExternalID
	}
	return r
}

// MarshalJSON renders the record for encoding/json (the feeds); the hot
// paths call appendJSON directly.
func (r signalRecord) MarshalJSON() ([]byte, error) { return r.appendJSON(nil), nil }

// appendJSON appends the record as a JSON object, members in the
// contract's order.
func (r *signalRecord) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, r.LeadID)
	b = append(b[:len(b)-1], ':') // the lead id's closing quote
	b = strconv.AppendInt(b, r.RowID, 10)
	b = append(b, `","type":`...)
	b = appendJSONString(b, r.Type)
	b = appendJSONMember(b, "company", r.Company)
	b = appendJSONMember(b, "company_domain", r.CompanyDomain)
	b = append(b, `,"lead_id":`...)
	b = appendJSONString(b, r.LeadID)
	b = append(b, `,"lead_name":`...)
	b = appendJSONString(b, r.LeadName)
	b = appendJSONMember(b, "lead_title", r.LeadTitle)
	b = appendJSONMember(b, "network_url", r.NetworkURL)
	b = appendJSONMember(b, "title", r.Title)
	b = appendJSONMember(b, "detail", r.Detail)
	b = appendJSONMember(b, "source_url", r.SourceURL)
	b = append(b, `,"detected_at":`...)
	if r.DetectedAt.IsZero() {
		b = append(b, "null"...)
	} else {
		b = append(b, '"')
		b = r.DetectedAt.UTC().AppendFormat(b, timestampLayout)
		b = append(b, '"')
	}
	b = append(b, `,"score":`...)
	if r.Score == nil {
		b = append(b, "null"...)
	} else {
		b = appendJSONFloat(b, *r.Score)
	}
	return append(b, '}')
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

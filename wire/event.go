package wire

import "github.com/prospectorhq/prospector"

// News is the contract's News event item.
type News struct {
	ID            string                    `json:"id"`
	EventType     string                    `json:"event_type"`
	Categories    []string                  `json:"categories"`
	EffectiveDate *string                   `json:"effective_date"`
	FoundAt       string                    `json:"found_at"`
	Attributes    prospector.NewsAttributes `json:"attributes"`
}

// NewNews renders a news event; its id is the event's source id, the
// natural key imports upsert by.
func NewNews(e *prospector.NewsEvent) News {
	attrs := e.Attributes
	attrs.Normalize()
	return News{ID: e.ExternalID, EventType: e.EventType, Categories: OrEmpty(e.Categories),
		EffectiveDate: OrNull(e.EffectiveDate), FoundAt: Timestamp(e.FoundAt), Attributes: attrs}
}

// FinancingCompany is the company member of a Financing event item.
type FinancingCompany struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Domain string  `json:"domain"`
	Ticker *string `json:"ticker"`
}

// Financing is the contract's Financing event item.
type Financing struct {
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
	Company                 FinancingCompany      `json:"company"`
	Investors               []prospector.Investor `json:"investors"`
}

// NewFinancing renders a financing event of company co.
func NewFinancing(e *prospector.FinancingEvent, co *prospector.Company) Financing {
	investors := e.Investors
	if investors == nil {
		investors = []prospector.Investor{}
	}
	return Financing{ID: e.ExternalID, EventType: e.EventType, Categories: OrEmpty(e.Categories),
		FinancingType: OrNull(e.FinancingType), FinancingTypeNormalized: OrNull(e.FinancingTypeNormalized),
		Amount: OrNull(e.Amount), AmountNormalized: e.AmountNormalized, EffectiveDate: OrNull(e.EffectiveDate),
		FoundAt: Timestamp(e.FoundAt), SourceURLs: OrEmpty(e.SourceURLs),
		Company:   FinancingCompany{ID: co.PublicID(), Name: co.Name, Domain: co.Domain, Ticker: OrNull(co.Ticker)},
		Investors: investors}
}

package prospector

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// NewsAttributes are the contract's news event attributes. Every member
// is always present in JSON: null or [] when unknown.
type NewsAttributes struct {
	Summary                 *string        `json:"summary"`
	Confidence              *float64       `json:"confidence"`
	ArticleSentence         *string        `json:"article_sentence"`
	Planning                *bool          `json:"planning"`
	Amount                  *string        `json:"amount"`
	AmountNormalized        *float64       `json:"amount_normalized"`
	Assets                  *string        `json:"assets"`
	AssetsTags              []string       `json:"assets_tags"`
	Award                   *string        `json:"award"`
	Contact                 *string        `json:"contact"`
	Division                *string        `json:"division"`
	Event                   *string        `json:"event"`
	FinancingType           *string        `json:"financing_type"`
	FinancingTypeNormalized *string        `json:"financing_type_normalized"`
	FinancingTypeTags       []string       `json:"financing_type_tags"`
	Headcount               *int64         `json:"headcount"`
	JobTitle                *string        `json:"job_title"`
	JobTitleTags            []string       `json:"job_title_tags"`
	Location                *string        `json:"location"`
	LocationData            []LocationData `json:"location_data"`
	Product                 *string        `json:"product"`
	ProductData             ProductData    `json:"product_data"`
	ProductTags             []string       `json:"product_tags"`
	Recognition             *string        `json:"recognition"`
	Vulnerability           *string        `json:"vulnerability"`
}

// LocationData is one structured place a news event names.
type LocationData struct {
	City        *string `json:"city"`
	State       *string `json:"state"`
	Country     *string `json:"country"`
	CountryCode *string `json:"country_code"`
}

// ProductData describes the product a news event names.
type ProductData struct {
	FullText       *string `json:"full_text"`
	Name           *string `json:"name"`
	ReleaseType    *string `json:"release_type"`
	ReleaseVersion *string `json:"release_version"`
	FuzzyMatch     *bool   `json:"fuzzy_match"`
}

// Normalize replaces nil lists with empty ones so JSON shows [].
func (a *NewsAttributes) Normalize() {
	for _, l := range []*[]string{&a.AssetsTags, &a.FinancingTypeTags, &a.JobTitleTags, &a.ProductTags} {
		if *l == nil {
			*l = []string{}
		}
	}
	if a.LocationData == nil {
		a.LocationData = []LocationData{}
	}
}

// NewsEvent is something reported about a company: a launch, a
// partnership, an acquisition. Its natural key is ExternalID.
type NewsEvent struct {
	ID            int64
	ExternalID    string
	CompanyID     int64
	CompanyDomain string // used to resolve CompanyID on import
	EventType     string
	Categories    []string
	EffectiveDate string // YYYY-MM-DD or ""
	FoundAt       time.Time
	Attributes    NewsAttributes
}

// Investor is one participant of a financing round.
type Investor struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Domain *string `json:"domain"`
	Ticker *string `json:"ticker"`
}

// FinancingEvent is a funding round or other financing of a company. Its
// natural key is ExternalID.
type FinancingEvent struct {
	ID                      int64
	ExternalID              string
	CompanyID               int64
	CompanyDomain           string
	EventType               string
	Categories              []string
	FinancingType           string
	FinancingTypeNormalized string
	Amount                  string
	AmountNormalized        *float64
	EffectiveDate           string
	FoundAt                 time.Time
	SourceURLs              []string
	Investors               []Investor
}

// AttributesJSON is the stored form of e's attributes, which its content
// hash covers.
func (e *NewsEvent) AttributesJSON() ([]byte, error) {
	b, err := json.Marshal(e.Attributes)
	if err != nil {
		return nil, fmt.Errorf("news event %s attributes: %w", e.ExternalID, err)
	}
	return b, nil
}

// InvestorsJSON is the stored form of e's investors, which its content
// hash covers: a JSON list, [] when there are none.
func (e *FinancingEvent) InvestorsJSON() ([]byte, error) {
	investors := e.Investors
	if investors == nil {
		investors = []Investor{}
	}
	b, err := json.Marshal(investors)
	if err != nil {
		return nil, fmt.Errorf("financing event %s investors: %w", e.ExternalID, err)
	}
	return b, nil
}

// EventFilter selects a company's events by found time, newest first.
type EventFilter struct {
	CompanyID int64
	From      *time.Time // inclusive
	Until     *time.Time // inclusive
	Offset    int
	Limit     int
}

// EventStore persists news and financing events.
type EventStore interface {
	// UpsertNewsEvents inserts or updates by ExternalID in one transaction.
	UpsertNewsEvents(ctx context.Context, es []*NewsEvent) (UpsertResult, error)
	// UpsertFinancingEvents inserts or updates by ExternalID in one transaction.
	UpsertFinancingEvents(ctx context.Context, es []*FinancingEvent) (UpsertResult, error)
	// NewsEvents returns a company's news events matching f.
	NewsEvents(ctx context.Context, f EventFilter) ([]*NewsEvent, error)
	// FinancingEvents returns a company's financing events matching f.
	FinancingEvents(ctx context.Context, f EventFilter) ([]*FinancingEvent, error)
}

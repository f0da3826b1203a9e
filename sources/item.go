package sources

import "github.com/prospectorhq/prospector"

// OpeningItem is one job opening as the API returns it.
type OpeningItem struct {
	// ID is the opening's hiring signal's id:
	// job:DOMAIN:SOURCE:TOKEN:POSTING_ID.
	ID          string          `json:"id"`
	Title       string          `json:"title"`
	Level       *string         `json:"level"`
	Function    *string         `json:"function"`
	Department  *string         `json:"department"`
	Location    *string         `json:"location"`
	CountryCode *string         `json:"country_code"`
	Remote      bool            `json:"remote"`
	URL         *string         `json:"url"`
	PostedAt    *string         `json:"posted_at"`
	FirstSeenAt string          `json:"first_seen_at"`
	LastSeenAt  string          `json:"last_seen_at"`
	ClosedAt    *string         `json:"closed_at"`
	Evidence    OpeningEvidence `json:"evidence"`
}

// OpeningEvidence is where an opening was seen: the board and the
// board's id of the posting.
type OpeningEvidence struct {
	Source     string  `json:"source"`
	Board      string  `json:"board"`
	ExternalID string  `json:"external_id"`
	URL        *string `json:"url"`
}

// TechnologyItem is one technology as the API returns it.
type TechnologyItem struct {
	Name        string             `json:"name"`
	Categories  []string           `json:"categories"`
	Version     *string            `json:"version"`
	Confidence  int                `json:"confidence"`
	FirstSeenAt string             `json:"first_seen_at"`
	LastSeenAt  string             `json:"last_seen_at"`
	AddedAt     *string            `json:"added_at"`
	Evidence    []TechEvidenceItem `json:"evidence"`
}

// TechEvidenceItem is one piece of a technology's evidence.
type TechEvidenceItem struct {
	Kind  string  `json:"kind"`
	Key   *string `json:"key"`
	Value *string `json:"value"`
	URL   *string `json:"url"`
}

// NewOpeningItem renders an opening of the company of domain.
func NewOpeningItem(domain string, o *prospector.JobOpening) OpeningItem {
	return OpeningItem{ID: prospector.HiringSignalID(domain, o), Title: o.Title, Level: orNull(o.Level),
		Function: orNull(o.Function), Department: orNull(o.Department), Location: orNull(o.Location),
		CountryCode: orNull(o.CountryCode), Remote: o.Remote, URL: orNull(o.URL), PostedAt: stampPtr(o.PostedAt),
		FirstSeenAt: stamp(o.FirstSeenAt), LastSeenAt: stamp(o.LastSeenAt), ClosedAt: stampPtr(o.ClosedAt),
		Evidence: OpeningEvidence{Source: o.Source, Board: o.BoardToken, ExternalID: o.ExternalID, URL: orNull(o.URL)}}
}

// NewTechnologyItem renders a technology.
func NewTechnologyItem(t *prospector.Technology) TechnologyItem {
	it := TechnologyItem{Name: t.Name, Categories: t.Categories, Version: orNull(t.Version), Confidence: t.Confidence,
		FirstSeenAt: stamp(t.FirstSeenAt), LastSeenAt: stamp(t.LastSeenAt), AddedAt: stampPtr(t.AddedAt),
		Evidence: make([]TechEvidenceItem, 0, len(t.Evidence))}
	if it.Categories == nil {
		it.Categories = []string{}
	}
	for _, e := range t.Evidence {
		it.Evidence = append(it.Evidence, TechEvidenceItem{Kind: e.Kind, Key: orNull(e.Key), Value: orNull(e.Value), URL: orNull(e.URL)})
	}
	return it
}

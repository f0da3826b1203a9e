package prospector

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// NewsStory is a news event as a source found it: the event (one per
// company, category and ISO week: its ExternalID is the dedup key's id,
// news.EventID) and the article it was read in. The contract's news
// event item has no field for the article's link, so the store keeps
// URL, Source and Headline beside the event (NewsSource).
type NewsStory struct {
	// Event is the news event; CompanyID may be 0, when CompanyDomain
	// names the company.
	Event    *NewsEvent
	URL      string // the article, required
	Source   string // where it was found: the feed's URL, or "gdelt"
	Headline string
	// Published is when the source says it appeared; nil when it gives
	// no date.
	Published *time.Time
	// SignalType is the signal the event means (news.SignalType of its
	// category): funding_announcement, job_change, company_hiring, or ""
	// for none.
	SignalType string
}

// NewsSource is one article of a news event.
type NewsSource struct {
	URL         string
	Source      string
	Headline    string
	PublishedAt *time.Time
	FoundAt     time.Time
}

// Bounds of what a story keeps, in bytes.
const (
	maxHeadline   = 1000
	maxNewsSource = 2048
)

// Normalize trims and bounds the story's headline and source.
func (s *NewsStory) Normalize() {
	s.Headline = cleanText(s.Headline, maxHeadline)
	s.Source = cleanText(s.Source, maxNewsSource)
	s.URL = strings.TrimSpace(s.URL)
	if s.Published != nil {
		p := s.Published.UTC().Truncate(time.Microsecond)
		s.Published = &p
	}
	if s.Event != nil {
		s.Event.FoundAt = s.Event.FoundAt.UTC().Truncate(time.Microsecond)
		s.Event.CompanyDomain = NormalizeDomain(s.Event.CompanyDomain)
	}
}

// Validate returns an EINVALID naming the field of a story that cannot
// be stored: no event, event id, company, category or found time, a URL
// that is not http(s), a signal type that is not one of the three news
// ones, or text holding a NUL or invalid UTF-8 (the event's attributes
// included).
func (s *NewsStory) Validate() error {
	if s.Event == nil || s.Event.ExternalID == "" {
		return Errorf(EINVALID, "event.id: required")
	}
	if s.Event.CompanyID <= 0 && s.Event.CompanyDomain == "" {
		return Errorf(EINVALID, "event.company_domain: required")
	}
	if len(s.Event.Categories) == 0 {
		return Errorf(EINVALID, "event.categories: required")
	}
	if s.Event.FoundAt.IsZero() {
		return Errorf(EINVALID, "event.found_at: required")
	}
	if err := checkWebURL("url", s.URL); err != nil {
		return err
	}
	switch s.SignalType {
	case "", "funding_announcement", "job_change", "company_hiring":
	default:
		return Errorf(EINVALID, "signal_type: %q is not a news signal type", s.SignalType)
	}
	e := s.Event
	a := &e.Attributes
	texts := []struct{ name, v string }{{"event.id", e.ExternalID}, {"event.company_domain", e.CompanyDomain},
		{"event.event_type", e.EventType}, {"event.categories", strings.Join(e.Categories, " ")},
		{"event.effective_date", e.EffectiveDate}, {"source", s.Source}, {"headline", s.Headline}}
	for name, p := range map[string]*string{"summary": a.Summary, "article_sentence": a.ArticleSentence,
		"amount": a.Amount, "assets": a.Assets, "award": a.Award, "contact": a.Contact, "division": a.Division,
		"event": a.Event, "financing_type": a.FinancingType, "financing_type_normalized": a.FinancingTypeNormalized,
		"job_title": a.JobTitle, "location": a.Location, "product": a.Product, "recognition": a.Recognition,
		"vulnerability": a.Vulnerability, "product_data.full_text": a.ProductData.FullText,
		"product_data.name": a.ProductData.Name, "product_data.release_type": a.ProductData.ReleaseType,
		"product_data.release_version": a.ProductData.ReleaseVersion} {
		if p != nil {
			texts = append(texts, struct{ name, v string }{"event.attributes." + name, *p})
		}
	}
	for name, l := range map[string][]string{"assets_tags": a.AssetsTags, "financing_type_tags": a.FinancingTypeTags,
		"job_title_tags": a.JobTitleTags, "product_tags": a.ProductTags} {
		texts = append(texts, struct{ name, v string }{"event.attributes." + name, strings.Join(l, " ")})
	}
	for _, l := range a.LocationData {
		for _, p := range []*string{l.City, l.State, l.Country, l.CountryCode} {
			if p != nil {
				texts = append(texts, struct{ name, v string }{"event.attributes.location_data", *p})
			}
		}
	}
	for _, t := range texts {
		if err := CheckText(t.name, t.v); err != nil {
			return err
		}
	}
	return nil
}

// When is when the story appeared: Published, else the event's found
// time.
func (s *NewsStory) When() time.Time {
	if s.Published != nil {
		return *s.Published
	}
	return s.Event.FoundAt
}

// Signal is the story's signal for its event's company (already
// resolved: Event.CompanyID set), nil when the story means none. Its
// ExternalID is the event's, so the event's other articles add nothing;
// its title is the headline, its detail starts with what radars look for
// ("Funding:", "Job change:", "Hiring:", the last matching a radar's
// default job_posting_keywords as board openings do) and names the
// category and the attributes the text gave; its source URL is the
// article.
func (s *NewsStory) Signal() *Signal {
	if s.SignalType == "" {
		return nil
	}
	e := s.Event
	prefix := map[string]string{"funding_announcement": "Funding", "job_change": "Job change",
		"company_hiring": "Hiring"}[s.SignalType]
	parts := []string{strings.Join(e.Categories, ", ")}
	a := e.Attributes
	for _, p := range []*string{a.Amount, a.FinancingType, a.JobTitle, a.Contact} {
		if p != nil && *p != "" {
			parts = append(parts, *p)
		}
	}
	if a.Headcount != nil {
		parts = append(parts, strconv.FormatInt(*a.Headcount, 10)+" people")
	}
	title := s.Headline
	if title == "" && a.ArticleSentence != nil {
		title = *a.ArticleSentence
	}
	id := e.CompanyID
	return &Signal{ExternalID: e.ExternalID, Type: s.SignalType, CompanyID: &id, CompanyDomain: e.CompanyDomain,
		Title: truncateText(title, maxIssuerText), Detail: truncateText(prefix+": "+strings.Join(parts, "; "), maxFilingText),
		SourceURL: s.URL, DetectedAt: s.When()}
}

// NewsResult counts what storing a batch of stories did.
type NewsResult struct {
	Events int // new events
	// Merged counts articles added to an event already stored: the same
	// story from another feed, or another story of its company, category
	// and week.
	Merged int
	// Seen counts articles stored already (for their company): nothing
	// was written for them.
	Seen    int
	Signals int // signals inserted
	// Refused lists the stories that were not stored and why (EINVALID,
	// or ErrNotFound for an unknown company); the others were.
	Refused []NewsRefusal
}

// NewsRefusal is a story ApplyNews did not store.
type NewsRefusal struct {
	Index int // in the batch
	Err   error
}

// NewsStore keeps the news sources find.
type NewsStore interface {
	// ApplyNews stores stories in one transaction. An article already
	// stored for its company is Seen and writes nothing, whatever week it
	// is read in; an article whose event exists (same ExternalID) is
	// Merged: its URL is added and the event and its signal are left as
	// the first article made them; otherwise the event is inserted with
	// its article and, when SignalType is set, its signal through the
	// signals upsert. A story that is invalid or names an unknown company
	// is Refused without failing the others. An error means nothing was
	// stored.
	ApplyNews(ctx context.Context, stories []*NewsStory) (NewsResult, error)
	// NewsSources returns the articles of the news events with those ids,
	// oldest first, by event id; ids with none are absent.
	NewsSources(ctx context.Context, eventIDs []int64) (map[int64][]NewsSource, error)
}

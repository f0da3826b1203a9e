package news

import (
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

// maxSummaryRunes bounds the summary kept in an event's attributes.
const maxSummaryRunes = 500

// Story is a news event ready for the store, with where it came from:
// the contract's news event item has no field for its link, so the lead
// keeps URL and Source beside it.
type Story struct {
	Event     *prospector.NewsEvent
	Result    Result
	Key       string // DedupKey of the event; Event.ExternalID is EventID(Key)
	URL       string
	Source    string
	Published time.Time // zero when the source gave no date
}

// Story classifies it for co and returns the news event it makes. own
// marks an item of the company's own feed. foundAt is when Prospector
// read it; the event's week is that of Published, or of foundAt when the
// item has no date. ok is false when the item says no category about co.
func (c *Classifier) Story(co Company, it Item, own bool, foundAt time.Time) (Story, bool) {
	r := c.Classify(Input{Company: co, Headline: it.Title, Summary: it.Summary, Own: own})
	if r.Category == "" {
		return Story{}, false
	}
	when := it.Published
	if when.IsZero() {
		when = foundAt
	}
	key := DedupKey(co, r.Category, when)
	e := &prospector.NewsEvent{
		ExternalID:    EventID(key),
		CompanyDomain: prospector.NormalizeDomain(co.Domain),
		EventType:     "news_event",
		Categories:    []string{r.Category},
		FoundAt:       foundAt.UTC().Truncate(time.Millisecond),
		Attributes:    newsAttributes(r, it.Summary),
	}
	if !it.Published.IsZero() {
		e.EffectiveDate = it.Published.UTC().Format("2006-01-02")
	}
	return Story{Event: e, Result: r, Key: key, URL: it.Link, Source: it.Source, Published: it.Published}, true
}

// newsAttributes fills the contract's attributes from a Result; what the
// text does not give stays null or [].
func newsAttributes(r Result, summary string) prospector.NewsAttributes {
	a := r.Attributes
	str := func(s string) *string {
		if s = strings.TrimSpace(s); s == "" {
			return nil
		}
		return &s
	}
	out := prospector.NewsAttributes{
		Summary:                 str(clip(summary, maxSummaryRunes)),
		ArticleSentence:         str(r.Sentence),
		Amount:                  str(a.Amount),
		FinancingType:           str(a.FinancingType),
		FinancingTypeNormalized: str(a.FinancingTypeNormalized),
		JobTitle:                str(a.JobTitle),
		Contact:                 str(a.Contact),
		Location:                str(a.Location),
		Product:                 str(a.Product),
		Award:                   str(a.Award),
		Recognition:             str(a.Recognition),
		Event:                   str(a.Event),
		Vulnerability:           str(a.Vulnerability),
	}
	conf, planning := r.Confidence, r.Planning
	out.Confidence, out.Planning = &conf, &planning
	if a.Amount != "" {
		v := a.AmountNormalized
		out.AmountNormalized = &v
	}
	if a.Headcount > 0 {
		n := a.Headcount
		out.Headcount = &n
	}
	if a.FinancingTypeNormalized != "" {
		family := financingTags[a.FinancingTypeNormalized]
		if strings.HasPrefix(a.FinancingTypeNormalized, "series_") {
			family = financingTags["venture"]
		}
		out.FinancingTypeTags = append([]string{a.FinancingTypeNormalized}, family...)
	}
	if a.JobTitle != "" {
		info := taxonomy.ParseTitle(a.JobTitle)
		for _, t := range []string{info.Level, info.Function} {
			if t != "" {
				out.JobTitleTags = append(out.JobTitleTags, strings.ToLower(t))
			}
		}
	}
	if country, code, ok := locationData(a.Location); ok {
		out.LocationData = []prospector.LocationData{{Country: &country, CountryCode: &code}}
	}
	if a.Product != "" {
		name := strings.TrimSpace(strings.TrimSuffix(a.Product, a.ProductVersion))
		release := "new product"
		switch {
		case r.Category == IsDeveloping:
			release = "in development"
		case a.ProductVersion != "":
			release = "new version"
		}
		fuzzy := false
		out.ProductData = prospector.ProductData{FullText: str(a.Product), Name: str(name),
			ReleaseType: &release, ReleaseVersion: str(a.ProductVersion), FuzzyMatch: &fuzzy}
	}
	out.Normalize()
	return out
}

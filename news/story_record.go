package news

import (
	"time"

	"github.com/prospectorhq/prospector"
)

// Record is the story as the store keeps it (prospector.NewsStore): the
// event, the article it was read in (it, whose title is the headline)
// and the signal its category means (SignalType), normalised.
func (s Story) Record(it Item) *prospector.NewsStory {
	r := &prospector.NewsStory{Event: s.Event, URL: s.URL, Source: s.Source, Headline: it.Title,
		SignalType: SignalType(s.Result.Category)}
	if !s.Published.IsZero() {
		p := s.Published.UTC().Truncate(time.Microsecond)
		r.Published = &p
	}
	r.Normalize()
	return r
}

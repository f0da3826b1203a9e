package news

import (
	"fmt"
	"time"

	"github.com/mmcdole/gofeed"
	"github.com/mmcdole/gofeed/rss"
)

// rssTranslator turns gofeed's RSS document into its universal feed with
// only what items need. gofeed's own translator parses every entry's HTML
// once more to find an image, which cost a third of the parse.
type rssTranslator struct{}

var _ gofeed.Translator = rssTranslator{}

// Translate returns the feed's site link and its items. It fails only for
// a value that is not an *rss.Feed.
func (rssTranslator) Translate(v interface{}) (*gofeed.Feed, error) {
	f, ok := v.(*rss.Feed)
	if !ok {
		return nil, fmt.Errorf("news: rss translator got %T", v)
	}
	out := &gofeed.Feed{Title: f.Title, Link: f.Link, Items: make([]*gofeed.Item, 0, len(f.Items))}
	for _, e := range f.Items {
		if e == nil {
			continue
		}
		it := &gofeed.Item{Title: e.Title, Description: e.Description, Content: e.Content, Link: e.Link,
			Links: e.Links, PublishedParsed: e.PubDateParsed}
		if e.GUID != nil {
			it.GUID = e.GUID.Value
		}
		if dc := e.DublinCoreExt; dc != nil {
			if it.Title == "" && len(dc.Title) > 0 {
				it.Title = dc.Title[0]
			}
			if it.Description == "" && len(dc.Description) > 0 {
				it.Description = dc.Description[0]
			}
			if len(dc.Date) > 0 {
				if t, ok := parseISODate(dc.Date[0]); ok {
					it.UpdatedParsed = &t
					if it.PublishedParsed == nil {
						it.PublishedParsed = &t
					}
				}
			}
		}
		if it.Description == "" && e.ITunesExt != nil {
			it.Description = e.ITunesExt.Summary
		}
		out.Items = append(out.Items, it)
	}
	return out, nil
}

// parseISODate reads the W3C dates of Dublin Core ("2026-01-15T13:00:00Z",
// "2026-01-15T13:00+01:00", "2026-01-15").
func parseISODate(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

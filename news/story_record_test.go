package news

import (
	"testing"
	"time"
)

// A feed's stories as the store takes them: valid, with the article's
// headline and link and the signal their category means; the GDELT copy
// of the financing story keys to the same event.
func TestStoryRecord(t *testing.T) {
	c := NewClassifier()
	items, err := ParseFeed(readFixture(t, "feeds/rss2.xml"), "https://kestrel-payments.example/news/feed.xml")
	if err != nil {
		t.Fatal(err)
	}
	found := time.Date(2026, 4, 15, 12, 0, 0, 0, time.UTC)
	var signals []string
	for _, it := range items {
		s, ok := c.Story(kestrel, it, true, found)
		if !ok {
			continue
		}
		r := s.Record(it)
		if err := r.Validate(); err != nil {
			t.Fatalf("%q: %v", it.Title, err)
		}
		if r.Headline != it.Title || r.URL != it.Link || r.Source != it.Source || r.Event != s.Event ||
			r.Published == nil || !r.Published.Equal(it.Published) || r.Event.CompanyDomain != "kestrel-payments.example" {
			t.Errorf("record %+v of %+v", r, it)
		}
		signals = append(signals, r.SignalType)
	}
	if len(signals) != 2 || signals[0] != "funding_announcement" || signals[1] != "" {
		t.Fatalf("signal types %q, want the financing story's and none for the partnership", signals)
	}
	gd, err := ParseGDELT(readFixture(t, "gdelt/artlist.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, ok := c.Story(kestrel, gd[0], false, found)
	if r := s.Record(gd[0]); !ok || r.Source != "gdelt" || r.Validate() != nil {
		t.Fatalf("GDELT record %+v", r)
	}
}

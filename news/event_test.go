package news

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

var kestrel = Company{Name: "Kestrel Payments", Domain: "https://www.Kestrel-Payments.example/"}

func TestDedupKey(t *testing.T) {
	mon := time.Date(2026, 4, 13, 8, 0, 0, 0, time.UTC)
	sun := time.Date(2026, 4, 19, 23, 0, 0, 0, time.UTC)
	next := time.Date(2026, 4, 20, 0, 30, 0, 0, time.UTC)
	k := DedupKey(kestrel, ReceivesFinancing, mon)
	if k != "kestrel-payments.example|receives_financing|2026-W16" {
		t.Errorf("key %q", k)
	}
	if DedupKey(kestrel, ReceivesFinancing, sun) != k {
		t.Error("the same ISO week gives another key")
	}
	if DedupKey(kestrel, ReceivesFinancing, next) == k {
		t.Error("the next week gives the same key")
	}
	if DedupKey(kestrel, PartnersWith, mon) == k {
		t.Error("another category gives the same key")
	}
	// A time in another zone counts in UTC: Monday 01:00 in Berlin is Sunday.
	berlin := time.FixedZone("CEST", 2*3600)
	if DedupKey(kestrel, ReceivesFinancing, time.Date(2026, 4, 20, 1, 0, 0, 0, berlin)) != k {
		t.Error("the week is not read in UTC")
	}
	if got := DedupKey(Company{Name: "  Kestrel   Payments "}, Hires, mon); got != "name:kestrel payments|hires|2026-W16" {
		t.Errorf("no domain: %q", got)
	}
	if id, again := EventID(k), EventID(k); id != again || !strings.HasPrefix(id, "news-") || len(id) != 29 {
		t.Errorf("event id %q, then %q", id, again)
	}
}

func TestSignalType(t *testing.T) {
	want := map[string]string{ReceivesFinancing: "funding_announcement", Hires: "job_change", Leaves: "job_change",
		Promotes: "job_change", RetiresFrom: "job_change", IncreasesHeadcountBy: "company_hiring"}
	for _, cat := range Categories() {
		if got := SignalType(cat); got != want[cat] {
			t.Errorf("%s: %q, want %q", cat, got, want[cat])
		}
	}
	if SignalType("") != "" || SignalType("bogus") != "" {
		t.Error("none gives a signal")
	}
	if len(Categories()) != 29 {
		t.Errorf("%d categories", len(Categories()))
	}
}

// A fixture feed with a financing story and a partnership story yields two
// events with the right categories and attributes; the same story seen on
// GDELT the same week is the same event.
func TestStoriesFromFeed(t *testing.T) {
	c := NewClassifier()
	items, err := ParseFeed(readFixture(t, "feeds/rss2.xml"), "https://kestrel-payments.example/news/feed.xml")
	if err != nil {
		t.Fatal(err)
	}
	found := time.Date(2026, 4, 15, 12, 0, 0, 123456789, time.UTC)
	var stories []Story
	for _, it := range items {
		if s, ok := c.Story(kestrel, it, true, found); ok {
			stories = append(stories, s)
		}
	}
	if len(stories) != 2 {
		t.Fatalf("got %d stories, want 2", len(stories))
	}
	fin, part := stories[0], stories[1]
	e := fin.Event
	if e.EventType != "news_event" || len(e.Categories) != 1 || e.Categories[0] != ReceivesFinancing ||
		e.CompanyDomain != "kestrel-payments.example" || e.EffectiveDate != "2026-04-14" ||
		!e.FoundAt.Equal(found.Truncate(time.Millisecond)) || e.ExternalID != EventID(fin.Key) {
		t.Errorf("financing event: %+v", e)
	}
	a := e.Attributes
	if *a.Amount != "$40M" || *a.AmountNormalized != 40e6 || *a.FinancingType != "Series B" ||
		*a.FinancingTypeNormalized != "series_b" || strings.Join(a.FinancingTypeTags, ",") != "series_b,equity,venture" ||
		*a.Planning || *a.Confidence <= 0 || *a.ArticleSentence != items[0].Title ||
		!strings.HasPrefix(*a.Summary, "Kestrel Payments today announced") {
		t.Errorf("financing attributes: %s", mustJSON(t, a))
	}
	if fin.URL != "https://kestrel-payments.example/news/series-b" || fin.Result.Object != "Northgate Ventures" ||
		SignalType(e.Categories[0]) != "funding_announcement" {
		t.Errorf("financing story: %+v", fin)
	}
	if part.Event.Categories[0] != PartnersWith || part.Result.Object != "Almont Bank" || part.Event.EffectiveDate != "2026-04-06" {
		t.Errorf("partnership story: %+v %+v", part.Event, part.Result)
	}

	gd, err := ParseGDELT(readFixture(t, "gdelt/artlist.json"))
	if err != nil {
		t.Fatal(err)
	}
	again, ok := c.Story(kestrel, gd[0], false, found.Add(time.Hour))
	if !ok || again.Event.ExternalID != e.ExternalID {
		t.Errorf("the GDELT copy of the story is another event: %v %q %q", ok, again.Event.ExternalID, e.ExternalID)
	}
}

// Every attribute member is present in JSON: null or [] when unknown.
func TestStoryAttributesShape(t *testing.T) {
	c := NewClassifier()
	s, ok := c.Story(Company{Name: "Acme", Domain: "acme.example"},
		Item{Title: "Acme hires Jane Roe as Chief Financial Officer", Link: "https://news.example/a"}, false,
		time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC))
	if !ok {
		t.Fatal("no story")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(mustJSON(t, s.Event.Attributes)), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"summary", "confidence", "article_sentence", "planning", "amount", "amount_normalized",
		"assets", "assets_tags", "award", "contact", "division", "event", "financing_type", "financing_type_normalized",
		"financing_type_tags", "headcount", "job_title", "job_title_tags", "location", "location_data", "product",
		"product_data", "product_tags", "recognition", "vulnerability"} {
		if _, ok := m[k]; !ok {
			t.Errorf("attribute %s missing", k)
		}
	}
	for k, want := range map[string]string{"summary": "null", "assets_tags": "[]", "location_data": "[]",
		"job_title": `"Chief Financial Officer"`, "contact": `"Jane Roe"`, "job_title_tags": `["cxo","finance"]`} {
		if string(m[k]) != want {
			t.Errorf("%s = %s, want %s", k, m[k], want)
		}
	}
	if s.Event.EffectiveDate != "" || SignalType(s.Event.Categories[0]) != "job_change" {
		t.Errorf("event %+v", s.Event)
	}
	// No date: the week is the found week.
	if s.Key != "acme.example|hires|2026-W02" {
		t.Errorf("key %q", s.Key)
	}
	if _, ok := c.Story(Company{Name: "Acme"}, Item{Title: "Five things to know about Acme"}, false, time.Now()); ok {
		t.Error("a story for no category")
	}
}

func TestStoryLocationAndProduct(t *testing.T) {
	c := NewClassifier()
	s, _ := c.Story(Company{Name: "Acme", Domain: "acme.example"}, Item{Title: "Acme opens first office in Japan"}, false, time.Now())
	ld := s.Event.Attributes.LocationData
	if len(ld) != 1 || *ld[0].CountryCode != "JP" || *ld[0].Country != "Japan" {
		t.Errorf("location data %s", mustJSON(t, ld))
	}
	s, _ = c.Story(Company{Name: "Acme", Domain: "acme.example"}, Item{Title: "Acme launches Gripper 3.1"}, false, time.Now())
	pd := s.Event.Attributes.ProductData
	if *pd.Name != "Gripper" || *pd.ReleaseVersion != "3.1" || *pd.ReleaseType != "new version" || *pd.FullText != "Gripper 3.1" {
		t.Errorf("product data %s", mustJSON(t, pd))
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

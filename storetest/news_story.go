package storetest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// story is a receives_financing story of acme-robotics.example with the
// event id of its week (the caller's dedup key; package news computes
// it from company, category and ISO week).
func story(eventID, url, source string, published time.Time) *prospector.NewsStory {
	amount, ft := "$25M", "Series B"
	p := published
	return &prospector.NewsStory{
		Event: &prospector.NewsEvent{ExternalID: eventID, CompanyDomain: "acme-robotics.example", EventType: "news_event",
			Categories: []string{"receives_financing"}, EffectiveDate: published.Format(time.DateOnly),
			FoundAt: published.Add(2 * time.Hour), Attributes: newsAttrs(&amount, &ft)},
		URL: url, Source: source, Headline: "Acme Robotics raises $25M Series B", Published: &p,
		SignalType: "funding_announcement",
	}
}

func newsAttrs(amount, ft *string) prospector.NewsAttributes {
	conf, planning := 0.9, false
	a := prospector.NewsAttributes{Amount: amount, FinancingType: ft, Confidence: &conf, Planning: &planning}
	a.Normalize()
	return a
}

func applyNews(t *testing.T, s prospector.Store, want prospector.NewsResult, stories ...*prospector.NewsStory) {
	t.Helper()
	got, err := s.ApplyNews(context.Background(), stories)
	if err != nil {
		t.Fatal(err)
	}
	if got.Refused != nil || got.Events != want.Events || got.Merged != want.Merged || got.Seen != want.Seen ||
		got.Signals != want.Signals {
		t.Fatalf("apply news: %+v, want %+v", got, want)
	}
}

func newsEvents(t *testing.T, s prospector.Store, companyID int64) []*prospector.NewsEvent {
	t.Helper()
	es, err := s.NewsEvents(context.Background(), prospector.EventFilter{CompanyID: companyID, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func testNewsDedup(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	co := secCompany(t, s, "Acme Robotics", "acme-robotics.example")
	week19 := time.Date(2026, 5, 5, 9, 0, 0, 0, time.UTC)
	blog := story("news-w19", "https://acme-robotics.example/blog/series-b", "https://acme-robotics.example/feed.xml", week19)
	wire := story("news-w19", "https://wire.example/acme-series-b", "gdelt", week19.Add(26*time.Hour))
	wire.Headline = "Acme Robotics lands $25 million"
	partner := story("news-w19-partner", "https://acme-robotics.example/blog/beltline", "https://acme-robotics.example/feed.xml", week19)
	partner.Event.Categories, partner.SignalType = []string{"partners_with"}, ""
	partner.Event.Attributes = newsAttrs(nil, nil)

	// One story from two feeds is one event with two articles; a
	// partnership is an event without a signal.
	applyNews(t, s, prospector.NewsResult{Events: 2, Merged: 1, Signals: 1}, blog, wire, partner)
	es := newsEvents(t, s, co.ID)
	if len(es) != 2 {
		t.Fatalf("%d events", len(es))
	}
	var ev *prospector.NewsEvent
	for _, e := range es {
		if e.ExternalID == "news-w19" {
			ev = e
		}
	}
	if ev == nil || ev.CompanyID != co.ID || !reflect.DeepEqual(ev.Categories, []string{"receives_financing"}) ||
		*ev.Attributes.Amount != "$25M" || !ev.FoundAt.Equal(blog.Event.FoundAt) || ev.Attributes.LocationData == nil {
		t.Fatalf("the event keeps its first article's fields: %+v", ev)
	}
	srcs, err := s.NewsSources(ctx, []int64{ev.ID, 424242})
	if err != nil {
		t.Fatal(err)
	}
	if got := srcs[ev.ID]; len(srcs) != 1 || len(got) != 2 || got[0].URL != blog.URL || got[1].URL != wire.URL ||
		got[1].Source != "gdelt" || got[1].Headline != wire.Headline || !got[0].PublishedAt.Equal(week19) {
		t.Fatalf("articles %+v", srcs)
	}
	sigs := companySignals(t, s, co.ID)
	sg := sigs["news-w19"]
	if len(sigs) != 1 || sg.Type != "funding_announcement" || sg.SourceURL != blog.URL || sg.Title != blog.Headline ||
		!sg.DetectedAt.Equal(week19) || sg.CompanyDomain != co.Domain {
		t.Fatalf("signals %+v", sigs)
	}
	seq := maxSignalSeq(t, s)

	// Reading the feeds again adds nothing, even an undated item read in
	// a later week (whose event id would be that week's).
	undated := story("news-w21", blog.URL, blog.Source, week19.Add(14*24*time.Hour))
	undated.Published = nil
	applyNews(t, s, prospector.NewsResult{Seen: 3}, blog, wire, undated)
	if got := maxSignalSeq(t, s); got != seq || len(newsEvents(t, s, co.ID)) != 2 {
		t.Fatalf("re-reading wrote: seq %d -> %d", seq, got)
	}

	// The same category a week later is another event and signal.
	next := story("news-w20", "https://wire.example/acme-extends-series-b", "gdelt", week19.Add(7*24*time.Hour))
	applyNews(t, s, prospector.NewsResult{Events: 1, Signals: 1}, next)
	if len(newsEvents(t, s, co.ID)) != 3 || len(companySignals(t, s, co.ID)) != 2 {
		t.Fatal("a story of a later week did not make its own event")
	}
}

func testNewsRefused(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	co := secCompany(t, s, "Acme Robotics", "acme-robotics.example")
	at := time.Date(2026, 5, 5, 9, 0, 0, 0, time.UTC)
	bad := story("news-bad", "https://wire.example/bad", "gdelt", at)
	bad.Headline = "Acme\x00 raises"
	unknown := story("news-unknown", "https://wire.example/other", "gdelt", at)
	unknown.Event.CompanyDomain = "nobody.example"
	good := story("news-good", "https://wire.example/good", "gdelt", at)
	res, err := s.ApplyNews(ctx, []*prospector.NewsStory{bad, unknown, good})
	if err != nil {
		t.Fatal(err)
	}
	if res.Events != 1 || res.Signals != 1 || len(res.Refused) != 2 || res.Refused[0].Index != 0 ||
		prospector.ErrorCode(res.Refused[0].Err) != prospector.EINVALID || res.Refused[1].Index != 1 ||
		!errors.Is(res.Refused[1].Err, prospector.ErrNotFound) {
		t.Fatalf("refusals: %+v", res)
	}
	if es := newsEvents(t, s, co.ID); len(es) != 1 || es[0].ExternalID != "news-good" {
		t.Fatalf("events %+v", es)
	}
}

func testTokenBucket(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	// One a second: calls far quicker than that queue up behind each other.
	const rate = 1.0
	interval := time.Second
	// Reservations made at once get slots one interval apart: the slot
	// is the store's time of the reservation plus the wait, and that time
	// lies between the call's start and end.
	type call struct {
		start, end time.Time
		wait       time.Duration
	}
	var calls []call
	for range 4 {
		start := time.Now()
		wait, err := s.Reserve(ctx, "sec.gov", rate, 1)
		if err != nil {
			t.Fatal(err)
		}
		calls = append(calls, call{start, time.Now(), wait})
	}
	if calls[0].wait != 0 {
		t.Fatalf("the first reservation waits %v", calls[0].wait)
	}
	for i := 1; i < len(calls); i++ {
		a, b := calls[i-1], calls[i]
		lo, hi := b.start.Add(b.wait).Sub(a.end.Add(a.wait)), b.end.Add(b.wait).Sub(a.start.Add(a.wait))
		if interval < lo-time.Millisecond || interval > hi+time.Millisecond {
			t.Fatalf("reservation %d: slot %v..%v after the previous, want %v", i, lo, hi, interval)
		}
	}
	// Another key has a bucket of its own; a burst lets that many go now.
	for i := range 3 {
		if wait, err := s.Reserve(ctx, "gdelt", 0.2, 3); err != nil || wait != 0 {
			t.Fatalf("burst reservation %d waits %v, %v", i, wait, err)
		}
	}
	if wait, err := s.Reserve(ctx, "gdelt", 0.2, 3); err != nil || wait < 4*time.Second {
		t.Fatalf("a fourth reservation of a burst of 3 at 0.2/s waits %v, %v", wait, err)
	}
	for _, c := range []struct {
		rate  float64
		burst int
	}{{0, 1}, {-1, 1}, {10, 0}} {
		if _, err := s.Reserve(ctx, "x", c.rate, c.burst); prospector.ErrorCode(err) != prospector.EINVALID {
			t.Fatalf("rate %v burst %d: %v", c.rate, c.burst, err)
		}
	}
}

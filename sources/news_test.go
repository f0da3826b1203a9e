package sources_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/news"
	"github.com/prospectorhq/prospector/sources"
	"github.com/prospectorhq/prospector/sources/adapters"
	"github.com/prospectorhq/prospector/sources/sourcetest"
)

const kpDomain = "kestrel-payments.example"

// newsHarness is a harness whose poller reads news, with Kestrel
// Payments known by name and watched with its feed (the news package's
// RSS fixture) on the site fixture.
func newsHarness(t *testing.T, gdeltURL string, gdelt bool) *harness {
	t.Helper()
	h := newHarness(t, []string{kpDomain}, fastSites(kpDomain))
	h.poller.News = &sources.News{Store: h.st, GDELT: gdelt,
		Reader: adapters.News{Classifier: news.NewClassifier(), GDELTBaseURL: gdeltURL, Bucket: h.st}}
	feed, err := os.ReadFile(filepath.Join("..", "news", "testdata", "feeds", "rss2.xml"))
	if err != nil {
		t.Fatal(err)
	}
	h.site.Set(kpDomain, "/news/feed.xml", sourcetest.Page{Body: string(feed),
		Header: http.Header{"Content-Type": {"application/rss+xml"}}})
	ctx := context.Background()
	if _, err := h.st.UpsertCompanies(ctx, []*prospector.Company{{Name: "Kestrel Payments", Domain: kpDomain}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.st.AddWatches(ctx, []prospector.WatchRequest{{Domain: kpDomain, AddedBy: "test",
		Feeds: []string{"https://" + kpDomain + "/news/feed.xml"}}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	return h
}

// A watched company's feed becomes news events (one per story that says
// something of the company) and the signals they mean; read again, it
// answers 304 and adds nothing.
func TestNewsFeedBecomesEventsOnce(t *testing.T) {
	h := newsHarness(t, "", false)
	sum := h.cycle(sources.CycleOptions{Source: sources.SourceNews})
	if sum.Feeds != 1 || sum.OK != 1 || sum.Items != 3 || sum.News.Events != 2 || sum.News.Signals != 1 {
		t.Fatalf("first cycle: %+v", sum)
	}
	if got := h.signals(kpDomain, "funding_announcement"); len(got) != 1 || !strings.Contains(got[0].Detail, "$40") {
		t.Fatalf("funding signals: %+v", got)
	}
	if sum.Boards+sum.Websites != 0 {
		t.Fatalf("--source news polled %d boards and %d websites", sum.Boards, sum.Websites)
	}
	sum = h.cycle(sources.CycleOptions{Source: sources.SourceNews})
	if sum.NotModified != 1 || sum.News.Events != 0 || sum.News.Signals != 0 {
		t.Fatalf("second cycle: %+v", sum)
	}
	if tg := h.target(kpDomain, prospector.TargetFeed, ""); tg.Health(time.Now()) != prospector.HealthOK || tg.ETag == "" {
		t.Fatalf("feed target: %+v", tg)
	}
}

// A feed that fails is recorded on its target, as any source's failure.
func TestNewsFeedFailureIsRecorded(t *testing.T) {
	h := newsHarness(t, "", false)
	h.site.Set(kpDomain, "/news/feed.xml", sourcetest.Page{Status: http.StatusNotFound, Body: "gone"})
	sum := h.cycle(sources.CycleOptions{Source: sources.SourceFeed})
	if sum.Failed != 1 {
		t.Fatalf("cycle: %+v", sum)
	}
	tg := h.target(kpDomain, prospector.TargetFeed, "")
	if tg.Failures != 1 || !strings.Contains(tg.LastError, "404") {
		t.Fatalf("feed target: %+v", tg)
	}
}

// GDELT is searched only when the operator turns it on, and then for
// every watched company with a real name.
func TestGDELTTargetsOnlyWhenOn(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("..", "news", "testdata", "gdelt", "artlist.json"))
	if err != nil {
		t.Fatal(err)
	}
	var asked atomic.Int32
	var query atomic.Value
	gd := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		query.Store(r.URL.Query().Get("query"))
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	defer gd.Close()

	h := newsHarness(t, gd.URL+"/api/v2/doc/doc", false)
	h.watch("nameless.example")
	h.cycle(sources.CycleOptions{Source: sources.SourceNews})
	if ts, _ := h.st.ListTargets(context.Background(), prospector.TargetFilter{Kind: prospector.TargetGDELT}); len(ts) != 0 || asked.Load() != 0 {
		t.Fatalf("GDELT off: %d targets, %d searches", len(ts), asked.Load())
	}

	h = newsHarness(t, gd.URL+"/api/v2/doc/doc", true)
	h.watch("nameless.example") // known by its domain only: not searched
	sum := h.cycle(sources.CycleOptions{Source: sources.SourceGDELT})
	ts, err := h.st.ListTargets(context.Background(), prospector.TargetFilter{Kind: prospector.TargetGDELT})
	if err != nil || len(ts) != 1 || ts[0].Ref != "Kestrel Payments" || sources.Label(ts[0]) != "gdelt:Kestrel Payments" {
		t.Fatalf("GDELT targets: %+v, %v", ts, err)
	}
	if asked.Load() != 1 || query.Load() != `"kestrel payments"` {
		t.Fatalf("%d searches, query %v", asked.Load(), query.Load())
	}
	if sum.Feeds != 1 || sum.News.Events < 1 || sum.News.Signals != 1 {
		t.Fatalf("cycle: %+v", sum)
	}
	if got := h.signals(kpDomain, "funding_announcement"); len(got) != 1 ||
		!strings.HasPrefix(got[0].SourceURL, "https://metro-business-review.example/") {
		t.Fatalf("funding signals: %+v", got)
	}
}

package storetest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

func detection(name, category, evidence string) prospector.TechDetection {
	return prospector.TechDetection{Name: name, Categories: []string{category}, Confidence: 100,
		Evidence: []prospector.TechEvidence{{Kind: "scriptSrc", Key: "https://" + evidence, Value: evidence,
			URL: "https://acme-robotics.example/"}}}
}

var (
	hubspot = detection("HubSpot", "Marketing automation", "js.hs-scripts.com/4242.js")
	stripe  = detection("Stripe", "Payment processors", "js.stripe.com/v3")
)

func crawl(target int64, at time.Time, ds ...prospector.TechDetection) *prospector.TechCrawl {
	return &prospector.TechCrawl{TargetID: target, Detections: ds,
		Outcome: prospector.PollOutcome{At: at, Result: prospector.PollOK, Interval: 24 * time.Hour, Jitter: 0.5}}
}

func applyCrawl(t *testing.T, s prospector.Store, c *prospector.TechCrawl, want prospector.TechCrawlResult) {
	t.Helper()
	got, err := s.ApplyTechCrawl(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("crawl at %s: %+v, want %+v", c.Outcome.At.Format(time.RFC3339), got, want)
	}
}

func techSignals(t *testing.T, s prospector.Store, companyID int64) []*prospector.Signal {
	t.Helper()
	ss, err := s.SignalFeed(context.Background(), prospector.SignalFeedFilter{Type: "tech_changes", CompanyID: &companyID, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

// homepage watches the first sample company and returns its homepage
// target.
func homepage(t *testing.T, s prospector.Store) (*prospector.Company, *prospector.SourceTarget) {
	t.Helper()
	co, _ := watchedBoard(t, s)
	ts, err := s.ListTargets(context.Background(), prospector.TargetFilter{CompanyID: co.ID, Kind: prospector.TargetHomepage})
	if err != nil || len(ts) != 1 {
		t.Fatalf("homepage: %d %v", len(ts), err)
	}
	return co, ts[0]
}

func testTechnologies(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	co, home := homepage(t, s)
	day := 24 * time.Hour
	applyCrawl(t, s, crawl(home.ID, srcT0, hubspot, stripe), prospector.TechCrawlResult{Candidates: 2})
	if ts, _ := s.Technologies(ctx, co.ID, false); len(ts) != 0 {
		t.Fatalf("one crawl made %d technologies active", len(ts))
	}
	if ts, _ := s.Technologies(ctx, co.ID, true); len(ts) != 2 || ts[0].State != prospector.TechCandidate {
		t.Fatalf("candidates: %+v", ts)
	}
	t1 := srcT0.Add(day)
	applyCrawl(t, s, crawl(home.ID, t1, stripe, hubspot), prospector.TechCrawlResult{Added: 2, Seen: 0, Signals: 2})
	ts, err := s.Technologies(ctx, co.ID, false)
	if err != nil || len(ts) != 2 {
		t.Fatalf("active technologies: %d %v", len(ts), err)
	}
	h := ts[0]
	if h.Name != "HubSpot" || h.State != prospector.TechActive || !h.FirstSeenAt.Equal(srcT0) || !h.LastSeenAt.Equal(t1) ||
		h.AddedAt == nil || !h.AddedAt.Equal(t1) || len(h.Categories) != 1 || h.Categories[0] != "Marketing automation" ||
		len(h.Evidence) != 1 || h.Evidence[0].Value != "js.hs-scripts.com/4242.js" || h.Evidence[0].Key == "" || h.Confidence != 100 || h.CompanyID != co.ID {
		t.Fatalf("HubSpot: %+v", h)
	}
	sigs := techSignals(t, s, co.ID)
	if len(sigs) != 2 {
		t.Fatalf("%d tech_changes signals", len(sigs))
	}
	for _, sg := range sigs {
		if !strings.HasSuffix(sg.Title, " added") || !strings.Contains(sg.Detail, "evidence: scriptSrc https://js.") ||
			!sg.DetectedAt.Equal(t1) || sg.SourceURL != "https://acme-robotics.example/" {
			t.Fatalf("added signal %+v", sg)
		}
	}

	// Crawling the same page again, as a 304 or a new read, creates nothing.
	applyCrawl(t, s, crawl(home.ID, t1, hubspot, stripe), prospector.TechCrawlResult{Duplicate: true})
	t2 := t1.Add(day)
	applyCrawl(t, s, crawl(home.ID, t2, hubspot, stripe), prospector.TechCrawlResult{Seen: 2})
	t3 := t2.Add(day)
	applyCrawl(t, s, &prospector.TechCrawl{TargetID: home.ID, Outcome: prospector.PollOutcome{At: t3,
		Result: prospector.PollNotModified, Interval: day, Jitter: 0.5}}, prospector.TechCrawlResult{Seen: 2})
	if n := len(techSignals(t, s, co.ID)); n != 2 {
		t.Fatalf("re-crawls wrote signals: %d", n)
	}
	if ts, _ := s.Technologies(ctx, co.ID, false); !ts[1].LastSeenAt.Equal(t3) {
		t.Fatalf("a 304 must count as seeing: %+v", ts[1])
	}

	// Stripe disappears: removed at the third crawl without it.
	at := t3
	for i := 1; i <= 3; i++ {
		at = at.Add(day)
		want := prospector.TechCrawlResult{Seen: 1}
		if i == 3 {
			want.Removed, want.Signals = 1, 1
		}
		applyCrawl(t, s, crawl(home.ID, at, hubspot), want)
	}
	ts, _ = s.Technologies(ctx, co.ID, true)
	if st := ts[1]; st.Name != "Stripe" || st.State != prospector.TechRemoved || st.RemovedAt == nil || !st.RemovedAt.Equal(at) ||
		!st.LastSeenAt.Equal(t3) {
		t.Fatalf("removed Stripe: %+v", st)
	}
	if active, _ := s.Technologies(ctx, co.ID, false); len(active) != 1 || active[0].Name != "HubSpot" {
		t.Fatalf("active after the removal: %+v", active)
	}
	sigs = techSignals(t, s, co.ID)
	if len(sigs) != 3 || sigs[0].Title != "Stripe removed" || !strings.Contains(sigs[0].Detail, "Stripe (Payment processors)") {
		t.Fatalf("removal signal: %+v", sigs[0])
	}

	// A failing crawl is recorded, not applied, and removes nothing.
	if _, err := s.ApplyTechCrawl(ctx, &prospector.TechCrawl{TargetID: home.ID, Outcome: prospector.PollOutcome{
		At: at.Add(day), Result: prospector.PollFailed}}); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("applying a failed crawl: %v", err)
	}
	// Refusals write nothing; another company's crawl is its own.
	bad := detection("Intercom\x00", "Live chat", "widget.intercom.io")
	if _, err := s.ApplyTechCrawl(ctx, crawl(home.ID, at.Add(day), hubspot, bad)); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("NUL in a technology: %v", err)
	}
	if ts, _ := s.Technologies(ctx, co.ID, true); len(ts) != 2 {
		t.Fatalf("a refused crawl wrote: %+v", ts)
	}
	blue, _ := s.CompanyByDomain(ctx, "bluepeak.example")
	if _, err := s.AddWatches(ctx, []prospector.WatchRequest{{Domain: blue.Domain}}, srcT0); err != nil {
		t.Fatal(err)
	}
	bh, _ := s.ListTargets(ctx, prospector.TargetFilter{CompanyID: blue.ID, Kind: prospector.TargetHomepage})
	applyCrawl(t, s, crawl(bh[0].ID, srcT0), prospector.TechCrawlResult{})
	if ts, _ := s.Technologies(ctx, co.ID, false); len(ts) != 1 {
		t.Fatal("another company's crawl touched acme's technologies")
	}
	board, _ := s.ListTargets(ctx, prospector.TargetFilter{CompanyID: co.ID, Kind: prospector.TargetBoard})
	if _, err := s.ApplyTechCrawl(ctx, crawl(board[0].ID, at.Add(day), hubspot)); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("a crawl on a board target: %v", err)
	}
}

// testTechnologiesAge: absent from a crawl 30 days after it was last
// seen, a technology is removed at that crawl.
func testTechnologiesAge(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	co, home := homepage(t, s)
	applyCrawl(t, s, crawl(home.ID, srcT0, hubspot), prospector.TechCrawlResult{Candidates: 1})
	t1 := srcT0.Add(7 * 24 * time.Hour)
	applyCrawl(t, s, crawl(home.ID, t1, hubspot), prospector.TechCrawlResult{Added: 1, Signals: 1})
	applyCrawl(t, s, crawl(home.ID, t1.Add(prospector.TechRemovalAge-time.Hour)), prospector.TechCrawlResult{})
	applyCrawl(t, s, crawl(home.ID, t1.Add(prospector.TechRemovalAge)), prospector.TechCrawlResult{Removed: 1, Signals: 1})
	if ts, _ := s.Technologies(ctx, co.ID, false); len(ts) != 0 {
		t.Fatalf("still active after 30 days: %+v", ts)
	}
	// Seen again twice: added again, with a signal of its own.
	t2 := t1.Add(prospector.TechRemovalAge + 24*time.Hour)
	applyCrawl(t, s, crawl(home.ID, t2, hubspot), prospector.TechCrawlResult{Candidates: 1})
	applyCrawl(t, s, crawl(home.ID, t2.Add(24*time.Hour), hubspot), prospector.TechCrawlResult{Added: 1, Signals: 1})
	if n := len(techSignals(t, s, co.ID)); n != 3 {
		t.Fatalf("added, removed, added again: %d signals", n)
	}
}

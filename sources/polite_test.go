package sources_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/boards"
	"github.com/prospectorhq/prospector/fetch"
	"github.com/prospectorhq/prospector/sources"
	"github.com/prospectorhq/prospector/sources/adapters"
	"github.com/prospectorhq/prospector/sources/sourcetest"
)

// A board that fails three times in a row pauses (status shows it until
// when); cycles leave it alone while it waits, unless told to retry it;
// a success clears it.
func TestFailingTargetPauses(t *testing.T) {
	h := newHarness(t, nil)
	if err := h.boards.AddFixture("greenhouse", qfToken); err != nil {
		t.Fatal(err)
	}
	h.watch(qfDomain, "greenhouse:"+qfToken)
	h.boards.Fail("greenhouse", qfToken, 500, 3)
	boardsOnly := sources.CycleOptions{Source: sources.SourceBoards}
	for i := 1; i <= 3; i++ {
		if sum := h.cycle(boardsOnly); sum.Failed != 1 {
			t.Fatalf("cycle %d: %+v", i, sum)
		}
		tg := h.target(qfDomain, prospector.TargetBoard, "greenhouse")
		want := prospector.HealthFailing
		if i == 3 {
			want = prospector.HealthPaused
		}
		if got := tg.Health(time.Now()); got != want || tg.Failures != i || !strings.Contains(tg.LastError, "500") {
			t.Fatalf("after failure %d: health %s, %+v", i, got, tg)
		}
	}
	tg := h.target(qfDomain, prospector.TargetBoard, "greenhouse")
	if tg.PausedUntil == nil || tg.PausedUntil.Sub(*tg.LastPollAt) != time.Hour {
		t.Fatalf("paused until %v after the third failure at %v, want an hour later", tg.PausedUntil, tg.LastPollAt)
	}
	before := h.boards.Stats("greenhouse").Requests
	if sum := h.cycle(boardsOnly); sum.Targets != 0 || sum.Skipped != 1 || h.boards.Stats("greenhouse").Requests != before {
		t.Fatalf("a cycle polled a paused board: %+v", sum)
	}
	// Nor does the schedule: a paused target is not due.
	due, err := h.st.DueTargets(context.Background(), prospector.DueFilter{Now: time.Now(), Kinds: []string{prospector.TargetBoard}})
	if err != nil || len(due) != 0 {
		t.Fatalf("due: %d %v", len(due), err)
	}
	if sum := h.cycle(sources.CycleOptions{Source: sources.SourceBoards, RetryPaused: true}); sum.OK != 1 || sum.Openings.New != 3 {
		t.Fatalf("retrying the paused board: %+v", sum)
	}
	if tg := h.target(qfDomain, prospector.TargetBoard, "greenhouse"); tg.Health(time.Now()) != prospector.HealthOK || tg.PausedUntil != nil {
		t.Fatalf("after a success: %+v", tg)
	}
}

// A host answering 429 with a long Retry-After is not asked again before
// then: the target waits until that time.
func TestRetryAfterReschedules(t *testing.T) {
	h := newHarness(t, nil)
	if err := h.boards.AddFixture("greenhouse", qfToken); err != nil {
		t.Fatal(err)
	}
	h.watch(qfDomain, "greenhouse:"+qfToken)
	h.boards.RateLimit("greenhouse", qfToken, 2*time.Hour, 1)
	start := time.Now()
	if sum := h.cycle(sources.CycleOptions{Source: sources.SourceBoards}); sum.Failed != 1 {
		t.Fatalf("cycle: %+v", sum)
	}
	tg := h.target(qfDomain, prospector.TargetBoard, "greenhouse")
	if tg.NextPollAt.Before(start.Add(2*time.Hour-time.Minute)) || tg.Failures != 1 {
		t.Fatalf("next poll %v, want about 2h after %v: %+v", tg.NextPollAt, start, tg)
	}
}

// A homepage robots.txt disallows is never requested; the poll fails
// with the reason. A site disallowing another crawler only is crawled.
func TestRobotsDisallowedHomepageIsNotFetched(t *testing.T) {
	const closed, open = "closed.test", "open.test"
	h := newHarness(t, []string{closed, open}, fastSites(closed, open))
	for _, host := range []string{closed, open} {
		h.site.Set(host, "/", sourcetest.Page{Body: sourcetest.Homepage("Hello", nil, qfScripts)})
		h.watch(host)
	}
	h.site.Set(closed, "/robots.txt", sourcetest.Page{Body: "User-agent: Prospector\nDisallow: /\n"})
	h.site.Set(open, "/robots.txt", sourcetest.Page{Body: "User-agent: OtherBot\nDisallow: /\n"})
	sum := h.cycle(sources.CycleOptions{Source: sources.SourceWebsite})
	if sum.Websites != 2 || sum.Failed != 1 || sum.OK != 1 {
		t.Fatalf("cycle: %+v", sum)
	}
	if n := h.site.Count(closed, "/"); n != 0 {
		t.Fatalf("the disallowed homepage was requested %d times", n)
	}
	if tg := h.target(closed, prospector.TargetHomepage, ""); !strings.Contains(tg.LastError, "robots.txt") {
		t.Fatalf("last error %q", tg.LastError)
	}
	if n := h.site.Count(open, "/"); n != 1 {
		t.Fatalf("the allowed homepage was requested %d times", n)
	}
	for _, r := range h.site.Requests("") {
		if !strings.HasPrefix(r.UserAgent, "Prospector/test (+mailto:ops@example.test)") {
			t.Fatalf("user agent %q", r.UserAgent)
		}
	}
}

// A homepage that redirects is read at its final URL, and what it links
// to is resolved against it; a redirect to an internal address nobody
// named is refused.
func TestRedirects(t *testing.T) {
	const apex, www, sneaky = "redirects.test", "www.redirects.test", "sneaky.test"
	h := newHarness(t, []string{apex, www, sneaky}, fastSites(apex, www, sneaky),
		func(c *fetch.Config, _ *harness) { c.AllowPrivate = false })
	if err := h.boards.AddFixture("lever", "bluefin"); err != nil {
		t.Fatal(err)
	}
	h.site.Set(apex, "/", sourcetest.Page{Status: 301, Location: "https://" + www + "/"})
	h.site.Set(www, "/", sourcetest.Page{Body: sourcetest.Homepage("Redirects", []string{"https://jobs.lever.co/bluefin"}, nil)})
	h.site.Set(sneaky, "/", sourcetest.Page{Status: 302, Location: h.site.URL + "/admin"})
	h.watch(apex)
	h.watch(sneaky)
	sum := h.cycle(sources.CycleOptions{Source: sources.SourceWebsite})
	if sum.Websites != 2 || h.target(apex, prospector.TargetHomepage, "").LastSuccessAt == nil {
		t.Fatalf("cycle: %+v", sum)
	}
	feed := h.target(apex, prospector.TargetFeed, "")
	board := h.target(apex, prospector.TargetBoard, "lever")
	if feed.Ref != "https://"+www+"/blog/feed.xml" || board.DiscoveredOn != "https://"+www+"/" {
		t.Fatalf("feed %q, board found on %q", feed.Ref, board.DiscoveredOn)
	}
	tg := h.target(sneaky, prospector.TargetHomepage, "")
	if !strings.Contains(tg.LastError, "refused") || !strings.Contains(tg.LastError, "127.0.0.1") {
		t.Fatalf("redirect to an internal address: last error %q", tg.LastError)
	}
	if n := h.site.Count("127.0.0.1", "/admin"); n != 0 {
		t.Fatalf("the internal address was requested %d times", n)
	}
}

// A board discovered on a page whose API host resolves to an internal
// address is refused without --allow-private-sources: nothing reaches
// the fixture behind it. With it, the board is read.
func TestDiscoveredBoardAtInternalAddressIsRefused(t *testing.T) {
	for _, allow := range []bool{false, true} {
		const home = "internal.test"
		h := newHarness(t, []string{home}, fastSites(home), func(c *fetch.Config, h *harness) {
			c.AllowPrivate = allow
			c.Resolver = staticResolver{"lever-api.test": "127.0.0.1"}
		})
		if err := h.boards.AddFixture("lever", "bluefin"); err != nil {
			t.Fatal(err)
		}
		h.site.Set(home, "/", sourcetest.Page{Body: sourcetest.Homepage("Internal", []string{"https://jobs.lever.co/bluefin"}, nil)})
		h.watch(home)
		// The Lever API of this deployment answers at a name that
		// resolves to loopback.
		h.poller.Boards = internalLever(t, h)
		sum := h.cycle(sources.CycleOptions{})
		board := h.target(home, prospector.TargetBoard, "lever")
		if !allow {
			if sum.Failed != 1 || !strings.Contains(board.LastError, "refused: source URL lever-api.test (127.0.0.1)") || h.boards.Stats("lever").Requests != 0 {
				t.Fatalf("refused: cycle %+v, last error %q, %d requests", sum, board.LastError, h.boards.Stats("lever").Requests)
			}
			continue
		}
		if sum.Failed != 0 || sum.Openings.New != 3 {
			t.Fatalf("allowed: cycle %+v, last error %q", sum, board.LastError)
		}
	}
}

// internalLever reads boards as h's poller does, with Lever's API at
// lever-api.test (which the test resolver sends to loopback) on the
// board fixture's port.
func internalLever(t *testing.T, h *harness) sources.Boards {
	t.Helper()
	_, port, _ := strings.Cut(strings.TrimPrefix(h.boards.URL, "http://"), ":")
	reg, err := boards.NewRegistry(map[string]string{"lever": "http://lever-api.test:" + port + "/lever"})
	if err != nil {
		t.Fatal(err)
	}
	return adapters.Boards{Registry: reg}
}

// A cycle polls many targets at once, yet no board vendor's API host
// gets more than 4 requests in flight or two starts less than 50 ms
// apart, and no company site more than one request at a time, a second
// apart (the defaults).
func TestCycleKeepsDefaultPoliteness(t *testing.T) {
	const siteA, siteB = "polite-a.test", "polite-b.test"
	h := newHarness(t, []string{siteA, siteB})
	h.boards.SetLatency(400 * time.Millisecond) // 8 in flight at 20 a second, without the cap
	h.site.SetLatency(20 * time.Millisecond)
	for i := range 12 {
		token := "board" + string(rune('a'+i))
		if err := h.boards.AddGenerated("greenhouse", token, "Board "+token, 3, uint64(i)); err != nil {
			t.Fatal(err)
		}
		h.watch(token+".test", "greenhouse:"+token)
	}
	for _, host := range []string{siteA, siteB} {
		h.site.Set(host, "/", sourcetest.Page{Body: sourcetest.Homepage("Polite", nil, qfScripts)})
		h.site.Set(host, "/careers", sourcetest.Page{Body: "<title>Careers</title>"})
		h.watch(host)
	}
	sum := h.cycle(sources.CycleOptions{Source: sources.SourceBoards})
	if sum.Boards != 12 || sum.OK != 12 {
		t.Fatalf("boards cycle: %+v", sum)
	}
	if h.max != fetch.APIConcurrency {
		t.Fatalf("at most %d board requests were in flight, want %d (parallel, within the policy)", h.max, fetch.APIConcurrency)
	}
	// The starts are seen by the server, after the loopback and a loaded
	// machine's scheduling have added their own delays, so one gap may
	// come out shorter than the client's interval; unpaced requests would
	// arrive together, several gaps near zero.
	short := 0
	for i := 1; i < len(h.boardStarts); i++ {
		gap := h.boardStarts[i].Sub(h.boardStarts[i-1])
		if gap < fetch.APIInterval/4 {
			t.Fatalf("board requests %d and %d started %v apart", i-1, i, gap)
		}
		if gap < fetch.APIInterval-10*time.Millisecond {
			short++
		}
	}
	if short > 2 {
		t.Fatalf("%d of %d board requests started less than %v after the one before", short, len(h.boardStarts)-1, fetch.APIInterval)
	}
	sum = h.cycle(sources.CycleOptions{Source: sources.SourceWebsite})
	if sum.OK != 2 { // the boards' companies' homepages do not resolve
		t.Fatalf("websites cycle: %+v", sum)
	}
	for _, host := range []string{siteA, siteB} {
		rs := h.site.Requests(host)
		if len(rs) != 3 { // robots.txt, homepage, careers page
			t.Fatalf("%s: %d requests", host, len(rs))
		}
		for i, r := range rs {
			if r.InFlight != 1 {
				t.Fatalf("%s: %d requests in flight", host, r.InFlight)
			}
			if i > 0 && r.At.Sub(rs[i-1].At) < fetch.SiteInterval-50*time.Millisecond {
				t.Fatalf("%s: requests %v apart", host, r.At.Sub(rs[i-1].At))
			}
		}
	}
	// The two sites were crawled side by side, not one after the other.
	a, b := h.site.Requests(siteA), h.site.Requests(siteB)
	if d := a[0].At.Sub(b[0].At).Abs(); d > 500*time.Millisecond {
		t.Fatalf("the sites' first requests are %v apart", d)
	}
}

package sources_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sources"
	"github.com/prospectorhq/prospector/sources/sourcetest"
)

var qfScripts = []string{"https://js.hs-scripts.com/4410021.js", "https://js.stripe.com/v3/"}

// A homepage with a Greenhouse link and HubSpot and Stripe scripts
// yields the board (polled in the same cycle), both technologies (added
// at the second crawl, with evidence), the feed, the careers page, and
// the company's name from the title.
func TestHomepageYieldsBoardAndTechnologies(t *testing.T) {
	h := newHarness(t, []string{qfDomain}, fastSites(qfDomain))
	if err := h.boards.AddFixture("greenhouse", qfToken); err != nil {
		t.Fatal(err)
	}
	h.site.Set(qfDomain, "/", sourcetest.Page{Body: sourcetest.Homepage("Quillfeather Systems | Payments infrastructure",
		[]string{"https://boards.greenhouse.io/" + qfToken}, qfScripts)})
	h.site.Set(qfDomain, "/careers", sourcetest.Page{Body: "<html><title>Careers</title><body>Join us</body></html>"})
	h.watch(qfDomain)

	sum := h.cycle(sources.CycleOptions{})
	if sum.Websites != 1 || sum.Boards != 1 || sum.Openings.New != 3 || sum.Tech.Candidates < 2 || sum.Failed != 0 {
		t.Fatalf("first cycle: %+v", sum)
	}
	board := h.target(qfDomain, prospector.TargetBoard, "greenhouse")
	if board.Ref != qfToken || board.Origin != prospector.OriginDiscovered || board.DiscoveredOn != "https://"+qfDomain+"/" ||
		board.NameCheck != prospector.NameConfirmed {
		t.Fatalf("discovered board: %+v", board)
	}
	if feed := h.target(qfDomain, prospector.TargetFeed, ""); feed.Ref != "https://"+qfDomain+"/blog/feed.xml" {
		t.Fatalf("feed: %+v", feed)
	}
	careers := h.target(qfDomain, prospector.TargetCareers, "")
	if careers.Ref != "https://"+qfDomain+"/careers" || careers.LastSuccessAt == nil || h.site.Count(qfDomain, "/careers") != 1 {
		t.Fatalf("careers: %+v, %d fetches", careers, h.site.Count(qfDomain, "/careers"))
	}
	if co := h.company(qfDomain); co.Name != "Quillfeather Systems" {
		t.Fatalf("company name %q, want the title's", co.Name)
	}
	if n := len(h.signals(qfDomain, "tech_changes")); n != 0 {
		t.Fatalf("%d technology signals after one crawl", n)
	}

	// The second crawl confirms them. Every page answers 304 and the
	// board too: nothing is read again, nothing new.
	sum = h.cycle(sources.CycleOptions{})
	if sum.Tech.Added < 2 || sum.NotModified != 2 || sum.Openings.New != 0 {
		t.Fatalf("second cycle: %+v", sum)
	}
	techs, err := h.st.Technologies(t.Context(), h.company(qfDomain).ID, false)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*prospector.Technology{}
	for _, tc := range techs {
		byName[tc.Name] = tc
	}
	for name, script := range map[string]string{"HubSpot": qfScripts[0], "Stripe": qfScripts[1]} {
		tc := byName[name]
		if tc == nil || len(tc.Evidence) == 0 || tc.Evidence[0].Kind != "scriptSrc" || !strings.Contains(tc.Evidence[0].Key, script) ||
			tc.Evidence[0].URL != "https://"+qfDomain+"/" {
			t.Fatalf("%s: %+v", name, tc)
		}
	}
	var added []string
	for _, s := range h.signals(qfDomain, "tech_changes") {
		added = append(added, s.Title)
	}
	if !slices.Contains(added, "HubSpot added") || !slices.Contains(added, "Stripe added") {
		t.Fatalf("technology signals: %v", added)
	}
	if sum := h.cycle(sources.CycleOptions{}); sum.Signals() != 0 {
		t.Fatalf("a third crawl of the same site: %+v", sum)
	}
}

// A board found on a page that names another company is recorded with
// the mismatch and its postings are not taken.
func TestMismatchedDiscoveredBoardIsNotTaken(t *testing.T) {
	const other = "lanternworks.test"
	h := newHarness(t, []string{other}, fastSites(other))
	if err := h.boards.AddFixture("greenhouse", qfToken); err != nil {
		t.Fatal(err)
	}
	h.site.Set(other, "/", sourcetest.Page{Body: sourcetest.Homepage("Lanternworks",
		[]string{"https://job-boards.greenhouse.io/" + qfToken}, nil)})
	h.watch(other)
	sum := h.cycle(sources.CycleOptions{})
	board := h.target(other, prospector.TargetBoard, "greenhouse")
	if sum.Boards != 1 || sum.Skipped != 1 || board.NameCheck != prospector.NameMismatch ||
		board.BoardCompanyName != "Quillfeather Systems, Inc." {
		t.Fatalf("cycle %+v, board %+v", sum, board)
	}
	if n := len(h.openings(other, false)); n != 0 || len(h.signals(other, "company_hiring")) != 0 {
		t.Fatalf("%d openings taken from another company's board", n)
	}
}

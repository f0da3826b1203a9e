package sources_test

import (
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/boards/boardtest"
	"github.com/prospectorhq/prospector/sources"
)

// A watched company's board lists three jobs: a cycle stores them as
// openings and company_hiring signals. The board drops one and adds one:
// the next cycle signals the new one and keeps the dropped one open (one
// miss), the one after closes it. Re-polling creates nothing new.
func TestCycleBoardLifecycle(t *testing.T) {
	h := newHarness(t, nil)
	if err := h.boards.AddFixture("greenhouse", qfToken); err != nil {
		t.Fatal(err)
	}
	h.watch(qfDomain, "greenhouse:"+qfToken)
	boardsOnly := sources.CycleOptions{Source: sources.SourceBoards}

	sum := h.cycle(boardsOnly)
	if sum.Targets != 1 || sum.OK != 1 || sum.Openings.New != 3 || sum.Openings.Signals != 3 || sum.Failed != 0 {
		t.Fatalf("first cycle: %+v", sum)
	}
	os := h.openings(qfDomain, true)
	o := os["4012345"]
	if len(os) != 3 || o == nil || o.Title != "Senior Backend Engineer, Payments" || o.Source != "greenhouse" ||
		o.BoardToken != qfToken || !strings.HasPrefix(o.URL, "https://") {
		t.Fatalf("openings after the first cycle: %d %+v", len(os), o)
	}
	if sigs := h.signals(qfDomain, "company_hiring"); len(sigs) != 3 {
		t.Fatalf("%d hiring signals, want 3", len(sigs))
	}
	// The board's name matched the domain: the company is named after it.
	if co := h.company(qfDomain); co.Name != "Quillfeather Systems, Inc." {
		t.Fatalf("company name %q, want the board's", co.Name)
	}
	if tg := h.target(qfDomain, prospector.TargetBoard, "greenhouse"); tg.NameCheck != prospector.NameConfirmed ||
		tg.Health(tg.NextPollAt.Add(-1)) != prospector.HealthOK {
		t.Fatalf("board target: %+v", tg)
	}

	// Unchanged: a conditional request, nothing new.
	sum = h.cycle(boardsOnly)
	if sum.NotModified != 1 || sum.Openings.New != 0 || sum.Signals() != 0 || sum.Openings.Seen != 3 {
		t.Fatalf("unchanged cycle: %+v", sum)
	}

	if !h.boards.RemovePosting("greenhouse", qfToken, "4012399") {
		t.Fatal("no posting 4012399")
	}
	newID, err := h.boards.AddPosting("greenhouse", qfToken, boardtest.Job{Title: "Staff Data Engineer",
		Department: "Engineering", Location: "Remote - US"})
	if err != nil {
		t.Fatal(err)
	}
	sum = h.cycle(boardsOnly)
	if sum.Openings.New != 1 || sum.Openings.Missed != 1 || sum.Openings.Closed != 0 || sum.Openings.Signals != 1 {
		t.Fatalf("cycle after the change: %+v", sum)
	}
	sigs := h.signals(qfDomain, "company_hiring")
	if len(sigs) != 4 || sigs[0].Title != "Staff Data Engineer" {
		t.Fatalf("hiring signals after the change: %d, newest %q", len(sigs), sigs[0].Title)
	}
	if o := h.openings(qfDomain, true)["4012399"]; o == nil || o.Misses != 1 {
		t.Fatalf("the dropped job after one miss: %+v", o)
	}
	sum = h.cycle(boardsOnly)
	if sum.Openings.Closed != 1 || sum.Openings.New != 0 || sum.Signals() != 0 {
		t.Fatalf("third cycle: %+v", sum)
	}
	all := h.openings(qfDomain, false)
	if o := all["4012399"]; o == nil || o.ClosedAt == nil {
		t.Fatalf("the dropped job is not closed: %+v", o)
	}
	if o := all[newID]; o == nil || o.ClosedAt != nil || !o.Remote {
		t.Fatalf("the new job: %+v", o)
	}
	if n := len(h.openings(qfDomain, true)); n != 3 {
		t.Fatalf("%d active openings, want 3", n)
	}
}

// Text a board sends that the store would refuse (a NUL in its company
// name) is cleaned, not a failed poll.
func TestBoardTextIsCleaned(t *testing.T) {
	h := newHarness(t, nil)
	if err := h.boards.AddFixture("greenhouse", qfToken); err != nil {
		t.Fatal(err)
	}
	h.boards.SetCompany("greenhouse", qfToken, "Quill\x00feather Systems")
	h.watch("quill.test", "greenhouse:"+qfToken)
	sum := h.cycle(sources.CycleOptions{Source: sources.SourceBoards})
	if sum.OK != 1 || sum.Openings.New != 3 {
		t.Fatalf("cycle: %+v", sum)
	}
	tg := h.target("quill.test", prospector.TargetBoard, "greenhouse")
	if strings.ContainsRune(tg.BoardCompanyName, 0) || !strings.Contains(tg.BoardCompanyName, "feather Systems") {
		t.Fatalf("board company name %q", tg.BoardCompanyName)
	}
	// A --board claims the board whatever its name: the mismatch is
	// recorded, the postings taken.
	if tg.NameCheck != prospector.NameMismatch || len(h.openings("quill.test", true)) != 3 {
		t.Fatalf("name check %q, %d openings", tg.NameCheck, len(h.openings("quill.test", true)))
	}
}

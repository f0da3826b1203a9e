package sources_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/boards/boardtest"
	"github.com/prospectorhq/prospector/sources"
)

// Boards whose server ignores conditional requests and keeps one ETag
// whatever it lists: a cycle over them unchanged takes the stored
// short-cut for unchanged boards (the store applies them as one batch)
// and creates nothing; a board whose body changed under the same ETag
// is still read as changed: its new posting becomes an opening and a
// hiring signal, its dropped one misses, then closes while the other
// boards stay as they were.
func TestUnchangedBoardsUnderOneETag(t *testing.T) {
	h := newHarness(t, nil)
	inner := h.boards.Config.Handler
	h.boards.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del("If-None-Match")
		r.Header.Del("If-Modified-Since")
		inner.ServeHTTP(etagWriter{w}, r)
	})
	const n = 4
	domain := func(i int) string { return fmt.Sprintf("unchanged%d.test", i) }
	for i := range n {
		token := fmt.Sprintf("unchanged%d", i)
		if err := h.boards.AddGenerated("lever", token, "Unchanged", 3, uint64(i)); err != nil {
			t.Fatal(err)
		}
		h.watch(domain(i), "lever:"+token)
	}
	boardsOnly := sources.CycleOptions{Source: sources.SourceBoards}
	if sum := h.cycle(boardsOnly); sum.OK != n || sum.Openings.New != 3*n || sum.Openings.Signals != 3*n {
		t.Fatalf("first cycle: %+v", sum)
	}
	before := h.openings(domain(1), true)
	sum := h.cycle(boardsOnly)
	if sum.OK != n || sum.NotModified != 0 || sum.Openings.Seen != 3*n || sum.Openings.New != 0 || sum.Signals() != 0 {
		t.Fatalf("unchanged cycle: %+v", sum)
	}
	for id, o := range h.openings(domain(1), true) {
		if !o.LastSeenAt.After(before[id].LastSeenAt) || !o.FirstSeenAt.Equal(before[id].FirstSeenAt) {
			t.Fatalf("opening %s after an unchanged poll: first %v last %v, before %v %v", id, o.FirstSeenAt, o.LastSeenAt,
				before[id].FirstSeenAt, before[id].LastSeenAt)
		}
	}

	// Board 2 changes; its ETag does not.
	var dropped string
	for id := range h.openings(domain(2), true) {
		dropped = id
		break
	}
	if !h.boards.RemovePosting("lever", "unchanged2", dropped) {
		t.Fatalf("no posting %s", dropped)
	}
	added, err := h.boards.AddPosting("lever", "unchanged2", boardtest.Job{Title: "Staff Data Engineer",
		Department: "Engineering", Location: "Remote - US"})
	if err != nil {
		t.Fatal(err)
	}
	sum = h.cycle(boardsOnly)
	if sum.Openings.New != 1 || sum.Openings.Missed != 1 || sum.Openings.Signals != 1 || sum.Openings.Seen != 3*n-1 {
		t.Fatalf("cycle after a change under the same ETag: %+v", sum)
	}
	if sigs := h.signals(domain(2), "company_hiring"); len(sigs) != 4 || sigs[0].Title != "Staff Data Engineer" {
		t.Fatalf("hiring signals of the changed board: %d", len(sigs))
	}
	// Now unchanged again: the missed opening closes.
	sum = h.cycle(boardsOnly)
	if sum.Openings.Closed != 1 || sum.Openings.New != 0 || sum.Signals() != 0 || sum.Openings.Seen != 3*n {
		t.Fatalf("cycle closing the dropped posting: %+v", sum)
	}
	all := h.openings(domain(2), false)
	if o := all[dropped]; o == nil || o.ClosedAt == nil {
		t.Fatalf("the dropped posting is not closed: %+v", o)
	}
	if o := all[added]; o == nil || o.ClosedAt != nil {
		t.Fatalf("the new posting: %+v", o)
	}
	if tg := h.target(domain(0), prospector.TargetBoard, "lever"); tg.ETag != `"same"` || tg.Failures != 0 {
		t.Fatalf("an unchanged board's target: %+v", tg)
	}
}

// etagWriter sends one ETag whatever the body.
type etagWriter struct{ http.ResponseWriter }

func (w etagWriter) WriteHeader(code int) {
	w.Header().Set("ETag", `"same"`)
	w.ResponseWriter.WriteHeader(code)
}

package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

func jobPosting(id, title string) prospector.JobPosting {
	return prospector.JobPosting{ExternalID: id, Title: title, Department: "Engineering", Location: "Austin, TX",
		CountryCode: "US", URL: "https://boards.example/acme/jobs/" + id}
}

func boardPoll(target int64, at time.Time, ps ...prospector.JobPosting) *prospector.BoardPoll {
	return &prospector.BoardPoll{TargetID: target, Postings: ps,
		Outcome: prospector.PollOutcome{At: at, Result: prospector.PollOK, ETag: fmt.Sprintf(`"%d"`, at.Unix()),
			Interval: 6 * time.Hour, Jitter: 0.5}}
}

// hiringSignals returns the company's company_hiring signals by id.
func hiringSignals(t *testing.T, s prospector.Store, companyID int64) map[string]*prospector.Signal {
	t.Helper()
	ss, err := s.SignalFeed(context.Background(), prospector.SignalFeedFilter{Type: "company_hiring", CompanyID: &companyID, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*prospector.Signal{}
	for _, sg := range ss {
		out[sg.ExternalID] = sg
	}
	return out
}

func openingsByID(t *testing.T, s prospector.Store, companyID int64, activeOnly bool) map[string]*prospector.JobOpening {
	t.Helper()
	os, err := s.JobOpenings(context.Background(), prospector.JobOpeningFilter{CompanyID: companyID, ActiveOnly: activeOnly, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*prospector.JobOpening{}
	for _, o := range os {
		out[o.ExternalID] = o
	}
	return out
}

func applyPoll(t *testing.T, s prospector.Store, p *prospector.BoardPoll, want prospector.BoardPollResult) {
	t.Helper()
	got, err := s.ApplyBoardPoll(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("poll at %s: %+v, want %+v", p.Outcome.At.Format(time.RFC3339), got, want)
	}
}

func testBoardPoll(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	co, b := watchedBoard(t, s)
	j1, j2, j3 := jobPosting("1", "Senior Backend Engineer"), jobPosting("2", "Account Executive"), jobPosting("3", "VP Marketing")
	seq := maxSignalSeq(t, s)
	first := boardPoll(b.ID, srcT0, j1, j2, j3)
	first.CompanyName, first.NameCheck = "Acme Robotics", prospector.NameConfirmed
	applyPoll(t, s, first, prospector.BoardPollResult{New: 3, Signals: 3})
	os := openingsByID(t, s, co.ID, true)
	if o := os["1"]; len(os) != 3 || o.Title != "Senior Backend Engineer" || o.Level != "IC" || o.Function != "Engineering" ||
		o.Source != "greenhouse" || o.BoardToken != "acme" || o.CountryCode != "US" || !o.FirstSeenAt.Equal(srcT0) ||
		!o.LastSeenAt.Equal(srcT0) || o.ClosedAt != nil || o.URL != "https://boards.example/acme/jobs/1" {
		t.Fatalf("openings after the first poll: %d, %+v", len(os), os["1"])
	}
	sigs := hiringSignals(t, s, co.ID)
	sg := sigs["job:acme-robotics.example:greenhouse:acme:1"]
	if len(sigs) != 3 || sg == nil || sg.Title != "Senior Backend Engineer" || sg.SourceURL != "https://boards.example/acme/jobs/1" ||
		!sg.DetectedAt.Equal(srcT0) || sg.Seq <= seq || sg.CompanyDomain != co.Domain {
		t.Fatalf("hiring signals %d: %+v", len(sigs), sg)
	}
	tg, _ := s.Target(ctx, b.ID)
	if tg.BoardCompanyName != "Acme Robotics" || tg.NameCheck != prospector.NameConfirmed || tg.ETag == "" ||
		!tg.LastSuccessAt.Equal(srcT0) || tg.ContentHash == nil || tg.Failures != 0 {
		t.Fatalf("board target after a poll: %+v", tg)
	}

	// The same poll again (a job run twice) writes nothing; the same
	// listing later only moves last_seen.
	applyPoll(t, s, boardPoll(b.ID, srcT0, j1, j2, j3), prospector.BoardPollResult{Duplicate: true})
	t1 := srcT0.Add(6 * time.Hour)
	seq = maxSignalSeq(t, s)
	applyPoll(t, s, boardPoll(b.ID, t1, j3, j1, j2), prospector.BoardPollResult{Seen: 3})
	if maxSignalSeq(t, s) != seq || len(hiringSignals(t, s, co.ID)) != 3 {
		t.Fatal("re-polling the same board wrote signals")
	}
	if o := openingsByID(t, s, co.ID, true)["2"]; !o.LastSeenAt.Equal(t1) || !o.FirstSeenAt.Equal(srcT0) {
		t.Fatalf("an unchanged opening after a re-poll: %+v", o)
	}

	// Job 2 drops, job 4 appears: one miss closes nothing.
	j4 := jobPosting("4", "Data Scientist")
	t2 := t1.Add(6 * time.Hour)
	applyPoll(t, s, boardPoll(b.ID, t2, j1, j3, j4), prospector.BoardPollResult{New: 1, Seen: 2, Missed: 1, Signals: 1})
	if o := openingsByID(t, s, co.ID, true)["2"]; o == nil || o.Misses != 1 || !o.LastSeenAt.Equal(t1) {
		t.Fatalf("after one miss job 2 must be open, last seen at the poll before: %+v", o)
	}
	// A failing poll closes nothing: it is recorded, never applied.
	t3 := t2.Add(6 * time.Hour)
	if _, err := s.RecordPoll(ctx, b.ID, prospector.PollOutcome{At: t3, Result: prospector.PollFailed, Error: "status 502",
		Interval: 6 * time.Hour, Jitter: 0.5}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ApplyBoardPoll(ctx, &prospector.BoardPoll{TargetID: b.ID, Outcome: prospector.PollOutcome{At: t3,
		Result: prospector.PollFailed}}); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("applying a failed poll: %v", err)
	}
	if o := openingsByID(t, s, co.ID, true)["2"]; o == nil {
		t.Fatal("a failed poll closed job 2")
	}
	// The second successful poll without it closes it.
	t4 := t3.Add(time.Hour)
	applyPoll(t, s, boardPoll(b.ID, t4, j1, j3, j4), prospector.BoardPollResult{Seen: 3, Closed: 1})
	all := openingsByID(t, s, co.ID, false)
	if o := all["2"]; o.ClosedAt == nil || !o.ClosedAt.Equal(t4) || len(openingsByID(t, s, co.ID, true)) != 3 || len(all) != 4 {
		t.Fatalf("job 2 after two misses: %+v", o)
	}
	if tg, _ := s.Target(ctx, b.ID); tg.Failures != 0 || tg.LastError != "" {
		t.Fatalf("a success must clear the failure: %+v", tg)
	}

	// A 304 after a miss: the listing is the last one, so the missed job
	// misses again. Job 3 misses once first.
	t5 := t4.Add(6 * time.Hour)
	applyPoll(t, s, boardPoll(b.ID, t5, j1, j4), prospector.BoardPollResult{Seen: 2, Missed: 1})
	t6 := t5.Add(6 * time.Hour)
	applyPoll(t, s, &prospector.BoardPoll{TargetID: b.ID, Outcome: prospector.PollOutcome{At: t6, Result: prospector.PollNotModified,
		Interval: 6 * time.Hour, Jitter: 0.5}}, prospector.BoardPollResult{Seen: 2, Closed: 1})
	os = openingsByID(t, s, co.ID, true)
	if len(os) != 2 || !os["1"].LastSeenAt.Equal(t6) {
		t.Fatalf("after a 304: %d open, job 1 %+v", len(os), os["1"])
	}
	if tg, _ := s.Target(ctx, b.ID); tg.ETag != fmt.Sprintf(`"%d"`, t5.Unix()) || !tg.LastSuccessAt.Equal(t6) {
		t.Fatalf("a 304 must keep the validators and count as a success: %+v", tg)
	}

	// Job 2 comes back: it reopens with its first sighting and signal.
	t7 := t6.Add(6 * time.Hour)
	j1b := j1
	j1b.Title = "Staff Backend Engineer"
	applyPoll(t, s, boardPoll(b.ID, t7, j1b, j2, j4), prospector.BoardPollResult{Reopened: 1, Changed: 1, Seen: 1})
	os = openingsByID(t, s, co.ID, true)
	if o := os["2"]; o == nil || o.ClosedAt != nil || o.Misses != 0 || !o.FirstSeenAt.Equal(srcT0) || !o.LastSeenAt.Equal(t7) {
		t.Fatalf("reopened job: %+v", o)
	}
	if o := os["1"]; o.Title != "Staff Backend Engineer" || o.Level != "IC" || !o.FirstSeenAt.Equal(srcT0) {
		t.Fatalf("edited job: %+v", o)
	}
	sigs = hiringSignals(t, s, co.ID)
	if len(sigs) != 4 || sigs["job:acme-robotics.example:greenhouse:acme:1"].Title != "Staff Backend Engineer" {
		t.Fatalf("after an edit and a reopening: %d signals", len(sigs))
	}
}

func maxSignalSeq(t *testing.T, s prospector.Store) int64 {
	t.Helper()
	ss, err := s.SignalsChangedSince(context.Background(), 0, 100000)
	if err != nil {
		t.Fatal(err)
	}
	var m int64
	for _, sg := range ss {
		m = max(m, sg.Seq)
	}
	return m
}

func testBoardPollScopedAndRefused(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	co, b := watchedBoard(t, s)
	blue, err := s.CompanyByDomain(ctx, "bluepeak.example")
	if err != nil {
		t.Fatal(err)
	}
	// Another company claims the same board: its openings and signals
	// are its own.
	claim := &prospector.SourceTarget{CompanyID: blue.ID, Kind: prospector.TargetBoard, Board: "greenhouse", Ref: "acme",
		Origin: prospector.OriginFlag}
	if _, err := s.AddTargets(ctx, []*prospector.SourceTarget{claim}, srcT0); err != nil {
		t.Fatal(err)
	}
	j1, j2 := jobPosting("1", "Engineer"), jobPosting("2", "Designer")
	applyPoll(t, s, boardPoll(b.ID, srcT0, j1, j2), prospector.BoardPollResult{New: 2, Signals: 2})
	applyPoll(t, s, boardPoll(claim.ID, srcT0, j1), prospector.BoardPollResult{New: 1, Signals: 1})
	if n := len(openingsByID(t, s, co.ID, true)); n != 2 {
		t.Fatalf("acme has %d openings", n)
	}
	if os := openingsByID(t, s, blue.ID, true); len(os) != 1 || os["1"].CompanyID != blue.ID {
		t.Fatalf("bluepeak's openings %+v", os)
	}
	if sigs := hiringSignals(t, s, blue.ID); len(sigs) != 1 || sigs["job:bluepeak.example:greenhouse:acme:1"] == nil {
		t.Fatalf("bluepeak's signals %v", sigs)
	}
	applyPoll(t, s, boardPoll(claim.ID, srcT0.Add(time.Hour)), prospector.BoardPollResult{Missed: 1})
	if os := openingsByID(t, s, co.ID, true); len(os) != 2 || os["1"].Misses != 0 {
		t.Fatal("another company's poll touched acme's openings")
	}

	// Refusals write nothing.
	bad := jobPosting("3", "Night\x00Shift")
	if _, err := s.ApplyBoardPoll(ctx, boardPoll(b.ID, srcT0.Add(time.Hour), j1, bad)); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("NUL in a title: %v", err)
	}
	if _, err := s.ApplyBoardPoll(ctx, boardPoll(b.ID, srcT0.Add(time.Hour), prospector.JobPosting{Title: "no id"})); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("posting without id: %v", err)
	}
	named := boardPoll(b.ID, srcT0.Add(time.Hour), j1)
	named.CompanyName = "Acme\x00"
	if _, err := s.ApplyBoardPoll(ctx, named); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("NUL in the board's company name: %v", err)
	}
	if os := openingsByID(t, s, co.ID, true); len(os) != 2 || os["2"].Misses != 0 {
		t.Fatal("a refused poll changed openings")
	}
	if tg, _ := s.Target(ctx, b.ID); !tg.LastSuccessAt.Equal(srcT0) {
		t.Fatalf("a refused poll was recorded: %+v", tg)
	}
	home, _ := s.ListTargets(ctx, prospector.TargetFilter{CompanyID: co.ID, Kind: prospector.TargetHomepage})
	if _, err := s.ApplyBoardPoll(ctx, boardPoll(home[0].ID, srcT0, j1)); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("a board poll on a homepage target: %v", err)
	}
	if _, err := s.ApplyBoardPoll(ctx, boardPoll(987654, srcT0, j1)); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("unknown target: %v", err)
	}
}

// testBoardPollConcurrent: nodes applying polls of one board at once
// write each opening and its signal once.
func testBoardPollConcurrent(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	co, b := watchedBoard(t, s)
	var ps []prospector.JobPosting
	for i := range 20 {
		ps = append(ps, jobPosting(fmt.Sprint(i), fmt.Sprintf("Engineer %d", i)))
	}
	var wg sync.WaitGroup
	results := make([]prospector.BoardPollResult, 6)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Two of each instant: one applies, one is a duplicate or
			// sees what the other wrote.
			r, err := s.ApplyBoardPoll(ctx, boardPoll(b.ID, srcT0.Add(time.Duration(i/2)*time.Second), ps...))
			if err != nil {
				t.Errorf("apply %d: %v", i, err)
			}
			results[i] = r
		}()
	}
	wg.Wait()
	var created, signals int
	for _, r := range results {
		created += r.New
		signals += r.Signals
	}
	if created != 20 || signals != 20 {
		t.Fatalf("six concurrent polls created %d openings and %d signals, want 20 and 20: %+v", created, signals, results)
	}
	if os := openingsByID(t, s, co.ID, false); len(os) != 20 {
		t.Fatalf("%d openings stored", len(os))
	}
	if sigs := hiringSignals(t, s, co.ID); len(sigs) != 20 {
		t.Fatalf("%d signals stored", len(sigs))
	}
}

func testJobOpeningsPaging(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	co, b := watchedBoard(t, s)
	at := srcT0
	for i := range 5 {
		var ps []prospector.JobPosting
		for j := 0; j <= i; j++ {
			ps = append(ps, jobPosting(fmt.Sprint(j), fmt.Sprintf("Role %d", j)))
		}
		if _, err := s.ApplyBoardPoll(ctx, boardPoll(b.ID, at, ps...)); err != nil {
			t.Fatal(err)
		}
		at = at.Add(time.Hour)
	}
	// Role 4 first seen last, role 0 first.
	var got []string
	for off := 0; ; off += 2 {
		page, err := s.JobOpenings(ctx, prospector.JobOpeningFilter{CompanyID: co.ID, Offset: off, Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		for _, o := range page {
			got = append(got, o.ExternalID)
		}
	}
	if fmt.Sprint(got) != "[4 3 2 1 0]" {
		t.Fatalf("pages, newest first: %v", got)
	}
	since := srcT0.Add(3 * time.Hour)
	os, err := s.JobOpenings(ctx, prospector.JobOpeningFilter{CompanyID: co.ID, Since: &since})
	if err != nil || len(os) != 2 || os[0].ExternalID != "4" {
		t.Fatalf("since: %+v %v", os, err)
	}
	if os, _ := s.JobOpenings(ctx, prospector.JobOpeningFilter{CompanyID: co.ID + 1000}); len(os) != 0 {
		t.Fatalf("another company's openings: %d", len(os))
	}
}

// testBoardPollsBatch: several polls in one transaction give what they
// give one by one, whatever their order; one refused poll writes
// nothing of the batch.
func testBoardPollsBatch(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	co, b := watchedBoard(t, s)
	j1, j2 := jobPosting("1", "Senior Backend Engineer"), jobPosting("2", "Account Executive")
	applyPoll(t, s, boardPoll(b.ID, srcT0, j1, j2), prospector.BoardPollResult{New: 2, Signals: 2})
	if _, err := s.AddTargets(ctx, []*prospector.SourceTarget{{CompanyID: co.ID, Kind: prospector.TargetBoard,
		Board: "lever", Ref: "acme", Origin: prospector.OriginFlag}}, srcT0); err != nil {
		t.Fatal(err)
	}
	ts, err := s.ListTargets(ctx, prospector.TargetFilter{CompanyID: co.ID, Kind: prospector.TargetBoard, Board: "lever"})
	if err != nil || len(ts) != 1 {
		t.Fatalf("lever target: %v", err)
	}
	lever := ts[0].ID
	t1, t2 := srcT0.Add(6*time.Hour), srcT0.Add(12*time.Hour)
	notModified := func(target int64, at time.Time) *prospector.BoardPoll {
		return &prospector.BoardPoll{TargetID: target, Outcome: prospector.PollOutcome{At: at, Result: prospector.PollNotModified,
			Interval: 6 * time.Hour, Jitter: 0.5}}
	}
	// Given out of order: the second 304 of the Greenhouse board comes
	// first, the Lever board's first listing in between.
	ps := []*prospector.BoardPoll{notModified(b.ID, t2), boardPoll(lever, t1, jobPosting("9", "Office Manager")), notModified(b.ID, t1)}
	got, err := s.ApplyBoardPolls(ctx, ps)
	if err != nil {
		t.Fatal(err)
	}
	want := []prospector.BoardPollResult{{Seen: 2}, {New: 1, Signals: 1}, {Seen: 2}}
	if !slices.Equal(got, want) {
		t.Fatalf("batch results %+v, want %+v", got, want)
	}
	if o := openingsByID(t, s, co.ID, true)["1"]; !o.LastSeenAt.Equal(t2) {
		t.Fatalf("opening 1 last seen %v, want the later poll's %v", o.LastSeenAt, t2)
	}
	if tg, _ := s.Target(ctx, b.ID); !tg.LastSuccessAt.Equal(t2) {
		t.Fatalf("board target after the batch: %+v", tg)
	}
	// One poll refused: nothing of the batch is written.
	bad := boardPoll(lever, t2, prospector.JobPosting{Title: "no id"})
	if _, err := s.ApplyBoardPolls(ctx, []*prospector.BoardPoll{notModified(b.ID, t2.Add(time.Hour)), bad}); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("a batch with a refused poll: %v", err)
	}
	if tg, _ := s.Target(ctx, b.ID); !tg.LastSuccessAt.Equal(t2) {
		t.Fatalf("a refused batch moved the board: %+v", tg)
	}
	// A batch naming a target that does not exist fails whole.
	if _, err := s.ApplyBoardPolls(ctx, []*prospector.BoardPoll{notModified(b.ID, t2.Add(time.Hour)), notModified(987654, t2)}); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("a batch with a missing target: %v", err)
	}
	if tg, _ := s.Target(ctx, b.ID); !tg.LastSuccessAt.Equal(t2) {
		t.Fatalf("a failed batch moved the board: %+v", tg)
	}
}

// testBoardPollsBatchUnchanged: a batch of polls of several boards,
// most of them unchanged (304s and listings with the same postings, one
// board with an opening its last poll missed) and one changed, gives
// the results, openings, signals and schedules that applying the same
// polls one by one gives on a twin store.
func testBoardPollsBatchUnchanged(t *testing.T, batched, single prospector.Store) {
	ctx := context.Background()
	setup := func(s prospector.Store) (int64, []int64) {
		co, a := watchedBoard(t, s)
		ids := []int64{a.ID}
		for _, kind := range []string{"lever", "ashby", "recruitee"} {
			if _, err := s.AddTargets(ctx, []*prospector.SourceTarget{{CompanyID: co.ID, Kind: prospector.TargetBoard,
				Board: kind, Ref: "acme", Origin: prospector.OriginFlag}}, srcT0); err != nil {
				t.Fatal(err)
			}
			ts, err := s.ListTargets(ctx, prospector.TargetFilter{CompanyID: co.ID, Kind: prospector.TargetBoard, Board: kind})
			if err != nil || len(ts) != 1 {
				t.Fatalf("%s target: %v", kind, err)
			}
			ids = append(ids, ts[0].ID)
		}
		return co.ID, ids
	}
	coB, idsB := setup(batched)
	coS, idsS := setup(single)
	j := func(id string) prospector.JobPosting { return jobPosting(id, "Engineer "+id) }
	t1, t2, t3 := srcT0.Add(6*time.Hour), srcT0.Add(12*time.Hour), srcT0.Add(18*time.Hour)
	notModified := func(target int64, at time.Time) *prospector.BoardPoll {
		return &prospector.BoardPoll{TargetID: target, Outcome: prospector.PollOutcome{At: at, Result: prospector.PollNotModified,
			ETag: `"kept"`, Interval: 6 * time.Hour, Jitter: 0.25}}
	}
	// polls gives the polls of each step for a store's targets (a, b, c,
	// d: greenhouse, lever, ashby, recruitee).
	polls := func(ids []int64) [][]*prospector.BoardPoll {
		a, b, c, d := ids[0], ids[1], ids[2], ids[3]
		return [][]*prospector.BoardPoll{
			{boardPoll(a, srcT0, j("1"), j("2")), boardPoll(b, srcT0, j("3")), boardPoll(c, srcT0, j("4"), j("5")), boardPoll(d, srcT0, j("6"))},
			{boardPoll(c, t1, j("4"))}, // 5 missed once
			// c: 5 missed again, closed; b: the same postings, a new ETag;
			// d: one new posting.
			{boardPoll(d, t2, j("6"), j("7")), notModified(c, t2), boardPoll(b, t2, j("3")), notModified(a, t2)},
			{notModified(a, t3), notModified(b, t3), notModified(c, t3), notModified(d, t3)},
		}
	}
	var gotB, gotS [][]prospector.BoardPollResult
	for _, step := range polls(idsB) {
		rs, err := batched.ApplyBoardPolls(ctx, step)
		if err != nil {
			t.Fatal(err)
		}
		gotB = append(gotB, rs)
	}
	for _, step := range polls(idsS) {
		var rs []prospector.BoardPollResult
		for _, p := range step {
			r, err := single.ApplyBoardPoll(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			rs = append(rs, r)
		}
		gotS = append(gotS, rs)
	}
	if fmt.Sprint(gotB) != fmt.Sprint(gotS) {
		t.Fatalf("batched results %+v, one by one %+v", gotB, gotS)
	}
	want := []prospector.BoardPollResult{{New: 1, Seen: 1, Signals: 1}, {Closed: 1, Seen: 1}, {Seen: 1}, {Seen: 2}}
	if !slices.Equal(gotB[2], want) {
		t.Fatalf("the mixed batch: %+v, want %+v", gotB[2], want)
	}
	openings := func(s prospector.Store, co int64) string {
		os, err := s.JobOpenings(ctx, prospector.JobOpeningFilter{CompanyID: co})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, o := range os {
			out = append(out, fmt.Sprintf("%s %s %s first %s last %s closed %v misses %d", o.Source, o.ExternalID, o.Title,
				o.FirstSeenAt.Format(time.RFC3339), o.LastSeenAt.Format(time.RFC3339), o.ClosedAt, o.Misses))
		}
		return strings.Join(out, "\n")
	}
	if b, s := openings(batched, coB), openings(single, coS); b != s {
		t.Fatalf("openings batched:\n%s\none by one:\n%s", b, s)
	}
	if o := openingsByID(t, batched, coB, false)["1"]; !o.LastSeenAt.Equal(t3) {
		t.Fatalf("opening 1 last seen %v, want the last 304's %v", o.LastSeenAt, t3)
	}
	targets := func(s prospector.Store, ids []int64) string {
		var out []string
		for _, id := range ids {
			tg, err := s.Target(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s etag %s lm %q hash %v last poll %v success %v next %v failures %d name %q %q",
				tg.Board, tg.ETag, tg.LastModified, *tg.ContentHash, tg.LastPollAt, tg.LastSuccessAt, tg.NextPollAt,
				tg.Failures, tg.BoardCompanyName, tg.NameCheck))
		}
		return strings.Join(out, "\n")
	}
	if b, s := targets(batched, idsB), targets(single, idsS); b != s {
		t.Fatalf("targets batched:\n%s\none by one:\n%s", b, s)
	}
	if n := len(hiringSignals(t, batched, coB)); n != 7 {
		t.Fatalf("%d hiring signals, want one per opening (7)", n)
	}
}

// testLastSeenThroughUnchangedPolls: an opening's last_seen_at is the
// last successful poll that listed it, whether that poll was a 304, the
// same listing or a changed one, and it stays there once the opening is
// missed and closed.
func testLastSeenThroughUnchangedPolls(t *testing.T, s prospector.Store) {
	co, b := watchedBoard(t, s)
	j1, j2 := jobPosting("1", "Senior Backend Engineer"), jobPosting("2", "Account Executive")
	t1, t2, t3, t4 := srcT0.Add(6*time.Hour), srcT0.Add(12*time.Hour), srcT0.Add(18*time.Hour), srcT0.Add(24*time.Hour)
	notModified := func(at time.Time) *prospector.BoardPoll {
		return &prospector.BoardPoll{TargetID: b.ID, Outcome: prospector.PollOutcome{At: at, Result: prospector.PollNotModified,
			Interval: 6 * time.Hour, Jitter: 0.5}}
	}
	lastSeen := func(when string, want map[string]time.Time) {
		t.Helper()
		os := openingsByID(t, s, co.ID, false)
		for id, at := range want {
			if o := os[id]; o == nil || !o.LastSeenAt.Equal(at) {
				t.Fatalf("%s: opening %s: %+v, want last seen %v", when, id, o, at)
			}
		}
	}
	applyPoll(t, s, boardPoll(b.ID, srcT0, j1, j2), prospector.BoardPollResult{New: 2, Signals: 2})
	applyPoll(t, s, notModified(t1), prospector.BoardPollResult{Seen: 2})
	lastSeen("after a 304", map[string]time.Time{"1": t1, "2": t1})
	applyPoll(t, s, boardPoll(b.ID, t2, j2), prospector.BoardPollResult{Seen: 1, Missed: 1})
	lastSeen("after a poll that misses 1", map[string]time.Time{"1": t1, "2": t2})
	applyPoll(t, s, boardPoll(b.ID, t3, j2), prospector.BoardPollResult{Seen: 1, Closed: 1})
	applyPoll(t, s, notModified(t4), prospector.BoardPollResult{Seen: 1})
	lastSeen("after 1 closed", map[string]time.Time{"1": t1, "2": t4})
	if o := openingsByID(t, s, co.ID, false)["1"]; o.ClosedAt == nil || !o.ClosedAt.Equal(t3) {
		t.Fatalf("opening 1 closed at %v, want %v", o.ClosedAt, t3)
	}
}

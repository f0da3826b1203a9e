package prospector

import (
	"strings"
	"testing"
	"time"
)

var boardT0 = time.Date(2026, 11, 1, 6, 0, 0, 0, time.UTC)

func testBoard() *SourceTarget {
	return &SourceTarget{ID: 7, CompanyID: 3, Domain: "acme.example", Kind: TargetBoard, Board: "greenhouse",
		Ref: "acme", Origin: OriginFlag}
}

func posting(id, title string) JobPosting {
	return JobPosting{ExternalID: id, Title: title, Department: "Engineering", Location: "Berlin, Germany",
		CountryCode: "DE", URL: "https://boards.example/acme/jobs/" + id}
}

func TestPlanBoardPollLifecycle(t *testing.T) {
	b := testBoard()
	rows := map[string]*JobOpening{}
	// rows is what a store would hold: the plan changes stored rows in
	// place, and new ones get ids.
	poll := func(at time.Time, same bool, ps ...JobPosting) *BoardPlan {
		t.Helper()
		var stored []*JobOpening
		for _, o := range rows {
			stored = append(stored, o)
		}
		plan, err := PlanBoardPoll(b, stored, ps, same, at)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range plan.Insert {
			o.ID = int64(len(rows) + 1)
			rows[o.ExternalID] = o
		}
		return plan
	}
	p1 := poll(boardT0, false, posting("1", "Senior Backend Engineer"), posting("2", "Account Executive"),
		posting("3", "VP Marketing"))
	if p1.Result.New != 3 || len(p1.Signals) != 3 {
		t.Fatalf("first poll: %+v, %d signals; want 3 new with a signal each", p1.Result, len(p1.Signals))
	}
	s := p1.Signals[0]
	if s.Type != "company_hiring" || s.Title != "Senior Backend Engineer" || s.SourceURL != "https://boards.example/acme/jobs/1" ||
		!s.DetectedAt.Equal(boardT0) || *s.CompanyID != 3 || s.CompanyDomain != "acme.example" ||
		s.ExternalID != "job:acme.example:greenhouse:acme:1" || !strings.HasPrefix(s.Detail, "Hiring: ") {
		t.Fatalf("hiring signal %+v", s)
	}
	if o := rows["1"]; o.Level != "IC" || o.Function != "Engineering" || o.Source != "greenhouse" || o.BoardToken != "acme" {
		t.Fatalf("opening 1 not classified or not attributed: %+v", o)
	}

	// Job 2 drops, job 4 appears, job 3 is edited.
	edited := posting("3", "VP Marketing (EMEA)")
	t1 := boardT0.Add(6 * time.Hour)
	p2 := poll(t1, false, posting("1", "Senior Backend Engineer"), edited, posting("4", "Data Scientist"))
	if p2.Result != (BoardPollResult{New: 1, Changed: 1, Seen: 1, Missed: 1, Signals: 0}) {
		t.Fatalf("second poll: %+v", p2.Result)
	}
	if rows["2"].ClosedAt != nil || rows["2"].Misses != 1 || !rows["2"].LastSeenAt.Equal(boardT0) {
		t.Fatalf("one miss closed job 2 or moved its last_seen: %+v", rows["2"])
	}
	if rows["3"].Title != "VP Marketing (EMEA)" || !rows["3"].FirstSeenAt.Equal(boardT0) || !rows["3"].LastSeenAt.Equal(t1) {
		t.Fatalf("edit not applied or first_seen moved: %+v", rows["3"])
	}
	if len(p2.Signals) != 2 || p2.Signals[0].ExternalID != "job:acme.example:greenhouse:acme:3" ||
		p2.Signals[0].Title != "VP Marketing (EMEA)" || !p2.Signals[0].DetectedAt.Equal(boardT0) {
		t.Fatalf("signals of an edit and a new opening: %+v", p2.Signals)
	}

	// A 304: the same list as last time, so job 2 misses again and closes.
	t2 := t1.Add(6 * time.Hour)
	p3 := poll(t2, true)
	if p3.Result.Closed != 1 || p3.Result.Seen != 3 || p3.Result.New != 0 || len(p3.Signals) != 0 {
		t.Fatalf("not-modified poll after a miss: %+v", p3.Result)
	}
	if rows["2"].ClosedAt == nil || !rows["2"].ClosedAt.Equal(t2) {
		t.Fatalf("job 2 not closed at the second miss: %+v", rows["2"])
	}

	// Job 2 comes back: it reopens, keeps its first_seen and gets no new signal id.
	t3 := t2.Add(6 * time.Hour)
	p4 := poll(t3, false, posting("1", "Senior Backend Engineer"), posting("2", "Account Executive"), edited,
		posting("4", "Data Scientist"))
	if p4.Result.Reopened != 1 || p4.Result.New != 0 || p4.Result.Seen != 3 {
		t.Fatalf("reappearing job: %+v", p4.Result)
	}
	if o := rows["2"]; o.ClosedAt != nil || o.Misses != 0 || !o.FirstSeenAt.Equal(boardT0) {
		t.Fatalf("reopened job: %+v", o)
	}
	if len(p4.Signals) != 1 || p4.Signals[0].ExternalID != "job:acme.example:greenhouse:acme:2" {
		t.Fatalf("a reopened job's signal must keep its id: %+v", p4.Signals)
	}
}

func TestPlanBoardPollMissThenSeenResets(t *testing.T) {
	b := testBoard()
	o := &JobOpening{ID: 1, CompanyID: 3, Source: "greenhouse", BoardToken: "acme", ExternalID: "1",
		FirstSeenAt: boardT0, LastSeenAt: boardT0, Misses: 1}
	p := posting("1", "Engineer")
	o.ContentHash = p.ContentHash()
	plan, err := PlanBoardPoll(b, []*JobOpening{o}, []JobPosting{p}, false, boardT0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Seen) != 1 || o.Misses != 0 {
		t.Fatalf("an opening seen after one miss must start counting again: %+v misses=%d", plan.Result, o.Misses)
	}
	// An empty successful listing misses it once, not twice.
	plan, _ = PlanBoardPoll(b, []*JobOpening{o}, nil, false, boardT0.Add(2*time.Hour))
	if plan.Result.Missed != 1 || plan.Result.Closed != 0 {
		t.Fatalf("first miss after a sighting: %+v", plan.Result)
	}
}

func TestPlanBoardPollRefusesBadPostings(t *testing.T) {
	for _, p := range []JobPosting{{Title: "no id"}, {ExternalID: "1", Title: "a\x00b"}, {ExternalID: "1", URL: "\xff"}} {
		if _, err := PlanBoardPoll(testBoard(), nil, []JobPosting{p}, false, boardT0); ErrorCode(err) != EINVALID {
			t.Errorf("posting %+v: err = %v, want validation error", p, err)
		}
	}
	dup, err := PlanBoardPoll(testBoard(), nil, []JobPosting{posting("1", "First"), posting("1", "Second")}, false, boardT0)
	if err != nil || len(dup.Insert) != 1 || dup.Insert[0].Title != "First" {
		t.Fatalf("a posting listed twice: %+v %v", dup, err)
	}
}

func TestPostingsHash(t *testing.T) {
	a, b := posting("1", "Engineer"), posting("2", "Designer")
	if PostingsHash([]JobPosting{a, b}) != PostingsHash([]JobPosting{b, a}) {
		t.Fatal("order changed the hash")
	}
	c := b
	c.Remote = true
	if PostingsHash([]JobPosting{a, b}) == PostingsHash([]JobPosting{a, c}) {
		t.Fatal("an edit kept the hash")
	}
	if PostingsHash([]JobPosting{a}) == PostingsHash([]JobPosting{a, b}) {
		t.Fatal("a new posting kept the hash")
	}
}

func TestJobPostingNormalize(t *testing.T) {
	p := JobPosting{ExternalID: " 42 ", Title: "Eng\x00ineer \xff", CountryCode: "de", Location: strings.Repeat("é", 400)}
	p.Normalize()
	if p.ExternalID != "42" || p.Title != "Engineer" || p.CountryCode != "DE" || len(p.Location) > 300 {
		t.Fatalf("normalised %+v", p)
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("a normalised posting is invalid: %v", err)
	}
}

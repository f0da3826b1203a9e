package prospector

import (
	"strings"
	"testing"
	"time"
)

var techT0 = time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC)

func hubspot() TechDetection {
	return TechDetection{Name: "HubSpot", Categories: []string{"Marketing automation"}, Confidence: 100,
		Evidence: []TechEvidence{{Kind: "script", Value: "js.hs-scripts.com/123.js", URL: "https://acme.example/"}}}
}

// techRows applies plans the way a store would, keeping rows by name.
type techRows map[string]*Technology

func (r techRows) crawl(t *testing.T, at time.Time, same bool, ds ...TechDetection) *TechPlan {
	t.Helper()
	var stored []*Technology
	for _, x := range r {
		stored = append(stored, x)
	}
	plan, err := PlanTechCrawl(3, "acme.example", stored, ds, same, at)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range plan.Insert {
		x.ID = int64(len(r) + 1)
		r[x.Name] = x
	}
	for _, id := range plan.Delete {
		for k, x := range r {
			if x.ID == id {
				delete(r, k)
			}
		}
	}
	return plan
}

func TestPlanTechCrawlAddAfterTwoCrawls(t *testing.T) {
	rows := techRows{}
	p1 := rows.crawl(t, techT0, false, hubspot())
	if p1.Result.Candidates != 1 || len(p1.Signals) != 0 || rows["HubSpot"].State != TechCandidate {
		t.Fatalf("one sighting must not add: %+v", p1.Result)
	}
	t1 := techT0.Add(24 * time.Hour)
	p2 := rows.crawl(t, t1, false, hubspot())
	if p2.Result.Added != 1 || len(p2.Signals) != 1 {
		t.Fatalf("second crawl in a row: %+v", p2.Result)
	}
	s := p2.Signals[0]
	if s.Type != "tech_changes" || s.Title != "HubSpot added" || !strings.Contains(s.Detail, "HubSpot (Marketing automation)") ||
		!strings.Contains(s.Detail, "js.hs-scripts.com/123.js") || !s.DetectedAt.Equal(t1) || s.SourceURL != "https://acme.example/" {
		t.Fatalf("added signal %+v", s)
	}
	// The same page again: nothing new.
	for i := 2; i < 5; i++ {
		p := rows.crawl(t, techT0.Add(time.Duration(i)*24*time.Hour), i%2 == 0, hubspot())
		if len(p.Signals) != 0 || p.Result.Seen != 1 || len(p.Update) != 0 {
			t.Fatalf("crawl %d of an unchanged page: %+v", i, p.Result)
		}
	}
	if x := rows["HubSpot"]; !x.FirstSeenAt.Equal(techT0) || x.State != TechActive {
		t.Fatalf("active technology %+v", x)
	}
}

func TestPlanTechCrawlFlappingCandidateIsForgotten(t *testing.T) {
	rows := techRows{}
	rows.crawl(t, techT0, false, hubspot())
	p := rows.crawl(t, techT0.Add(24*time.Hour), false)
	if p.Result.Forgotten != 1 || len(rows) != 0 {
		t.Fatalf("a candidate missed by the next crawl must be forgotten: %+v %v", p.Result, rows)
	}
	rows.crawl(t, techT0.Add(48*time.Hour), false, hubspot())
	if p := rows.crawl(t, techT0.Add(72*time.Hour), true); p.Result.Added != 1 {
		t.Fatalf("a 304 after a sighting confirms it (same page): %+v", p.Result)
	}
}

func TestPlanTechCrawlRemoval(t *testing.T) {
	day := 24 * time.Hour
	t.Run("three misses", func(t *testing.T) {
		rows := techRows{}
		rows.crawl(t, techT0, false, hubspot())
		rows.crawl(t, techT0.Add(day), false, hubspot())
		for i := 2; i <= 3; i++ {
			if p := rows.crawl(t, techT0.Add(time.Duration(i)*day), false); p.Result.Removed != 0 {
				t.Fatalf("removed after %d misses", i-1)
			}
		}
		p := rows.crawl(t, techT0.Add(4*day), true) // a 304 misses it again
		if p.Result.Removed != 1 || len(p.Signals) != 1 || rows["HubSpot"].State != TechRemoved {
			t.Fatalf("third miss: %+v", p.Result)
		}
		s := p.Signals[0]
		if s.Title != "HubSpot removed" || !strings.Contains(s.Detail, "since 2026-11-02") ||
			!strings.Contains(s.Detail, "js.hs-scripts.com") || s.ExternalID == TechSignalID("acme.example", rows["HubSpot"], true) {
			t.Fatalf("removed signal %+v", s)
		}
		if p := rows.crawl(t, techT0.Add(5*day), false); len(p.Signals) != 0 || p.Result.Removed != 0 {
			t.Fatalf("a removed technology removed again: %+v", p.Result)
		}
		// Back: a candidate, then added again with a new signal id.
		rows.crawl(t, techT0.Add(6*day), false, hubspot())
		p = rows.crawl(t, techT0.Add(7*day), false, hubspot())
		if p.Result.Added != 1 || p.Signals[0].ExternalID == TechSignalID("acme.example", &Technology{Name: "HubSpot",
			AddedAt: ptrTime(techT0.Add(day))}, true) {
			t.Fatalf("re-added technology: %+v %+v", p.Result, p.Signals)
		}
	})
	t.Run("thirty days", func(t *testing.T) {
		rows := techRows{}
		rows.crawl(t, techT0, false, hubspot())
		rows.crawl(t, techT0.Add(day), false, hubspot())
		if p := rows.crawl(t, techT0.Add(day+TechRemovalAge-time.Second), false); p.Result.Removed != 0 {
			t.Fatal("removed before 30 days and at one miss")
		}
		if p := rows.crawl(t, techT0.Add(day+TechRemovalAge), false); p.Result.Removed != 1 {
			t.Fatalf("absent 30 days (two misses): %+v", p.Result)
		}
	})
	t.Run("a candidate back from removal that misses stays removed", func(t *testing.T) {
		removed := techT0
		rows := techRows{"HubSpot": {ID: 1, CompanyID: 3, Name: "HubSpot", State: TechRemoved, FirstSeenAt: techT0,
			LastSeenAt: techT0, RemovedAt: &removed, AddedAt: &removed}}
		rows.crawl(t, techT0.Add(day), false, hubspot())
		rows.crawl(t, techT0.Add(2*day), false)
		if x := rows["HubSpot"]; x == nil || x.State != TechRemoved {
			t.Fatalf("got %+v", x)
		}
	})
}

func ptrTime(t time.Time) *time.Time { return &t }

func TestPlanTechCrawlValidation(t *testing.T) {
	for _, d := range []TechDetection{{}, {Name: "Hub\x00Spot"}, {Name: "X", Version: "1\x00"},
		{Name: strings.Repeat("x", 101)}} {
		if _, err := PlanTechCrawl(1, "a.example", nil, []TechDetection{d}, false, techT0); ErrorCode(err) != EINVALID {
			t.Errorf("%+v: err = %v, want validation error", d, err)
		}
	}
	d := hubspot()
	d.Evidence = nil
	for i := 0; i < 20; i++ {
		d.Evidence = append(d.Evidence, TechEvidence{Kind: "html", Value: string(rune('a'+i)) + strings.Repeat("a", 1000)})
	}
	d.Evidence = append(d.Evidence, TechEvidence{Kind: "meta", Value: "x\x00y"})
	if ev := BoundEvidence([]TechEvidence{{Kind: "cookies", Key: "hubspotutk"}, {Kind: "html"}}); len(ev) != 1 || ev[0].Key != "hubspotutk" {
		t.Fatalf("a presence check (key, no value) must be kept, an empty item dropped: %+v", ev)
	}
	plan, err := PlanTechCrawl(1, "a.example", nil, []TechDetection{d}, false, techT0)
	if err != nil {
		t.Fatal(err)
	}
	ev := plan.Insert[0].Evidence
	if len(ev) != MaxTechEvidence || len(ev[0].Value) > 256 {
		t.Fatalf("evidence not bounded: %d items, first %d bytes", len(ev), len(ev[0].Value))
	}
}

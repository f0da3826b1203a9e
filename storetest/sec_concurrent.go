package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// testSourcesConcurrent applies the same filings and stories from many
// goroutines at once (on PostgreSQL, many connections, as nodes would):
// one event and one signal each, and no goroutine fails.
func testSourcesConcurrent(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	co := secCompany(t, s, "Acme Robotics", "acme-robotics.example")
	at := time.Date(2026, 5, 5, 9, 0, 0, 0, time.UTC)
	// The issuer is stored and resolved first, so the filings below do not
	// queue behind its first insert.
	k := eightK("0001234567-26-000020", "2026-05-05")
	k.Match = resolvedTo(co)
	applyFiling(t, s, k, prospector.FilingResult{Status: prospector.FilingApplied, SignalsInserted: 1})
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var f *prospector.SECFiling
			if i%2 == 0 {
				f = formD(secOriginal, "D", "2026-05-04", 2_500_000)
			} else {
				f = formD(secAmendment, "D/A", "2026-06-15", 4_000_000)
			}
			f.Match = resolvedTo(co)
			if _, err := s.ApplyFiling(ctx, f); err != nil {
				errs <- err
			}
			url := []string{"https://acme-robotics.example/blog/b", "https://wire.example/b"}[i%2]
			if _, err := s.ApplyNews(ctx, []*prospector.NewsStory{story("news-w19", url, "gdelt", at)}); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	es := financingEvents(t, s, co.ID)
	if len(es) != 1 || es[0].Amount != "$4000000" || !es[0].FoundAt.Equal(utc("2026-05-04T00:00:00Z")) {
		for _, e := range es {
			t.Logf("event %+v", *e)
		}
		t.Fatalf("%d financing events, want one with the amendment's amount and the original's found_at", len(es))
	}
	if ns := newsEvents(t, s, co.ID); len(ns) != 1 {
		t.Fatalf("%d news events", len(ns))
	}
	if srcs, _ := s.NewsSources(ctx, []int64{newsEvents(t, s, co.ID)[0].ID}); len(srcs[newsEvents(t, s, co.ID)[0].ID]) != 2 {
		t.Fatalf("articles %+v", srcs)
	}
	if sigs := companySignals(t, s, co.ID); len(sigs) != 3 {
		t.Fatalf("%d signals, want the 8-K's and the funding signals of the offering and of the story", len(sigs))
	}
}

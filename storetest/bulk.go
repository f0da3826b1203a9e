package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

func runBulk(t *testing.T, open Opener) {
	t.Run("BulkCommit", func(t *testing.T) { testBulkCommit(t, open(t)) })
	t.Run("BulkFailure", func(t *testing.T) { testBulkFailure(t, open(t)) })
	t.Run("BulkConcurrent", func(t *testing.T) { testBulkConcurrent(t, open(t)) })
}

// testBulkCommit: a session's batches share a transaction that others
// see at Commit, its own later batches see its earlier ones, and Close
// drops what was not committed.
func testBulkCommit(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	cs := sampleCompanies()
	b, err := s.BeginBulk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// Each call has its own context, which may end after the call (a
	// per-request timeout): the session's transaction outlives it.
	callCtx, cancel := context.WithCancel(ctx)
	res, err := b.UpsertCompanies(callCtx, cs)
	cancel()
	wantRes(t, "companies", res, err, len(cs), 0, 0)
	first := &prospector.Person{ExternalID: "bulk-1", FullName: "Ash First", Title: "Engineer", CompanyID: &cs[0].ID}
	res, err = b.UpsertPeople(ctx, []*prospector.Person{first})
	wantRes(t, "people", res, err, 1, 0, 0)
	if _, err := s.PersonByKey(ctx, first.NaturalKey()); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("an uncommitted person is visible outside the session: %v", err)
	}
	// The same key in a later batch of the session is an update of the
	// row the session wrote, not a second row.
	again := &prospector.Person{ExternalID: "bulk-1", FullName: "Ash First", Title: "Staff Engineer", CompanyID: &cs[0].ID}
	res, err = b.UpsertPeople(ctx, []*prospector.Person{again})
	wantRes(t, "the same person, changed", res, err, 0, 1, 0)
	if again.ID != first.ID {
		t.Fatalf("the repeated key got id %d, the first write %d", again.ID, first.ID)
	}
	sig := &prospector.Signal{ExternalID: "bulk-s1", Type: "company_hiring", CompanyID: &cs[0].ID,
		CompanyDomain: cs[0].Domain, DetectedAt: utc("2026-11-01T00:00:00Z")}
	res, err = b.UpsertSignals(ctx, []*prospector.Signal{sig})
	wantRes(t, "signals", res, err, 1, 0, 0)
	news := &prospector.NewsEvent{ExternalID: "bulk-n1", CompanyID: cs[0].ID, EventType: "news_event",
		EffectiveDate: "2026-11-01", FoundAt: utc("2026-11-01T00:00:00Z")}
	res, err = b.UpsertNewsEvents(ctx, []*prospector.NewsEvent{news})
	wantRes(t, "news", res, err, 1, 0, 0)
	fin := &prospector.FinancingEvent{ExternalID: "bulk-f1", CompanyID: cs[0].ID, EventType: "financing_event",
		FinancingType: "Series A", EffectiveDate: "2026-11-01", FoundAt: utc("2026-11-01T00:00:00Z")}
	res, err = b.UpsertFinancingEvents(ctx, []*prospector.FinancingEvent{fin})
	wantRes(t, "financing", res, err, 1, 0, 0)
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	p, err := s.PersonByKey(ctx, first.NaturalKey())
	if err != nil || p.Title != "Staff Engineer" {
		t.Fatalf("after commit: %+v %v", p, err)
	}
	if n, err := s.CountPeople(ctx); err != nil {
		t.Fatal(err)
	} else if n != 1 {
		t.Fatalf("people after commit: %d, want 1", n)
	}
	if got, err := s.SignalsByCompanies(ctx, []int64{cs[0].ID}, 10); err != nil || len(got) != 1 {
		t.Fatalf("signals after commit: %v %v", got, err)
	}

	// After a commit the session goes on; what follows the last commit is
	// dropped by Close.
	late := &prospector.Person{ExternalID: "bulk-2", FullName: "Bay Late"}
	res, err = b.UpsertPeople(ctx, []*prospector.Person{late})
	wantRes(t, "a person after the commit", res, err, 1, 0, 0)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PersonByKey(ctx, late.NaturalKey()); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("Close kept an uncommitted person: %v", err)
	}
	if _, err := b.UpsertPeople(ctx, []*prospector.Person{late}); err == nil {
		t.Fatal("a closed session still writes")
	}
	// The store writes as before once the session is closed, references
	// checked (SQLite's session turns foreign keys off for its writer).
	res, err = s.UpsertPeople(ctx, []*prospector.Person{late})
	wantRes(t, "a person after the session", res, err, 1, 0, 0)
	key, _ := prospector.NewAPIKey("ws_missing", prospector.PlanDefault, nil)
	if err := s.CreateAPIKey(ctx, key); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("a key for a missing workspace after the session: %v, want ErrNotFound", err)
	}
}

// testBulkFailure: a failed batch rolls back the session's uncommitted
// batches with it, ends the session, and leaves committed ones and the
// store's reference checks in place.
func testBulkFailure(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	cs := sampleCompanies()
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	b, err := s.BeginBulk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	kept := &prospector.Person{ExternalID: "bulk-kept", FullName: "Kit Kept", CompanyID: &cs[0].ID}
	if _, err := b.UpsertPeople(ctx, []*prospector.Person{kept}); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	lost := &prospector.Person{ExternalID: "bulk-lost", FullName: "Lu Lost", CompanyID: &cs[0].ID}
	if _, err := b.UpsertPeople(ctx, []*prospector.Person{lost}); err != nil {
		t.Fatal(err)
	}
	missing := cs[len(cs)-1].ID + 1000
	orphan := &prospector.Person{ExternalID: "bulk-orphan", FullName: "Bo Orphan", CompanyID: &missing}
	if _, err := b.UpsertPeople(ctx, []*prospector.Person{orphan}); err == nil {
		t.Fatal("a person at a company that does not exist was written")
	}
	if _, err := b.UpsertPeople(ctx, []*prospector.Person{{ExternalID: "bulk-after", FullName: "Al After"}}); err == nil {
		t.Fatal("the session went on after a failed batch")
	}
	if err := b.Commit(ctx); err == nil {
		t.Fatal("a failed session committed")
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PersonByKey(ctx, kept.NaturalKey()); err != nil {
		t.Fatalf("the committed person: %v", err)
	}
	for _, key := range []string{lost.NaturalKey(), orphan.NaturalKey(), "id:bulk-after"} {
		if _, err := s.PersonByKey(ctx, key); !errors.Is(err, prospector.ErrNotFound) {
			t.Fatalf("%s survived the failed session: %v", key, err)
		}
	}
	if _, err := s.UpsertPeople(ctx, []*prospector.Person{orphan}); err == nil {
		t.Fatal("after the session, a person at a missing company was stored")
	}
	key, _ := prospector.NewAPIKey("ws_missing", prospector.PlanDefault, nil)
	if err := s.CreateAPIKey(ctx, key); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("a key for a missing workspace after a failed session: %v, want ErrNotFound", err)
	}
}

// testBulkConcurrent: two sessions writing the same tables in opposite
// orders both finish; neither waits for the other forever or is chosen
// as a deadlock's victim.
func testBulkConcurrent(t *testing.T, s prospector.Store) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	started := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	errs := make(chan error, 2)
	for i := range 2 {
		go func() {
			errs <- func() error {
				b, err := s.BeginBulk(ctx)
				if err != nil {
					return err
				}
				defer b.Close()
				companies := func() error {
					_, err := b.UpsertCompanies(ctx, []*prospector.Company{{Domain: fmt.Sprintf("cross-%d.example", i),
						Name: "Cross", Keywords: []string{}}})
					return err
				}
				people := func() error {
					_, err := b.UpsertPeople(ctx, []*prospector.Person{{ExternalID: fmt.Sprint("cross-", i), FullName: "Cy Cross"}})
					return err
				}
				steps := []func() error{companies, people}
				if i == 1 {
					steps[0], steps[1] = people, companies
				}
				if err := steps[0](); err != nil {
					return err
				}
				close(started[i])
				// Give the other session the chance to hold its first table
				// (an engine may instead make it wait for this one).
				select {
				case <-started[1-i]:
				case <-time.After(300 * time.Millisecond):
				}
				if err := steps[1](); err != nil {
					return err
				}
				return b.Commit(ctx)
			}()
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("a session crossing the other: %v", err)
		}
	}
	if n, err := s.CountPeople(context.Background()); err != nil || n != 2 {
		t.Fatalf("people after both sessions: %d %v, want 2", n, err)
	}
}

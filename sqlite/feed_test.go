package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sqlite"
)

// withLegacyRow stores what write writes, runs stmt on the file past the
// store's guard (which checks statement arguments; a literal gets past
// it, as rows written by older versions did) and reopens the store.
func withLegacyRow(t *testing.T, write func(*sqlite.DB) error, stmt string) *sqlite.DB {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := write(db); err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw, err := sql.Open("sqlite", filepath.Join(dir, "prospector.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(stmt); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db, err = sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestPeopleFeedLegacyNUL: a person whose text holds a NUL (stored before
// the store refused it) still reaches the index with its own fields, read
// column by column, and the people around it are unpacked as usual.
func TestPeopleFeedLegacyNUL(t *testing.T) {
	ctx := context.Background()
	score := 0.5
	ps := []*prospector.Person{
		{ExternalID: "a", FullName: "Ana Alpha", Title: "Head of Sales", City: "Lyon", CountryCode: "FR", Score: &score},
		{ExternalID: "b", FullName: "Bo Beta", Title: "CTO", Region: "Bavaria"},
		{ExternalID: "c", FullName: "Cy Gamma", Title: "Engineer", NetworkURL: "https://network.example/in/c"},
	}
	db := withLegacyRow(t, func(db *sqlite.DB) error { _, err := db.UpsertPeople(ctx, ps); return err },
		`UPDATE people SET title = 'Chief' || char(0) || 'Officer' WHERE external_id = 'b'`)
	got, err := db.PeopleChangedSince(ctx, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("read %d people, want 3", len(got))
	}
	byExt := map[string]*prospector.Person{}
	for _, p := range got {
		byExt[p.ExternalID] = p
	}
	if p := byExt["b"]; p == nil || p.Title != "Chief\x00Officer" || p.Region != "Bavaria" || p.FullName != "Bo Beta" {
		t.Errorf("person with a NUL: %+v", p)
	}
	if p := byExt["a"]; p == nil || p.Title != "Head of Sales" || p.City != "Lyon" || p.CountryCode != "FR" ||
		p.Score == nil || *p.Score != 0.5 || p.CompanyID != nil {
		t.Errorf("person a: %+v", p)
	}
	if p := byExt["c"]; p == nil || p.NetworkURL != "https://network.example/in/c" || p.Score != nil {
		t.Errorf("person c: %+v", p)
	}
}

// TestSignalsFeedLegacyNUL: the same for a signal's text.
func TestSignalsFeedLegacyNUL(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	db := withLegacyRow(t, func(db *sqlite.DB) error {
		cs := []*prospector.Company{{Name: "Acme", Domain: "acme.example"}}
		if _, err := db.UpsertCompanies(ctx, cs); err != nil {
			return err
		}
		_, err := db.UpsertSignals(ctx, []*prospector.Signal{
			{ExternalID: "s1", Type: "funding", CompanyID: &cs[0].ID, CompanyDomain: "acme.example", Title: "Seed", DetectedAt: at},
			{ExternalID: "s2", Type: "company_hiring", CompanyID: &cs[0].ID, CompanyDomain: "acme.example", Title: "Engineer",
				SourceURL: "https://jobs.example/2", DetectedAt: at.Add(time.Hour)},
		})
		return err
	}, `UPDATE signals SET detail = 'a' || char(0) || 'b' WHERE external_id = 's1'`)
	got, err := db.SignalsChangedSince(ctx, 0, 10)
	if err != nil || len(got) != 2 {
		t.Fatalf("read %d signals, want 2 (%v)", len(got), err)
	}
	if s := got[0]; s.ExternalID != "s1" || s.Detail != "a\x00b" || s.Title != "Seed" || !s.DetectedAt.Equal(at) {
		t.Errorf("signal with a NUL: %+v", s)
	}
	if s := got[1]; s.ExternalID != "s2" || s.SourceURL != "https://jobs.example/2" || !s.DetectedAt.Equal(at.Add(time.Hour)) ||
		s.Seq <= got[0].Seq {
		t.Errorf("signal s2: %+v", s)
	}
}

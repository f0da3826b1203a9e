package search_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/postgres/pgtest"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/sqlite"
)

// onBothEngines runs f on a fresh SQLite store and, when
// TEST_DATABASE_URL is set, on a fresh PostgreSQL schema.
func onBothEngines(t *testing.T, f func(t *testing.T, st prospector.Store)) {
	t.Run("sqlite", func(t *testing.T) {
		st, err := sqlite.Open(context.Background(), t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		f(t, st)
	})
	t.Run("postgres", func(t *testing.T) { f(t, pgtest.Open(t, pgtest.FreshSchema(t))) })
}

var (
	snapIndustries = []string{"Software Development", "Banking", "Retail", "Manufacturing"}
	snapCountries  = []string{"US", "GB", "DE", "FR"}
	snapCities     = []string{"Austin", "London", "Berlin", "Paris", "San Francisco"}
	snapSizes      = []string{"11-50", "51-200", "501-1000", "10001+", ""}
	snapTitles     = []string{"VP of Sales", "Head of Marketing", "Software Engineer", "Co-founder & CEO", "Account Executive"}
	snapLevels     = []string{"VP", "Head", "IC", "Founder", "IC"}
	snapFunctions  = []string{"Sales", "Marketing", "Engineering", "", "Sales"}
	snapWords      = []string{"robotics", "payments", "warehouse automation", "analytics", "cloud"}
)

// seedSnapshotData writes companies, people and signals with ids tagged
// by round, so a later round adds rows and updates some of the earlier.
func seedSnapshotData(t *testing.T, st prospector.Store, round, companies, people int) {
	t.Helper()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(uint64(round), 7))
	pick := func(vs []string) string { return vs[r.IntN(len(vs))] }
	var cs []*prospector.Company
	for i := range companies {
		cs = append(cs, &prospector.Company{Name: fmt.Sprintf("Company %d", i), Domain: fmt.Sprintf("c%d.example", i),
			Industry: pick(snapIndustries), CountryCode: pick(snapCountries), City: pick(snapCities),
			EmployeeRange: pick(snapSizes), Keywords: []string{pick(snapWords), pick(snapWords)},
			Description: fmt.Sprintf("Round %d %s", round, pick(snapWords))})
	}
	if _, err := st.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	var ps []*prospector.Person
	for i := range people {
		j := r.IntN(len(snapTitles))
		p := &prospector.Person{ExternalID: fmt.Sprintf("p%d", i), FullName: fmt.Sprintf("Person %d", i),
			Title: snapTitles[j], JobLevel: snapLevels[j], JobFunction: snapFunctions[j],
			CountryCode: pick(snapCountries), City: pick(snapCities)}
		if i%9 != 0 {
			p.CompanyID = &cs[r.IntN(len(cs))].ID
			p.CompanyName = "Company"
		}
		ps = append(ps, p)
	}
	if _, err := st.UpsertPeople(ctx, ps); err != nil {
		t.Fatal(err)
	}
	var ss []*prospector.Signal
	at := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	for i := range people / 3 {
		c := cs[r.IntN(len(cs))]
		ss = append(ss, &prospector.Signal{ExternalID: fmt.Sprintf("s%d-%d", round, i), Type: "company_hiring",
			CompanyID: &c.ID, CompanyDomain: c.Domain, Title: fmt.Sprintf("Hiring %d", i),
			DetectedAt: at.Add(time.Duration(r.IntN(1000)) * time.Hour)})
	}
	if _, err := st.UpsertSignals(ctx, ss); err != nil {
		t.Fatal(err)
	}
}

// answers is everything a client could see from the index: every page
// of a set of searches, the cards of their rows, the companies' signals
// and domains.
func answers(t *testing.T, ix *search.Index, companies int) string {
	t.Helper()
	ctx := context.Background()
	var out []any
	cqs := []prospector.CompanyQuery{{}, {Industries: []string{"banking", "Retail"}}, {Keywords: []string{"robotics", "cloud", "analytics"}},
		{Countries: []string{"US"}, Sizes: []string{"51-200", "10001+"}}, {Places: []string{"San Francisco"}, ExcludeIndustries: []string{"Banking"}}}
	for _, q := range cqs {
		from := prospector.SearchPosition{}
		for {
			page, err := ix.SearchCompanies(ctx, q, from, 7)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range ix.CompanyCards(page.IDs) {
				c.EmployeeCount = nil // never set by the fixture; the pointer would differ
				out = append(out, *c)
			}
			out = append(out, page.IDs)
			if page.Next == nil {
				break
			}
			from = *page.Next
		}
	}
	pqs := []prospector.PersonQuery{{}, {Titles: []string{"VP Sales", "Head of Marketing"}}, {Levels: []string{"IC"}, Countries: []string{"DE"}},
		{CompanySizes: []string{"51-200"}, CompanyIndustries: []string{"banking"}}, {Places: []string{"london"}, ExcludeTitles: []string{"engineer"}}}
	for _, q := range pqs {
		from := prospector.SearchPosition{}
		for {
			page, err := ix.SearchPeople(ctx, q, from, 11)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ix.PersonCards(page.IDs) {
				p.Score = nil // never set by the fixture
				out = append(out, *p)
			}
			out = append(out, page.IDs)
			if page.Next == nil {
				break
			}
			from = *page.Next
		}
	}
	var ids []int64
	var domains []string
	for i := range companies + 5 {
		ids = append(ids, int64(i+1))
		domains = append(domains, fmt.Sprintf("c%d.example", i))
	}
	sigs, missing := ix.CompanySignals(ids, 3)
	for _, s := range sigs {
		co := *s.CompanyID
		s.CompanyID = nil // pointers would differ between indexes
		out = append(out, *s, co)
	}
	s := ix.Stats()
	out = append(out, missing, ix.CompanyIDsByDomain(domains), s.Companies, s.People)
	return fmt.Sprintf("%+v", out)
}

func coldIndex(t *testing.T, st prospector.Store) *search.Index {
	t.Helper()
	ix := search.New(st)
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestSnapshotRestoresAndCatchesUp: a node started from a snapshot
// answers as one that read the whole store, including rows written after
// the snapshot was taken.
func TestSnapshotRestoresAndCatchesUp(t *testing.T) {
	onBothEngines(t, func(t *testing.T, st prospector.Store) {
		ctx := context.Background()
		seedSnapshotData(t, st, 1, 60, 600)
		path := filepath.Join(t.TempDir(), "index.snapshot")
		followed := coldIndex(t, st)
		info, err := followed.SaveSnapshot(path, "db-1")
		if err != nil {
			t.Fatal(err)
		}
		if info.People == 0 || info.Companies == 0 || info.Signals == 0 {
			t.Fatalf("snapshot positions %+v", info)
		}

		restored := search.New(st)
		if _, err := restored.LoadSnapshot(ctx, path, "db-1"); err != nil {
			t.Fatal(err)
		}
		if got, want := answers(t, restored, 80), answers(t, coldIndex(t, st), 80); got != want {
			t.Fatal("a restored index answers differently from one built from the store")
		}

		// Round 2 updates every row of round 1 (other facts, titles,
		// companies) and adds companies, people and signals.
		seedSnapshotData(t, st, 2, 80, 700)
		again := search.New(st)
		if _, err := again.LoadSnapshot(ctx, path, "db-1"); err != nil {
			t.Fatal(err)
		}
		if n, err := again.Sync(ctx); err != nil || n == 0 {
			t.Fatalf("catch-up applied %d rows, %v", n, err)
		}
		got, want := answers(t, again, 80), answers(t, coldIndex(t, st), 80)
		if got != want {
			t.Fatal("a restored index that caught up answers differently from one built from the store")
		}
		// The index that was running all along, for comparison.
		if _, err := followed.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		if answers(t, followed, 80) != want {
			t.Fatal("an index that followed the changes answers differently from one built from the store")
		}
		if reflect.DeepEqual(got, answers(t, restored, 80)) {
			t.Fatal("round 2 changed nothing the test can see")
		}
	})
}

// TestSnapshotRejected: a snapshot of another version, another database,
// a database behind it or with damaged bytes is refused, and the index
// stays empty until it is built from the store.
func TestSnapshotRejected(t *testing.T) {
	onBothEngines(t, func(t *testing.T, st prospector.Store) {
		ctx := context.Background()
		seedSnapshotData(t, st, 1, 30, 200)
		dir := t.TempDir()
		path := filepath.Join(dir, "index.snapshot")
		if _, err := coldIndex(t, st).SaveSnapshot(path, "db-1"); err != nil {
			t.Fatal(err)
		}
		good, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// The header: magic, format version, schema version (one byte each).
		magic := len("PROSPECTOR-INDEX\n")
		altered := func(name string, at int) string {
			b := append([]byte(nil), good...)
			b[at] ^= 0x01
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, b, 0o600); err != nil {
				t.Fatal(err)
			}
			return p
		}
		truncated := filepath.Join(dir, "truncated")
		if err := os.WriteFile(truncated, good[:len(good)/2], 0o600); err != nil {
			t.Fatal(err)
		}
		empty, err := sqlite.Open(ctx, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer empty.Close()
		cases := []struct {
			name     string
			store    prospector.Store
			path, db string
			want     error
		}{
			{"other format", st, altered("format", magic), "db-1", search.ErrSnapshotVersion},
			{"other schema", st, altered("schema", magic+1), "db-1", search.ErrSnapshotVersion},
			{"other database", st, path, "db-2", search.ErrSnapshotDatabase},
			{"flipped bit in the body", st, altered("body", len(good)/2), "db-1", search.ErrSnapshotCorrupt},
			{"flipped bit in the checksum", st, altered("sum", len(good)-1), "db-1", search.ErrSnapshotCorrupt},
			{"truncated", st, truncated, "db-1", search.ErrSnapshotCorrupt},
			{"store behind the snapshot", empty, path, "db-1", search.ErrSnapshotAhead},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				ix := search.New(c.store)
				_, err := ix.LoadSnapshot(ctx, c.path, c.db)
				if !errors.Is(err, c.want) {
					t.Fatalf("LoadSnapshot: %v, want %v", err, c.want)
				}
				if s := ix.Stats(); s.People != 0 || s.Companies != 0 {
					t.Fatalf("a refused snapshot left %+v in the index", s)
				}
				if _, err := ix.Sync(ctx); err != nil {
					t.Fatal(err)
				}
				if got, want := answers(t, ix, 30), answers(t, coldIndex(t, c.store), 30); got != want {
					i := 0
					for i < len(got) && i < len(want) && got[i] == want[i] {
						i++
					}
					t.Fatalf("the index rebuilt after a refused snapshot answers differently at %d:\n%s\n%s", i, got[max(0, i-200):min(len(got), i+200)], want[max(0, i-200):min(len(want), i+200)])
				}
			})
		}
	})
}

// TestSnapshotHoldsNoReplacedRecords: a card replaced by an update keeps
// its bytes in memory until the process ends, but never in a snapshot.
func TestSnapshotHoldsNoReplacedRecords(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ix := search.New(st)
	for _, name := range []string{"Zed Formername", "Ann Currentname"} {
		if _, err := st.UpsertPeople(ctx, []*prospector.Person{{ExternalID: "p1", FullName: name, Title: "CFO"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "index.snapshot")
	if _, err := ix.SaveSnapshot(path, "db-1"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("Currentname")) || bytes.Contains(b, []byte("Formername")) {
		t.Fatal("the snapshot holds the replaced card, or not the current one")
	}
}

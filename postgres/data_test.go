package postgres_test

import (
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/postgres"
	"github.com/prospectorhq/prospector/sqlite"
)

// TestDataParityWithSQLite runs the same random upserts against both
// engines and requires the same counts, the same ids and the same rows,
// seqs included, and the same changes since any seq.
func TestDataParityWithSQLite(t *testing.T) {
	ctx := context.Background()
	pg := openURL(t, freshSchema(t))
	lite, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lite.Close() })
	stores := []prospector.Store{lite, pg}
	r := rand.New(rand.NewSource(1))
	pick := func(l ...string) string { return l[r.Intn(len(l))] }
	maybeInt := func() *int64 {
		if r.Intn(3) == 0 {
			return nil
		}
		n := int64(r.Intn(4))
		return &n
	}
	maybeFloat := func() *float64 {
		if r.Intn(3) == 0 {
			return nil
		}
		f := float64(r.Intn(4)) / 4
		return &f
	}
	maybeStr := func() *string {
		if r.Intn(2) == 0 {
			return nil
		}
		s := pick("a", "b")
		return &s
	}
	list := func() []string {
		switch r.Intn(4) {
		case 0:
			return nil
		case 1:
			return []string{}
		case 2:
			return []string{pick("x", "y")}
		}
		return []string{"x", pick("y", "z,\"{}")}
	}
	day := func() time.Time {
		return time.Date(2026, time.Month(1+r.Intn(3)), 1+r.Intn(3), r.Intn(2), 0, 0, 123456000, time.UTC)
	}
	var companyIDs, personIDs []int64
	someCompany := func() *int64 {
		if len(companyIDs) == 0 || r.Intn(4) == 0 {
			return nil
		}
		id := companyIDs[r.Intn(len(companyIDs))]
		return &id
	}
	somePerson := func() *int64 {
		if len(personIDs) == 0 || r.Intn(3) == 0 {
			return nil
		}
		id := personIDs[r.Intn(len(personIDs))]
		return &id
	}

	seen := map[string]*prospector.UpsertResult{}
	// upsertBoth hands each store its own copies (upserts set the ids) and
	// compares the counts and the ids.
	// A key drawn again gets its previous values half of the time, so the
	// batches see unchanged rows and repeats with and without changes.
	last := map[string]any{}
	upsertBoth := func(what string, n int, mk func() any, up func(prospector.Store, []any) (prospector.UpsertResult, []int64, error)) []int64 {
		t.Helper()
		items := make([]any, n)
		for i := range items {
			items[i] = mk()
			k := what + "\x00" + keyOf(items[i])
			if prev, ok := last[k]; ok && r.Intn(2) == 0 {
				items[i] = prev
			}
			last[k] = items[i]
		}
		var results []prospector.UpsertResult
		var ids [][]int64
		for _, s := range stores {
			res, got, err := up(s, items)
			if err != nil {
				t.Fatalf("%s: %T: %v", what, s, err)
			}
			results, ids = append(results, res), append(ids, got)
		}
		if results[0] != results[1] {
			t.Fatalf("%s: sqlite %+v, postgres %+v", what, results[0], results[1])
		}
		if seen[what] == nil {
			seen[what] = &prospector.UpsertResult{}
		}
		seen[what].Add(results[0])
		if !reflect.DeepEqual(ids[0], ids[1]) {
			t.Fatalf("%s: ids sqlite %v, postgres %v", what, ids[0], ids[1])
		}
		return ids[0]
	}

	for round := 0; round < 25; round++ {
		upsertBoth("companies", 1+r.Intn(15), func() any {
			return prospector.Company{Name: pick("A", "B"), Domain: fmt.Sprintf("c%d.example", r.Intn(30)),
				Industry: pick("", "Retail"), Keywords: list(), EmployeeCount: maybeInt(), Founded: maybeInt(),
				RevenueUSD: maybeInt(), NetworkURL: pick("", "", "https://n.example/c/1", "https://n.example/c/2"),
				Ticker: pick("", "T")}
		}, func(s prospector.Store, items []any) (prospector.UpsertResult, []int64, error) {
			cs := make([]*prospector.Company, len(items))
			for i, it := range items {
				c := it.(prospector.Company)
				cs[i] = &c
			}
			res, err := s.UpsertCompanies(ctx, cs)
			ids := make([]int64, len(cs))
			for i, c := range cs {
				ids[i] = c.ID
			}
			return res, ids, err
		})
		companyIDs = nil
		for _, c := range listAll(t, lite.ListCompanies) {
			companyIDs = append(companyIDs, c.ID)
		}

		upsertBoth("people", 1+r.Intn(15), func() any {
			p := prospector.Person{FullName: pick("Ann", "Bo"), Title: pick("", "CEO"), CompanyID: someCompany(),
				Email: pick("", "e@x.example"), Score: maybeFloat()}
			if r.Intn(2) == 0 {
				p.NetworkURL = fmt.Sprintf("https://n.example/in/%d", r.Intn(20))
			} else {
				p.ExternalID = fmt.Sprintf("crm-%d", r.Intn(20))
			}
			return p
		}, func(s prospector.Store, items []any) (prospector.UpsertResult, []int64, error) {
			ps := make([]*prospector.Person, len(items))
			for i, it := range items {
				p := it.(prospector.Person)
				ps[i] = &p
			}
			res, err := s.UpsertPeople(ctx, ps)
			ids := make([]int64, len(ps))
			for i, p := range ps {
				ids[i] = p.ID
			}
			return res, ids, err
		})
		personIDs = nil
		for _, p := range listAll(t, lite.ListPeople) {
			personIDs = append(personIDs, p.ID)
		}

		upsertBoth("signals", 1+r.Intn(15), func() any {
			return prospector.Signal{ExternalID: fmt.Sprintf("s%d", r.Intn(30)), Type: pick("job_change", "company_hiring"),
				CompanyID: someCompany(), PersonID: somePerson(), Title: pick("t1", "t2"), DetectedAt: day(),
				Score: maybeFloat()}
		}, func(s prospector.Store, items []any) (prospector.UpsertResult, []int64, error) {
			ss := make([]*prospector.Signal, len(items))
			for i, it := range items {
				x := it.(prospector.Signal)
				ss[i] = &x
			}
			res, err := s.UpsertSignals(ctx, ss)
			ids := make([]int64, len(ss))
			for i, x := range ss {
				ids[i] = x.ID
			}
			return res, ids, err
		})

		if len(companyIDs) > 0 {
			upsertBoth("news", 1+r.Intn(15), func() any {
				attrs := prospector.NewsAttributes{Summary: maybeStr(), Confidence: maybeFloat(), ProductTags: list()}
				if r.Intn(2) == 0 {
					attrs.LocationData = []prospector.LocationData{{City: maybeStr()}}
				}
				return prospector.NewsEvent{ExternalID: fmt.Sprintf("n%d", r.Intn(30)),
					CompanyID: companyIDs[r.Intn(len(companyIDs))], EventType: "news_event", Categories: list(),
					EffectiveDate: pick("", "2026-01-02"), FoundAt: day(), Attributes: attrs}
			}, func(s prospector.Store, items []any) (prospector.UpsertResult, []int64, error) {
				es := make([]*prospector.NewsEvent, len(items))
				for i, it := range items {
					x := it.(prospector.NewsEvent)
					es[i] = &x
				}
				res, err := s.UpsertNewsEvents(ctx, es)
				ids := make([]int64, len(es))
				for i, x := range es {
					ids[i] = x.ID
				}
				return res, ids, err
			})
			upsertBoth("financing", 1+r.Intn(15), func() any {
				var inv []prospector.Investor
				if r.Intn(2) == 0 {
					inv = []prospector.Investor{{ID: "i1", Name: pick("Granite", "Peak"), Domain: maybeStr()}}
				}
				return prospector.FinancingEvent{ExternalID: fmt.Sprintf("f%d", r.Intn(30)),
					CompanyID: companyIDs[r.Intn(len(companyIDs))], EventType: "financing_event", Categories: list(),
					FinancingType: pick("", "Seed"), Amount: pick("", "$1M"), AmountNormalized: maybeFloat(),
					FoundAt: day(), SourceURLs: list(), Investors: inv}
			}, func(s prospector.Store, items []any) (prospector.UpsertResult, []int64, error) {
				es := make([]*prospector.FinancingEvent, len(items))
				for i, it := range items {
					x := it.(prospector.FinancingEvent)
					es[i] = &x
				}
				res, err := s.UpsertFinancingEvents(ctx, es)
				ids := make([]int64, len(es))
				for i, x := range es {
					ids[i] = x.ID
				}
				return res, ids, err
			})
		}
		compareStores(t, ctx, r, lite, pg, companyIDs)
	}
	for what, res := range seen { // the random batches must reach every case
		if res.Inserted == 0 || res.Updated == 0 || res.Unchanged == 0 {
			t.Errorf("%s: %+v", what, *res)
		}
		t.Logf("%s: %+v", what, *res)
	}
}

func keyOf(item any) string {
	switch x := item.(type) {
	case prospector.Company:
		return x.Domain
	case prospector.Person:
		return x.NaturalKey()
	case prospector.Signal:
		return x.ExternalID
	case prospector.NewsEvent:
		return x.ExternalID
	case prospector.FinancingEvent:
		return x.ExternalID
	}
	panic(fmt.Sprintf("keyOf %T", item))
}

func listAll[T any](t *testing.T, fn func(context.Context, int64, int) ([]T, error)) []T {
	t.Helper()
	l, err := fn(context.Background(), 0, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// same fails unless a and b are deeply equal once the store-set
// timestamps are cleared.
func same(t *testing.T, what string, a, b any) {
	t.Helper()
	clear := func(v any) any {
		rv := reflect.ValueOf(v)
		out := reflect.MakeSlice(rv.Type(), rv.Len(), rv.Len())
		for i := 0; i < rv.Len(); i++ {
			e := rv.Index(i).Elem()
			c := reflect.New(e.Type())
			c.Elem().Set(e)
			for _, f := range []string{"CreatedAt", "UpdatedAt"} {
				if fv := c.Elem().FieldByName(f); fv.IsValid() {
					fv.Set(reflect.Zero(fv.Type()))
				}
			}
			out.Index(i).Set(c)
		}
		return out.Interface()
	}
	if a, b := clear(a), clear(b); !reflect.DeepEqual(a, b) {
		t.Fatalf("%s differ:\nsqlite   %s\npostgres %s", what, dump(a), dump(b))
	}
}

func dump(v any) string {
	rv := reflect.ValueOf(v)
	s := ""
	for i := 0; i < rv.Len(); i++ {
		s += fmt.Sprintf("%+v\n", rv.Index(i).Elem().Interface())
	}
	return s
}

func compareStores(t *testing.T, ctx context.Context, r *rand.Rand, lite, pg prospector.Store, companyIDs []int64) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	a1, err := lite.ListCompanies(ctx, 0, -1)
	must(err)
	b1, err := pg.ListCompanies(ctx, 0, -1)
	must(err)
	same(t, "companies", a1, b1)
	a2, err := lite.ListPeople(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := pg.ListPeople(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "people", a2, b2)
	for _, since := range []int64{0, int64(r.Intn(20)), int64(r.Intn(200))} {
		limit := r.Intn(12) - 1
		ca, err := lite.CompaniesChangedSince(ctx, since, limit)
		must(err)
		cb, err := pg.CompaniesChangedSince(ctx, since, limit)
		must(err)
		same(t, fmt.Sprintf("companies changed since %d limit %d", since, limit), ca, cb)
		pa, err := lite.PeopleChangedSince(ctx, since, limit)
		must(err)
		pb, err := pg.PeopleChangedSince(ctx, since, limit)
		must(err)
		same(t, fmt.Sprintf("people changed since %d limit %d", since, limit), pa, pb)
	}
	a3, err := lite.ListSignals(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	b3, err := pg.ListSignals(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "signals", a3, b3)
	for _, st := range []prospector.Store{lite, pg} {
		for _, c := range []func(context.Context) (int64, error){st.CountCompanies, st.CountPeople, st.CountSignals} {
			if _, err := c(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, url := range []string{"https://n.example/c/1", "https://n.example/c/2", ""} {
		x, errA := lite.CompanyByNetworkURL(ctx, url)
		y, errB := pg.CompanyByNetworkURL(ctx, url)
		if (errA == nil) != (errB == nil) || (x != nil && x.ID != y.ID) {
			t.Fatalf("by url %q: %v %v / %v %v", url, x, errA, y, errB)
		}
	}
	urls := []string{"https://n.example/c/1", "https://n.example/c/2", "https://n.example/c/3"}
	ua, err := lite.CompanyIDsByNetworkURL(ctx, urls)
	if err != nil {
		t.Fatal(err)
	}
	ub, err := pg.CompanyIDsByNetworkURL(ctx, urls)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ua, ub) {
		t.Fatalf("ids by url: %v / %v", ua, ub)
	}
	var ids []int64
	for i := int64(0); i < 40; i++ {
		ids = append(ids, i)
	}
	ca, err := lite.CompaniesByID(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := pg.CompaniesByID(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	byID := func(l []*prospector.Company) { sort.Slice(l, func(i, j int) bool { return l[i].ID < l[j].ID }) }
	byID(ca)
	byID(cb)
	same(t, "companies by id", ca, cb)
	for _, id := range companyIDs {
		pa, err := lite.PeopleAtCompany(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		pb, err := pg.PeopleAtCompany(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		same(t, "people at company", pa, pb)
		limit := r.Intn(4)
		sa, err := lite.SignalsByCompanies(ctx, []int64{id}, limit)
		if err != nil {
			t.Fatal(err)
		}
		sb, err := pg.SignalsByCompanies(ctx, []int64{id}, limit)
		if err != nil {
			t.Fatal(err)
		}
		same(t, "signals by company", sa, sb)
		f := prospector.EventFilter{CompanyID: id, Offset: r.Intn(3) - 1, Limit: r.Intn(5) - 1}
		if r.Intn(2) == 0 {
			from := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
			f.From = &from
		}
		if r.Intn(2) == 0 {
			until := time.Date(2026, 2, 2, 1, 0, 0, 123456000, time.UTC)
			f.Until = &until
		}
		na, err := lite.NewsEvents(ctx, f)
		must(err)
		nb, err := pg.NewsEvents(ctx, f)
		must(err)
		same(t, fmt.Sprintf("news %+v", f), na, nb)
		fa, err := lite.FinancingEvents(ctx, f)
		must(err)
		fb, err := pg.FinancingEvents(ctx, f)
		must(err)
		same(t, fmt.Sprintf("financing %+v", f), fa, fb)
	}
}

// An update keeps created_at and moves updated_at; an unchanged row keeps
// both.
func TestUpsertTimestamps(t *testing.T) {
	ctx := context.Background()
	db := openURL(t, freshSchema(t))
	c := &prospector.Company{Name: "A", Domain: "a.example"}
	if _, err := db.UpsertCompanies(ctx, []*prospector.Company{c}); err != nil {
		t.Fatal(err)
	}
	first, err := db.CompanyByDomain(ctx, "a.example")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Millisecond)
	if _, err := db.UpsertCompanies(ctx, []*prospector.Company{{Name: "A", Domain: "a.example"}}); err != nil {
		t.Fatal(err)
	}
	again, err := db.CompanyByDomain(ctx, "a.example")
	if err != nil {
		t.Fatal(err)
	}
	if !again.UpdatedAt.Equal(first.UpdatedAt) {
		t.Fatalf("unchanged row touched: %v, was %v", again.UpdatedAt, first.UpdatedAt)
	}
	time.Sleep(2 * time.Millisecond)
	if _, err := db.UpsertCompanies(ctx, []*prospector.Company{{Name: "B", Domain: "a.example"}}); err != nil {
		t.Fatal(err)
	}
	got, err := db.CompanyByDomain(ctx, "a.example")
	if err != nil {
		t.Fatal(err)
	}
	if !got.CreatedAt.Equal(first.CreatedAt) || !got.UpdatedAt.After(first.UpdatedAt) || got.Name != "B" {
		t.Fatalf("after update: created %v (was %v), updated %v (was %v)", got.CreatedAt, first.CreatedAt,
			got.UpdatedAt, first.UpdatedAt)
	}
	if got.CreatedAt.Location() != time.UTC || got.UpdatedAt.Location() != time.UTC {
		t.Fatalf("times not in UTC: %v", got.CreatedAt)
	}
}

// Importers on several nodes may upsert overlapping people at once: none
// may fail on the unique key, and the ids stay dense.
func TestConcurrentUpsertPeople(t *testing.T) {
	ctx := context.Background()
	url := freshSchema(t)
	nodes := []*postgres.DB{openURL(t, url), openURL(t, url)}
	const people, workers, batch = 2000, 4, 250
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total prospector.UpsertResult
		errs  = make(chan error, workers)
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewSource(int64(w)))
			order := r.Perm(people)
			for start := 0; start < people; start += batch {
				var ps []*prospector.Person
				for _, i := range order[start : start+batch] {
					ps = append(ps, &prospector.Person{ExternalID: fmt.Sprintf("p%d", i), FullName: fmt.Sprintf("P %d", i)})
				}
				res, err := nodes[w%len(nodes)].UpsertPeople(ctx, ps)
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				total.Add(res)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if total != (prospector.UpsertResult{Inserted: people, Unchanged: people * (workers - 1)}) {
		t.Fatalf("totals %+v", total)
	}
	var n, lo, hi int64
	if err := nodes[0].Pool().QueryRow(ctx, `SELECT count(*), min(id), max(id) FROM people`).Scan(&n, &lo, &hi); err != nil {
		t.Fatal(err)
	}
	if n != people || lo != 1 || hi != people {
		t.Fatalf("%d people with ids %d..%d, want %d dense from 1", n, lo, hi, people)
	}
	// Only inserts happened: each took its own seq, so they are dense too.
	if err := nodes[0].Pool().QueryRow(ctx, `SELECT count(DISTINCT seq), min(seq), max(seq) FROM people`).Scan(&n, &lo, &hi); err != nil {
		t.Fatal(err)
	}
	if n != people || lo != 1 || hi != people {
		t.Fatalf("%d distinct seqs %d..%d, want %d dense from 1", n, lo, hi, people)
	}
}

// A follower reading the rows after its last seq, while writers on several
// nodes insert and update companies, must end up having seen every row's
// final write: seqs ascend in commit order, so no write commits behind the
// follower's position.
func TestChangeSequenceFollower(t *testing.T) {
	ctx := context.Background()
	url := freshSchema(t)
	nodes := []*postgres.DB{openURL(t, url), openURL(t, url)}
	const domains, workers, batches, batch = 300, 4, 40, 50
	var (
		wg   sync.WaitGroup
		errs = make(chan error, workers+1)
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewSource(int64(w)))
			for range batches {
				var cs []*prospector.Company
				for range batch {
					cs = append(cs, &prospector.Company{Domain: fmt.Sprintf("c%d.example", r.Intn(domains)),
						Name: fmt.Sprintf("N%d", r.Intn(1000))})
				}
				if _, err := nodes[w%len(nodes)].UpsertCompanies(ctx, cs); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	done := make(chan struct{})
	seen := map[int64]int64{} // id → the latest seq the follower read
	var followed sync.WaitGroup
	followed.Add(1)
	follow := func(last int64) (int64, error) {
		for {
			page, err := nodes[0].CompaniesChangedSince(ctx, last, 37)
			if err != nil {
				return last, err
			}
			for _, c := range page {
				if c.Seq <= last {
					return last, fmt.Errorf("seq %d after %d", c.Seq, last)
				}
				last, seen[c.ID] = c.Seq, c.Seq
			}
			if len(page) < 37 {
				return last, nil
			}
		}
	}
	go func() {
		defer followed.Done()
		var last int64
		var err error
		for {
			select {
			case <-done:
				if _, err = follow(last); err != nil {
					errs <- err
				}
				return
			default:
			}
			if last, err = follow(last); err != nil {
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	close(done)
	followed.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	all := listAll(t, nodes[0].ListCompanies)
	if len(all) == 0 {
		t.Fatal("no companies")
	}
	for _, c := range all {
		if seen[c.ID] != c.Seq {
			t.Fatalf("company %d: final seq %d, the follower last read %d", c.ID, c.Seq, seen[c.ID])
		}
	}
}

package prospector_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/sqlite"
)

// TestCatalog: rows the index has taken in come from it, the others from
// the store, in the order asked, and ids nobody has are left out.
func TestCatalog(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	company := func(name string) *prospector.Company {
		d := name + ".example"
		return &prospector.Company{Name: name, Domain: d, Website: "https://" + d, Industry: "Software Development"}
	}
	indexed, later := company("indexed"), company("later")
	if _, err := st.UpsertCompanies(ctx, []*prospector.Company{indexed}); err != nil {
		t.Fatal(err)
	}
	ip := &prospector.Person{ExternalID: "p1", FullName: "Ida Indexed", CompanyID: &indexed.ID}
	if _, err := st.UpsertPeople(ctx, []*prospector.Person{ip}); err != nil {
		t.Fatal(err)
	}
	at := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
	sig := func(ext string, co *prospector.Company) *prospector.Signal {
		return &prospector.Signal{ExternalID: ext, Type: "company_hiring", CompanyID: &co.ID, Title: ext, DetectedAt: at}
	}
	if _, err := st.UpsertSignals(ctx, []*prospector.Signal{sig("s1", indexed)}); err != nil {
		t.Fatal(err)
	}
	ix := search.New(st)
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	// Written after the index's last sync: only the store has these.
	if _, err := st.UpsertCompanies(ctx, []*prospector.Company{later}); err != nil {
		t.Fatal(err)
	}
	lp := &prospector.Person{ExternalID: "p2", FullName: "Lee Later", CompanyID: &later.ID}
	if _, err := st.UpsertPeople(ctx, []*prospector.Person{lp}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpsertSignals(ctx, []*prospector.Signal{sig("s2", later)}); err != nil {
		t.Fatal(err)
	}
	if got := ix.CompanyCards([]int64{later.ID}); len(got) != 0 {
		t.Fatalf("the index already has the later company: the test proves nothing")
	}
	c := prospector.Catalog{Index: ix, Store: st}
	const gone = 1 << 40
	cos, err := c.CompanyCards(ctx, []int64{later.ID, gone, indexed.ID})
	if err != nil || names(cos) != "[later indexed]" {
		t.Fatalf("companies %s, %v", names(cos), err)
	}
	ps, err := c.PersonCards(ctx, []int64{ip.ID, gone, lp.ID})
	if err != nil || len(ps) != 2 || ps[0].FullName != "Ida Indexed" || ps[1].FullName != "Lee Later" {
		t.Fatalf("people %v, %v", ps, err)
	}
	ids, err := c.CompanyIDsByDomain(ctx, []string{"later.example", "nobody.example", "indexed.example"})
	if err != nil || len(ids) != 2 || ids["later.example"] != later.ID || ids["indexed.example"] != indexed.ID {
		t.Fatalf("domains %v, %v", ids, err)
	}
	sigs, err := c.CompanySignals(ctx, []int64{later.ID, indexed.ID}, 5)
	if err != nil || len(sigs) != 2 || *sigs[0].CompanyID != indexed.ID || *sigs[1].CompanyID != later.ID {
		t.Fatalf("signals %v, %v (want ordered by company id)", sigs, err)
	}
}

func names(cs []*prospector.Company) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return fmt.Sprint(out)
}

package search

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/prospectorhq/prospector"
)

func TestCardArena(t *testing.T) {
	var a recordArena
	n := int64(42)
	first := &prospector.Company{ID: 3, Name: "Acme", Domain: "acme.example", Website: "https://acme.example",
		Industry: "Retail", City: "Zürich", CountryCode: "CH", EmployeeRange: "11-50", EmployeeCount: &n,
		NetworkURL: "https://network.example/company/acme"}
	a.put(3, companyCard(first))
	a.put(7, companyCard(&prospector.Company{ID: 7, Name: "Bare", Domain: "bare.example"}))
	if got := get(a, 3); !reflect.DeepEqual(got, first) {
		t.Fatalf("card 3 = %+v, want %+v", got, first)
	}
	if got := get(a, 7); got.Name != "Bare" || got.EmployeeCount != nil || got.ID != 7 {
		t.Fatalf("card 7 = %+v", got)
	}
	if get(a, 5) != nil || get(a, 0) != nil || get(a, 99) != nil {
		t.Fatal("cards for unknown ids")
	}
	// Many replacements; the latest values win.
	for i := 0; i < 20000; i++ {
		a.put(3, companyCard(&prospector.Company{ID: 3, Name: fmt.Sprintf("Acme %d", i), Domain: "acme.example"}))
	}
	if got := get(a, 3); got.Name != "Acme 19999" {
		t.Fatalf("after updates: %+v", got)
	}
	if got := get(a, 7); got.Name != "Bare" {
		t.Fatalf("card 7 lost: %+v", got)
	}
	if len(a.chunks) != 1 {
		t.Fatalf("20,000 small records took %d chunks", len(a.chunks))
	}
}

func get(a recordArena, id int64) *prospector.Company {
	rec := a.get(id)
	if rec == nil {
		return nil
	}
	c := &prospector.Company{}
	decodeCompanyCard(c, id, rec, new(int64))
	return c
}

func personOf(id int64, card []byte) *prospector.Person {
	p := &prospector.Person{}
	decodePersonCard(p, id, card, new(float64))
	return p
}

func TestPersonCard(t *testing.T) {
	score := 71.5
	p := &prospector.Person{ID: 9, ExternalID: "x1", FullName: "Ada Quill", Title: "VP of Sales", CompanyName: "Acme",
		NetworkURL: "https://network.example/in/ada", City: "Austin", Region: "Texas", CountryCode: "US", Score: &score}
	if got := personOf(9, personCard(p)); !reflect.DeepEqual(got, p) {
		t.Fatalf("person card %+v, want %+v", got, p)
	}
	bare := &prospector.Person{ID: 2, FullName: "B"}
	if got := personOf(2, personCard(bare)); !reflect.DeepEqual(got, bare) {
		t.Fatalf("bare person card %+v", got)
	}
}

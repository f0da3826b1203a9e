package search

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/prospectorhq/prospector"
)

func TestCardArena(t *testing.T) {
	var a cardArena
	n := int64(42)
	first := &prospector.Company{ID: 3, Name: "Acme", Domain: "acme.example", Website: "https://acme.example",
		Industry: "Retail", City: "Zürich", CountryCode: "CH", EmployeeRange: "11-50", EmployeeCount: &n,
		NetworkURL: "https://network.example/company/acme"}
	a.put(3, first)
	a.put(7, &prospector.Company{ID: 7, Name: "Bare", Domain: "bare.example"})
	if got := a.get(3); !reflect.DeepEqual(got, first) {
		t.Fatalf("card 3 = %+v, want %+v", got, first)
	}
	if got := a.get(7); got.Name != "Bare" || got.EmployeeCount != nil || got.ID != 7 {
		t.Fatalf("card 7 = %+v", got)
	}
	if a.get(5) != nil || a.get(0) != nil || a.get(99) != nil {
		t.Fatal("cards for unknown ids")
	}
	// Many replacements trigger compaction; the latest values survive.
	for i := 0; i < 20000; i++ {
		a.put(3, &prospector.Company{ID: 3, Name: fmt.Sprintf("Acme %d", i), Domain: "acme.example"})
	}
	if got := a.get(3); got.Name != "Acme 19999" {
		t.Fatalf("after updates: %+v", got)
	}
	if got := a.get(7); got.Name != "Bare" {
		t.Fatalf("compaction lost card 7: %+v", got)
	}
	if len(a.data) > 1<<21 {
		t.Fatalf("arena never compacted: %d bytes", len(a.data))
	}
}

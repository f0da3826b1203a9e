package search

import (
	"hash/maphash"
	"reflect"
	"testing"

	"github.com/prospectorhq/prospector"
)

// TestStrtabPacksCardsLosslessly: a card packed with shared values and
// URL prefixes unpacks to the very bytes it was made of, shares each
// repeated value once, and keeps a value inline when its hash is taken.
func TestStrtabPacksCardsLosslessly(t *testing.T) {
	tab := newStrtab()
	score := 12.5
	people := []*prospector.Person{
		{ExternalID: "x1", FullName: "Ada Quill", Title: "VP of Sales", CompanyName: "Acme", NetworkURL: "https://network.example/in/ada",
			City: "Austin", Region: "Texas", CountryCode: "US", Score: &score},
		{ExternalID: "x2", FullName: "Bo Quill", Title: "VP of Sales", CompanyName: "Acme", NetworkURL: "https://network.example/in/bo",
			City: "Austin", Region: "Texas", CountryCode: "US"},
		{FullName: "No URL", NetworkURL: "plain", Title: "Ünïcode tïtle"},
		{},
	}
	var packed [][]byte
	for _, p := range people {
		packed = append(packed, tab.pack(personCard(p), 0, personModes))
	}
	for i, p := range people {
		plain := personCard(p)
		got := tab.unpack(nil, packed[i], 0, len(personModes))
		if !reflect.DeepEqual(got, plain) {
			t.Fatalf("person %d: unpacked %q, want %q", i, got, plain)
		}
	}
	if len(packed[1]) >= len(personCard(people[1]))/2 {
		t.Fatalf("a card of repeated values packed to %d bytes from %d", len(packed[1]), len(personCard(people[1])))
	}
	// VP of Sales, Acme, the URL prefix, Austin, Texas, US, Ünïcode tïtle.
	if tab.n != 7 {
		t.Fatalf("%d shared values, want 7", tab.n)
	}

	// Another value already holds this one's hash: it stays inline.
	tab.ids[maphash.Bytes(tab.seed, []byte("Berlin"))] = 1
	p := &prospector.Person{City: "Berlin", Title: "VP of Sales"}
	rec := tab.pack(personCard(p), 0, personModes)
	if got := tab.unpack(nil, rec, 0, len(personModes)); !reflect.DeepEqual(got, personCard(p)) {
		t.Fatalf("colliding value: unpacked %q", got)
	}

	// A company's domain reads straight from its packed card.
	c := tab.pack(companyCard(&prospector.Company{Name: "Acme", Domain: "acme.example", Industry: "Retail"}), 0, companyModes)
	if d := tab.string(c, 0, 1); d != "acme.example" {
		t.Fatalf("domain %q", d)
	}
}

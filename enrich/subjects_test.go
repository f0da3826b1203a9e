package enrich

import (
	"fmt"
	"testing"

	"github.com/prospectorhq/prospector"
)

func TestSubjectCache(t *testing.T) {
	c := newSubjectCache()
	ada := &prospector.Person{FirstName: "Ada", LastName: "Quill", Email: "ada@acme.example", Title: "CEO"}
	c.put("u1", ada, 3)
	if p, ok := c.get("u1", 3); !ok || p.FirstName != "Ada" || p.Email != "ada@acme.example" || p.Title != "" {
		t.Fatalf("get at the version put: %+v %v (want the lookup's fields only)", p, ok)
	}
	if _, ok := c.get("u1", 4); ok {
		t.Fatal("an entry outlived a change of people")
	}
	// A put read under an older version than the cache's is dropped: the
	// person may predate a change the cache already knows of.
	c.put("u2", ada, 4)
	c.put("u3", ada, 3)
	if _, ok := c.get("u3", 3); ok {
		t.Fatal("a stale put was kept")
	}
	if _, ok := c.get("u1", 4); ok {
		t.Fatal("a newer version kept the older entries")
	}
	for i := range maxSubjects {
		c.put(fmt.Sprint("n", i), ada, 4)
	}
	c.put("last", ada, 4)
	if _, ok := c.get("last", 4); !ok || len(c.m) > maxSubjects {
		t.Fatalf("a full cache: %d entries, last kept %v", len(c.m), ok)
	}
}

package prospector_test

import (
	"testing"

	"github.com/prospectorhq/prospector"
)

func TestPlanUpsert(t *testing.T) {
	type item struct {
		key string
		id  int64
	}
	items := []*item{{key: "new"}, {key: "same"}, {key: "changed"}, {key: "new"}, {key: "changed"}, {key: "new"}, {key: "other"}}
	keys := []string{"new", "same", "changed", "new", "changed", "new", "other"}
	hashes := []int64{1, 5, 9, 2, 10, 2, 7}
	stored := map[string]*prospector.StoredRow{"same": {ID: 10, Hash: 5}, "changed": {ID: 11, Hash: 6}}
	if n := prospector.NewKeys(keys, stored); n != 2 {
		t.Fatalf("new keys = %d, want 2", n)
	}
	plan := prospector.PlanUpsert(items, keys, hashes, stored, []int64{20, 21}, func(it *item, id int64) { it.id = id }, 100)
	want := prospector.UpsertResult{Inserted: 2, Updated: 3, Unchanged: 2}
	if plan.Result != want {
		t.Fatalf("result %+v, want %+v", plan.Result, want)
	}
	if len(plan.Inserts) != 2 || plan.Inserts[0].ID != 20 || plan.Inserts[0].Hash != 2 || plan.Inserts[0].Seq != 101 ||
		plan.Inserts[1].ID != 21 || plan.Inserts[1].Seq != 102 {
		t.Fatalf("inserts %+v %+v: the repeated new key ends with its last values", plan.Inserts[0], plan.Inserts[1])
	}
	if len(plan.Updates) != 1 || plan.Updates[0].ID != 11 || plan.Updates[0].Hash != 10 || plan.Updates[0].Seq != 104 {
		t.Fatalf("updates %+v: two changes to one row collapse, keeping the later seq", plan.Updates)
	}
	for i, it := range items {
		if it.id == 0 {
			t.Fatalf("item %d got no id", i)
		}
	}
	if items[0].id != items[3].id || items[2].id != 11 {
		t.Fatalf("ids %v", items)
	}
	unseq := prospector.PlanUpsert(items, keys, hashes, map[string]*prospector.StoredRow{}, []int64{1, 2, 3, 4}, func(*item, int64) {}, -1)
	for _, r := range unseq.Inserts {
		if r.Seq != 0 {
			t.Fatalf("unsequenced table got seq %d", r.Seq)
		}
	}
}

package prospector

// StoredRow is what a store already holds for a natural key.
type StoredRow struct {
	ID   int64
	Hash int64
}

// PlannedRow is one row a batch upsert writes.
type PlannedRow[T any] struct {
	ID   int64
	Hash int64
	Seq  int64 // 0 when the table is not sequenced
	Item T
}

// UpsertPlan is what a batch upsert writes, and what it reports.
type UpsertPlan[T any] struct {
	Inserts []*PlannedRow[T]
	Updates []*PlannedRow[T]
	Result  UpsertResult
}

// PlanUpsert classifies a batch the same way for every engine, so they
// report, number and order identical batches identically.
//
// keys and hashes are the items' natural keys and content hashes; stored
// maps the keys already stored; newIDs holds an id for each distinct new
// key, in order of first appearance; setID tells each item its row id.
// A key repeated in the batch ends with its last values: its first
// occurrence counts as inserted, updated or unchanged, each later one as
// updated when its hash differs from the one before, else unchanged; two
// changes to one stored row are written once, with the last values.
//
// With maxSeq >= 0 the rows get seqs after it: the inserts first, in
// order, then the updates, each change counting (a row changed twice
// keeps the later seq and the earlier one goes unused).
func PlanUpsert[T any](items []T, keys []string, hashes []int64, stored map[string]*StoredRow, newIDs []int64,
	setID func(T, int64), maxSeq int64) UpsertPlan[T] {
	var plan UpsertPlan[T]
	inserted := map[string]*PlannedRow[T]{}
	updated := map[int64]int{} // row id -> index in Updates
	changes := 0
	for i, it := range items {
		key, h := keys[i], hashes[i]
		if row, ok := inserted[key]; ok {
			setID(it, row.ID)
			if row.Hash == h {
				plan.Result.Unchanged++
			} else {
				row.Item, row.Hash = it, h
				plan.Result.Updated++
			}
			continue
		}
		if ex, ok := stored[key]; ok {
			setID(it, ex.ID)
			if ex.Hash == h {
				plan.Result.Unchanged++
				continue
			}
			ex.Hash = h
			changes++
			row := &PlannedRow[T]{ID: ex.ID, Hash: h, Seq: int64(changes), Item: it}
			if j, ok := updated[ex.ID]; ok {
				plan.Updates[j] = row
			} else {
				updated[ex.ID] = len(plan.Updates)
				plan.Updates = append(plan.Updates, row)
			}
			plan.Result.Updated++
			continue
		}
		id := newIDs[len(plan.Inserts)]
		setID(it, id)
		row := &PlannedRow[T]{ID: id, Hash: h, Item: it}
		inserted[key] = row
		plan.Inserts = append(plan.Inserts, row)
		plan.Result.Inserted++
	}
	for i, r := range plan.Inserts {
		r.Seq = 0
		if maxSeq >= 0 {
			r.Seq = maxSeq + int64(i) + 1
		}
	}
	for _, r := range plan.Updates {
		if maxSeq >= 0 {
			r.Seq += maxSeq + int64(len(plan.Inserts))
		} else {
			r.Seq = 0
		}
	}
	return plan
}

// NewKeys counts the distinct keys of a batch that are not stored: how
// many ids PlanUpsert will need.
func NewKeys(keys []string, stored map[string]*StoredRow) int {
	n := 0
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		if _, ok := stored[k]; !ok && !seen[k] {
			seen[k] = true
			n++
		}
	}
	return n
}

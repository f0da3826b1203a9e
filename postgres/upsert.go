package postgres

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// dataLockSpace is the first key of the two-key pg_advisory_xact_lock the
// upserts take; the second is the table's oid. The two-key space is apart
// from the one-key space migrationLock lives in.
const dataLockSpace int32 = 0x70726f73 // "pros"

// upsertSpec describes how one kind of row is upserted by its natural key.
type upsertSpec[T any] struct {
	table     string // its id sequence is <table>_id_seq
	keyColumn string
	// columns are the columns COPY writes, in the order of row's values;
	// the first two are always id and content_hash.
	columns []string
	key     func(T) string
	hash    func(T) (int64, error)
	setID   func(T, int64)
	// row returns the values of columns for the item with that id and hash.
	row func(id, hash int64, item T) []any
	// update is an UPDATE taking one array per column, in the order of
	// columns ($1 the ids, $2 the hashes, ...), that sets every column but
	// the key and created_at of the rows with those ids. A TEXT[] column
	// comes as jsonb[] (each []string encoded as JSON), since unnest would
	// flatten a two-dimensional array.
	update string
}

type pendingRow[T any] struct {
	id   int64
	hash int64
	item T
}

type existingRow struct {
	id   int64
	hash int64
}

// upsert writes items in one transaction: unknown keys are inserted with
// ids from the table's sequence, known keys whose content hash differs
// are updated, the rest are left alone. Ids are dense but for one case:
// sequences are not transactional, so a batch failing after it took its
// ids leaves them unused. A key repeated in the batch ends
// with its last values: its first occurrence counts as inserted, updated
// or unchanged, and each later one as updated when its hash differs from
// the one before it, else unchanged (as the SQLite engine counts).
func upsert[T any](ctx context.Context, db *DB, spec *upsertSpec[T], items []T) (prospector.UpsertResult, error) {
	var res prospector.UpsertResult
	if len(items) == 0 {
		return res, nil
	}
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var err error
		res, err = upsertTx(ctx, tx, spec, items)
		return err
	})
	return res, err
}

func upsertTx[T any](ctx context.Context, tx pgx.Tx, spec *upsertSpec[T], items []T) (prospector.UpsertResult, error) {
	var res prospector.UpsertResult
	// Hash first: an item that cannot be encoded fails the batch before it
	// has taken the lock or any id.
	keys, hashes := make([]string, len(items)), make([]int64, len(items))
	for i, it := range items {
		h, err := spec.hash(it)
		if err != nil {
			return res, err
		}
		keys[i], hashes[i] = spec.key(it), h
	}
	existing, err := lockAndLookup(ctx, tx, spec.table, spec.keyColumn, keys)
	if err != nil {
		return res, err
	}
	newKeys := 0
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		if _, ok := existing[k]; !ok && !seen[k] {
			seen[k] = true
			newKeys++
		}
	}
	ids, err := nextIDs(ctx, tx, spec.table, newKeys)
	if err != nil {
		return res, err
	}

	inserts := make([]*pendingRow[T], 0, newKeys)
	var updates []*pendingRow[T]
	inserted := make(map[string]*pendingRow[T], newKeys)
	updated := map[int64]int{} // id → index in updates: the last values win
	for i, it := range items {
		key, h := keys[i], hashes[i]
		if row, ok := inserted[key]; ok { // repeated in this batch
			spec.setID(it, row.id)
			if row.hash == h {
				res.Unchanged++
			} else {
				row.item, row.hash = it, h
				res.Updated++
			}
			continue
		}
		if ex, ok := existing[key]; ok {
			spec.setID(it, ex.id)
			if ex.hash == h {
				res.Unchanged++
				continue
			}
			ex.hash = h
			row := &pendingRow[T]{id: ex.id, hash: h, item: it}
			if j, ok := updated[ex.id]; ok {
				updates[j] = row
			} else {
				updated[ex.id] = len(updates)
				updates = append(updates, row)
			}
			res.Updated++
			continue
		}
		id := ids[len(inserts)]
		spec.setID(it, id)
		row := &pendingRow[T]{id: id, hash: h, item: it}
		inserted[key] = row
		inserts = append(inserts, row)
		res.Inserted++
	}
	if err := insertRows(ctx, tx, spec, inserts); err != nil {
		return res, err
	}
	if err := updateRows(ctx, tx, spec, updates); err != nil {
		return res, err
	}
	return res, nil
}

// lockAndLookup takes the table's upsert lock, then maps the keys already
// stored to their id and hash; both in one round trip.
//
// The lock is what makes concurrent importers (on one node or several)
// safe. Without it two batches could both find a key missing and both
// insert it: the second would fail on the unique key, aborting its whole
// batch. Holding it until commit also makes ids ascend in commit order,
// so a reader walking a table by id (the search index catching up) never
// sees a lower id appear behind its position. It is transaction-scoped,
// so it is released on commit or rollback, and keyed by the table's oid,
// so stores in other schemas of the same database do not wait for each
// other. Readers take no lock and are never blocked.
func lockAndLookup(ctx context.Context, tx pgx.Tx, table, keyColumn string, keys []string) (map[string]*existingRow, error) {
	b := &pgx.Batch{}
	b.Queue(`SELECT pg_advisory_xact_lock($1, '`+table+`'::regclass::oid::int)`, dataLockSpace)
	b.Queue(`SELECT `+keyColumn+`, id, content_hash FROM `+table+` WHERE `+keyColumn+` = ANY($1)`, keys)
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	if _, err := br.Exec(); err != nil {
		return nil, fmt.Errorf("postgres: lock %s: %w", table, err)
	}
	rows, err := br.Query()
	if err != nil {
		return nil, fmt.Errorf("postgres: %s lookup: %w", table, err)
	}
	out := make(map[string]*existingRow, len(keys))
	var (
		k  string
		ex existingRow
	)
	_, err = pgx.ForEachRow(rows, []any{&k, &ex.id, &ex.hash}, func() error {
		r := ex
		out[k] = &r
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: %s lookup: %w", table, err)
	}
	return out, br.Close()
}

// nextIDs takes n ids from the table's sequence in one round trip.
func nextIDs(ctx context.Context, tx pgx.Tx, table string, n int) ([]int64, error) {
	if n == 0 {
		return nil, nil
	}
	rows, err := tx.Query(ctx, `SELECT nextval('`+table+`_id_seq') FROM generate_series(1, $1)`, n)
	if err != nil {
		return nil, fmt.Errorf("postgres: %s ids: %w", table, err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("postgres: %s ids: %w", table, err)
	}
	if len(ids) != n {
		return nil, fmt.Errorf("postgres: %s ids: got %d, want %d", table, len(ids), n)
	}
	slices.Sort(ids) // they come in call order already; rows are not promised to
	return ids, nil
}

// insertRows writes new rows with COPY.
func insertRows[T any](ctx context.Context, tx pgx.Tx, spec *upsertSpec[T], rows []*pendingRow[T]) error {
	if len(rows) == 0 {
		return nil
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{spec.table}, spec.columns, pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
		r := rows[i]
		return spec.row(r.id, r.hash, r.item), nil
	}))
	if err != nil {
		return fmt.Errorf("postgres: insert %s: %w", spec.table, err)
	}
	return nil
}

// updateRows applies every update of the batch with one statement, each
// column sent as an array.
func updateRows[T any](ctx context.Context, tx pgx.Tx, spec *upsertSpec[T], rows []*pendingRow[T]) error {
	if len(rows) == 0 {
		return nil
	}
	cols := make([][]any, len(spec.columns))
	for i := range cols {
		cols[i] = make([]any, len(rows))
	}
	for j, r := range rows {
		for i, v := range spec.row(r.id, r.hash, r.item) {
			cols[i][j] = v
		}
	}
	args := make([]any, len(cols))
	for i, c := range cols {
		args[i] = c
	}
	if _, err := tx.Exec(ctx, spec.update, args...); err != nil {
		return fmt.Errorf("postgres: update %s: %w", spec.table, err)
	}
	return nil
}

// stringList is l, or an empty list for nil: list columns are NOT NULL.
func stringList(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

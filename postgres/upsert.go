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
	// sequenced means every inserted or updated row gets the next value of
	// the table's seq column, which the search index follows. The seq is
	// not among columns or row's values: COPY writes it last, and update
	// takes it as its last array.
	sequenced bool
	key       func(T) string
	hash      func(T) (int64, error)
	setID     func(T, int64)
	// suppressed reports a row whose subject is on the suppression list:
	// such rows are left out and counted, never written.
	suppressed func(*prospector.SuppressionSet, T) bool
	// row returns the values of columns for the item with that id and
	// hash, or the error of encoding one.
	row func(id, hash int64, item T) ([]any, error)
	// update is an UPDATE taking one array per column, in the order of
	// columns ($1 the ids, $2 the hashes, ...), that sets every column but
	// the key and created_at of the rows with those ids. A TEXT[] column
	// comes as jsonb[] (each []string encoded as JSON), since unnest would
	// flatten a two-dimensional array. When sequenced, one more bigint[]
	// after those of columns carries the rows' seqs.
	update string
}

type pendingRow[T any] = prospector.PlannedRow[T]

// upsert writes items in one transaction: unknown keys are inserted with
// ids from the table's sequence, known keys whose content hash differs
// are updated, the rest are left alone. Ids are dense but for one case:
// sequences are not transactional, so a batch failing after it took its
// ids leaves them unused. A key repeated in the batch ends
// with its last values: its first occurrence counts as inserted, updated
// or unchanged, and each later one as updated when its hash differs from
// the one before it, else unchanged (as the SQLite engine counts).
//
// When the spec is sequenced, the batch's rows take the seqs after the
// table's max(seq), read under the lock: the inserts first, in order, then
// the updates, each change to a key counting (so a key changed twice in
// the batch ends with the later seq and the earlier one goes unused).
// These are the seqs the SQLite engine gives the same batches. Since the
// lock is held to commit, seqs ascend in commit order: a reader following
// seq never sees a lower one appear behind its position.
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
	var suppressed int
	if spec.suppressed != nil {
		// Read under the table's lock (lockAndLookup takes it again: it
		// is re-entrant), which EraseSubject holds too: the statement's
		// snapshot, taken after the lock was granted, sees an erasure that
		// committed while this batch waited, so it cannot write the
		// subject back.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, '`+spec.table+`'::regclass::oid::int)`, dataLockSpace); err != nil {
			return res, fmt.Errorf("postgres: lock %s: %w", spec.table, err)
		}
		set, err := loadSuppressions(ctx, tx)
		if err != nil {
			return res, err
		}
		if items, suppressed = prospector.FilterSuppressed(set, items, spec.suppressed); len(items) == 0 {
			return prospector.UpsertResult{Suppressed: suppressed}, nil
		}
	}
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
	existing, maxSeq, err := lockAndLookup(ctx, tx, spec.table, spec.keyColumn, spec.sequenced, keys)
	if err != nil {
		return res, err
	}
	ids, err := nextIDs(ctx, tx, spec.table, prospector.NewKeys(keys, existing))
	if err != nil {
		return res, err
	}
	if !spec.sequenced {
		maxSeq = -1
	}
	plan := prospector.PlanUpsert(items, keys, hashes, existing, ids, spec.setID, maxSeq)
	res, inserts, updates := plan.Result, plan.Inserts, plan.Updates
	res.Suppressed = suppressed
	if err := insertRows(ctx, tx, spec, inserts); err != nil {
		return res, err
	}
	if err := updateRows(ctx, tx, spec, updates); err != nil {
		return res, err
	}
	return res, nil
}

// lockAndLookup takes the table's upsert lock, then reads the table's
// max(seq) when sequenced (0 otherwise, and for an empty table), then maps
// the keys already stored to their id and hash; all in one round trip.
// The statements of a batch run one after the other, each with a snapshot
// taken when it starts, so the max and the lookup see every batch
// committed before the lock was granted.
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
func lockAndLookup(ctx context.Context, tx pgx.Tx, table, keyColumn string, sequenced bool, keys []string) (map[string]*prospector.StoredRow, int64, error) {
	b := &pgx.Batch{}
	b.Queue(`SELECT pg_advisory_xact_lock($1, '`+table+`'::regclass::oid::int)`, dataLockSpace)
	if sequenced {
		b.Queue(`SELECT coalesce(max(seq), 0) FROM ` + table)
	}
	b.Queue(`SELECT `+keyColumn+`, id, content_hash FROM `+table+` WHERE `+keyColumn+` = ANY($1)`, keys)
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	if _, err := br.Exec(); err != nil {
		return nil, 0, fmt.Errorf("postgres: lock %s: %w", table, err)
	}
	var maxSeq int64
	if sequenced {
		if err := br.QueryRow().Scan(&maxSeq); err != nil {
			return nil, 0, fmt.Errorf("postgres: %s max seq: %w", table, err)
		}
	}
	rows, err := br.Query()
	if err != nil {
		return nil, 0, fmt.Errorf("postgres: %s lookup: %w", table, err)
	}
	out := make(map[string]*prospector.StoredRow, len(keys))
	var (
		k  string
		ex prospector.StoredRow
	)
	_, err = pgx.ForEachRow(rows, []any{&k, &ex.ID, &ex.Hash}, func() error {
		r := ex
		out[k] = &r
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("postgres: %s lookup: %w", table, err)
	}
	return out, maxSeq, br.Close()
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
	columns := spec.columns
	if spec.sequenced {
		columns = append(slices.Clip(columns), "seq")
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{spec.table}, columns, pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
		r := rows[i]
		vals, err := spec.row(r.ID, r.Hash, r.Item)
		if err != nil {
			return nil, err
		}
		if spec.sequenced {
			vals = append(vals, r.Seq)
		}
		return vals, nil
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
		vals, err := spec.row(r.ID, r.Hash, r.Item)
		if err != nil {
			return fmt.Errorf("postgres: update %s: %w", spec.table, err)
		}
		for i, v := range vals {
			cols[i][j] = v
		}
	}
	args := make([]any, len(cols), len(cols)+1)
	for i, c := range cols {
		args[i] = c
	}
	if spec.sequenced {
		seqs := make([]int64, len(rows))
		for j, r := range rows {
			seqs[j] = r.Seq
		}
		args = append(args, seqs)
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

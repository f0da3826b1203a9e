package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/prospectorhq/prospector"
)

// upsertSpec describes how one kind of row is upserted by its natural key.
// values returns the row's columns in the order of columns, starting with
// the key column, or the error of encoding one.
type upsertSpec[T any] struct {
	table   string
	columns []string // without id and content_hash; columns[0] is the natural key
	// hashedKey means the table indexes key_hash (keyHash of the natural
	// key) instead of the key itself.
	hashedKey bool
	// sequenced means every inserted or updated row gets the next value of
	// the table's seq column, which the search index follows.
	sequenced bool
	// parents are the columns referring to other tables, checked by
	// upsertBulk; a spec upserted in bulk must name every one.
	parents []parentRef[T]
	key     func(T) string
	hash    func(T) (int64, error)
	values  func(T) ([]any, error)
	setID   func(T, int64)
	// suppressed reports a row whose subject is on the suppression list:
	// such rows are left out and counted, never written.
	suppressed func(*prospector.SuppressionSet, T) bool
}

type pendingRow[T any] = prospector.PlannedRow[T]

// upsert writes items in tx: unknown keys are inserted with ids taken
// after the table's current maximum (safe: the writer holds the lock),
// known keys whose content hash differs are updated, the rest are left
// alone. A key repeated in the batch ends with its last values.
func upsert[T any](ctx context.Context, tx *sql.Tx, spec upsertSpec[T], items []T) (prospector.UpsertResult, error) {
	if len(items) == 0 {
		return prospector.UpsertResult{}, nil
	}
	items, suppressed, err := filterSuppressed(ctx, tx, spec, items)
	if err != nil || len(items) == 0 {
		return prospector.UpsertResult{Suppressed: suppressed}, err
	}
	res, err := upsertFiltered(ctx, tx, spec, items)
	res.Suppressed = suppressed
	return res, err
}

// filterSuppressed leaves out the items whose subject is suppressed,
// reading the list in tx (the writer's: it sees every committed entry).
func filterSuppressed[T any](ctx context.Context, tx *sql.Tx, spec upsertSpec[T], items []T) ([]T, int, error) {
	if spec.suppressed == nil || len(items) == 0 {
		return items, 0, nil
	}
	set, err := loadSuppressions(ctx, tx)
	if err != nil {
		return nil, 0, err
	}
	kept, n := prospector.FilterSuppressed(set, items, spec.suppressed)
	return kept, n, nil
}

// upsertFiltered is upsert of items already filtered.
func upsertFiltered[T any](ctx context.Context, tx *sql.Tx, spec upsertSpec[T], items []T) (prospector.UpsertResult, error) {
	if len(items) == 0 {
		return prospector.UpsertResult{}, nil
	}
	keys, hashes := make([]string, len(items)), make([]int64, len(items))
	for i, it := range items {
		h, err := spec.hash(it)
		if err != nil {
			return prospector.UpsertResult{}, err
		}
		keys[i], hashes[i] = spec.key(it), h
	}
	existing, err := existingRows(ctx, tx, spec.table, spec.columns[0], spec.hashedKey, keys)
	if err != nil {
		return prospector.UpsertResult{}, err
	}
	var maxID int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM `+spec.table).Scan(&maxID); err != nil {
		return prospector.UpsertResult{}, fmt.Errorf("sqlite: %s max id: %w", spec.table, err)
	}
	ids := make([]int64, prospector.NewKeys(keys, existing))
	for i := range ids {
		ids[i] = maxID + int64(i) + 1
	}
	maxSeq := int64(-1)
	if spec.sequenced {
		// Writers hold the database's write lock, so max(seq)+1 is safe and
		// seq grows in commit order.
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM `+spec.table).Scan(&maxSeq); err != nil {
			return prospector.UpsertResult{}, fmt.Errorf("sqlite: %s max seq: %w", spec.table, err)
		}
	}
	plan := prospector.PlanUpsert(items, keys, hashes, existing, ids, spec.setID, maxSeq)
	if err := insertRows(ctx, tx, spec, plan.Inserts); err != nil {
		return plan.Result, err
	}
	if err := updateRows(ctx, tx, spec, plan.Updates); err != nil {
		return plan.Result, err
	}
	return plan.Result, nil
}

// existingRows maps the keys already stored to their id and hash.
func existingRows(ctx context.Context, tx *sql.Tx, table, keyColumn string, hashed bool, keys []string) (map[string]*prospector.StoredRow, error) {
	out := make(map[string]*prospector.StoredRow, len(keys))
	want := make(map[string]struct{}, len(keys))
	for _, k := range keys {
		want[k] = struct{}{}
	}
	lookup := keyColumn
	if hashed {
		lookup = "key_hash"
	}
	for start := 0; start < len(keys); start += 500 {
		chunk := keys[start:min(start+500, len(keys))]
		args := keyArgs(chunk, hashed)
		rows, err := tx.QueryContext(ctx, `SELECT `+keyColumn+`, id, content_hash FROM `+table+
			` WHERE `+lookup+` IN (`+placeholders(len(chunk))+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("sqlite: %s lookup: %w", table, err)
		}
		for rows.Next() {
			var k string
			r := &prospector.StoredRow{}
			if err := rows.Scan(&k, &r.ID, &r.Hash); err != nil {
				rows.Close()
				return nil, fmt.Errorf("sqlite: %s lookup: %w", table, err)
			}
			if _, asked := want[k]; asked || !hashed {
				out[k] = r
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("sqlite: %s lookup: %w", table, err)
		}
	}
	return out, nil
}

// insertChunk is how many rows one INSERT statement carries: enough to
// amortise the per-statement cost, small enough that the statement is
// prepared once per batch and reused.
const insertChunk = 64

func insertRows[T any](ctx context.Context, tx *sql.Tx, spec upsertSpec[T], rows []*pendingRow[T]) error {
	if len(rows) == 0 {
		return nil
	}
	cols := append([]string{"id", "content_hash"}, spec.columns...)
	if spec.hashedKey {
		cols = append(cols, "key_hash")
	}
	if spec.sequenced {
		cols = append(cols, "seq")
	}
	perRow := len(cols)
	rowPlaceholder := "(" + placeholders(perRow) + ")"
	query := func(n int) string {
		return `INSERT OR ROLLBACK INTO ` + spec.table + ` (` + strings.Join(cols, ", ") + `) VALUES ` +
			strings.TrimSuffix(strings.Repeat(rowPlaceholder+",", n), ",")
	}
	var full *sql.Stmt
	defer func() {
		if full != nil {
			full.Close()
		}
	}()
	args := make([]any, 0, insertChunk*perRow)
	for start := 0; start < len(rows); start += insertChunk {
		chunk := rows[start:min(start+insertChunk, len(rows))]
		args = args[:0]
		for _, r := range chunk {
			vals, err := spec.values(r.Item)
			if err != nil {
				return fmt.Errorf("sqlite: insert %s: %w", spec.table, err)
			}
			args = append(args, r.ID, r.Hash)
			args = append(args, vals...)
			if spec.hashedKey {
				args = append(args, keyHash(spec.key(r.Item)))
			}
			if spec.sequenced {
				args = append(args, r.Seq)
			}
		}
		var err error
		if len(chunk) == insertChunk {
			if full == nil {
				if full, err = tx.PrepareContext(ctx, query(insertChunk)); err != nil {
					return fmt.Errorf("sqlite: insert %s: %w", spec.table, err)
				}
			}
			_, err = full.ExecContext(ctx, args...)
		} else {
			_, err = tx.ExecContext(ctx, query(len(chunk)), args...)
		}
		if err != nil {
			return fmt.Errorf("sqlite: insert %s: %w", spec.table, err)
		}
	}
	return nil
}

func updateRows[T any](ctx context.Context, tx *sql.Tx, spec upsertSpec[T], rows []*pendingRow[T]) error {
	if len(rows) == 0 {
		return nil
	}
	sets := []string{"content_hash = ?"}
	if spec.sequenced {
		sets = append(sets, "seq = ?")
	}
	for _, c := range spec.columns[1:] {
		if c == "created_at" {
			continue // an update keeps the row's creation time
		}
		sets = append(sets, c+" = ?")
	}
	stmt, err := tx.PrepareContext(ctx, `UPDATE `+spec.table+` SET `+strings.Join(sets, ", ")+` WHERE id = ?`)
	if err != nil {
		return fmt.Errorf("sqlite: update %s: %w", spec.table, err)
	}
	defer stmt.Close()
	for _, r := range rows {
		vals, err := spec.values(r.Item)
		if err != nil {
			return fmt.Errorf("sqlite: update %s: %w", spec.table, err)
		}
		args := []any{r.Hash}
		if spec.sequenced {
			args = append(args, r.Seq)
		}
		for i, c := range spec.columns[1:] {
			if c != "created_at" {
				args = append(args, vals[i+1])
			}
		}
		args = append(args, r.ID)
		if _, err := stmt.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("sqlite: update %s: %w", spec.table, err)
		}
	}
	return nil
}

// keyHash is the 32-bit FNV-1a of a natural key, as stored in key_hash.
// 32 bits keep the index entries small (SQLite stores small integers in
// fewer bytes), so more of the index stays cached; the few collisions at
// millions of rows are resolved by comparing the full key.
func keyHash(key string) int64 {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int64(int32(h.Sum32()))
}

// keyArgs turns keys into query arguments, hashed when the table indexes
// key_hash.
func keyArgs(keys []string, hashed bool) []any {
	args := make([]any, len(keys))
	for i, k := range keys {
		if hashed {
			args[i] = keyHash(k)
		} else {
			args[i] = k
		}
	}
	return args
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

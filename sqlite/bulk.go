package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"github.com/prospectorhq/prospector"
)

// Bulk upserts. With foreign keys enforced, SQLite must be able to undo
// a multi-row INSERT half-way (a missing parent aborts the statement), so
// it copies every page the statement touches into a statement journal
// first: a quarter of the writer's time when importing people. The bulk
// path instead checks the parents itself, once per batch, and runs with
// foreign keys off for its transaction; its INSERTs say OR ROLLBACK, so
// no constraint needs a statement journal either (a failure ends the
// transaction, which the caller rolls back anyway).

// errMissingParent is a reference to a row that does not exist.
var errMissingParent = errors.New("refers to a row that does not exist")

// parentRef is a column of the upserted rows that refers to another
// table's id.
type parentRef[T any] struct {
	column, table string
	id            func(T) *int64 // nil: no reference
}

// upsertBulk runs upsert in a write transaction with foreign keys off,
// having checked spec.parents itself. The pragma is a property of the
// writer connection and cannot change inside a transaction, so the
// connection is held from before BEGIN until foreign keys are on again.
func upsertBulk[T any](ctx context.Context, db *DB, spec upsertSpec[T], items []T) (res prospector.UpsertResult, err error) {
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return res, fmt.Errorf("sqlite: writer: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		return res, fmt.Errorf("sqlite: foreign keys off: %w", err)
	}
	defer func() {
		// Never left off for the writer's other work; a failure here
		// is the call's failure.
		if _, ferr := conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA foreign_keys = ON`); ferr != nil && err == nil {
			err = fmt.Errorf("sqlite: foreign keys on: %w", ferr)
		}
	}()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("sqlite: begin: %w", err)
	}
	if err := checkParents(ctx, tx, spec, items); err != nil {
		_ = tx.Rollback()
		return res, err
	}
	if res, err = upsert(ctx, tx, spec, items); err != nil {
		_ = tx.Rollback()
		return res, err
	}
	return res, tx.Commit()
}

// checkParents fails when an item refers to a parent row that does not
// exist, as the foreign key would have.
func checkParents[T any](ctx context.Context, tx *sql.Tx, spec upsertSpec[T], items []T) error {
	for _, ref := range spec.parents {
		seen := map[int64]struct{}{}
		for _, it := range items {
			if id := ref.id(it); id != nil {
				seen[*id] = struct{}{}
			}
		}
		ids := make([]any, 0, len(seen))
		for id := range seen {
			ids = append(ids, id)
		}
		for chunk := range slices.Chunk(ids, 500) {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+ref.table+` WHERE id IN (`+placeholders(len(chunk))+`)`,
				chunk...).Scan(&n); err != nil {
				return fmt.Errorf("sqlite: check %s.%s: %w", spec.table, ref.column, err)
			}
			if n != len(chunk) {
				return fmt.Errorf("sqlite: %s.%s %w in %s", spec.table, ref.column, errMissingParent, ref.table)
			}
		}
	}
	return nil
}

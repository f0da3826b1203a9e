package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

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

// bulk is a prospector.Bulk on the writer connection, which it holds
// from BeginBulk to Close with foreign keys off. The pragma is a property
// of the connection and cannot change inside a transaction, hence the
// held connection. The transaction (and the file's write lock) begins at
// the first upsert after a commit and lasts to the next commit; between
// a commit and the next upsert the lock is free for other processes.
type bulk struct {
	conn *sql.Conn
	tx   *sql.Tx
	// err is the failure that rolled the session back and ended it.
	err error
}

var _ prospector.Bulk = (*bulk)(nil)

// BeginBulk starts a bulk session.
func (db *DB) BeginBulk(ctx context.Context) (prospector.Bulk, error) {
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("sqlite: writer: %w", err)
	}
	// Not cancellable: a cancellation arriving after the pragma ran would
	// report failure and send the connection back to the pool with
	// foreign keys off.
	if _, err := conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA foreign_keys = OFF`); err != nil {
		return nil, errors.Join(fmt.Errorf("sqlite: foreign keys off: %w", err), conn.Close())
	}
	return &bulk{conn: conn}, nil
}

// upsertBulk upserts items in a session of their own: one transaction.
func upsertBulk[T any](ctx context.Context, db *DB, spec upsertSpec[T], items []T) (res prospector.UpsertResult, err error) {
	b, err := db.BeginBulk(ctx)
	if err != nil {
		return res, err
	}
	defer func() { err = errors.Join(err, b.Close()) }()
	if res, err = bulkUpsert(ctx, b.(*bulk), spec, items); err != nil {
		return res, err
	}
	return res, b.Commit(ctx)
}

// bulkUpsert checks spec.parents and upserts items in the session's
// transaction, beginning one if none is open.
func bulkUpsert[T any](ctx context.Context, b *bulk, spec upsertSpec[T], items []T) (res prospector.UpsertResult, err error) {
	if b.err != nil {
		return res, b.err
	}
	if len(items) == 0 {
		return res, nil
	}
	if b.tx == nil {
		// database/sql rolls a transaction back when the context it began
		// with ends, and the session's transaction outlives this call:
		// each statement takes ctx instead.
		if b.tx, err = b.conn.BeginTx(context.WithoutCancel(ctx), nil); err != nil {
			return res, fmt.Errorf("sqlite: begin: %w", err)
		}
	}
	// Suppressed rows go first: one of a suppressed company may point at
	// no stored company, which checkParents would refuse.
	var suppressed int
	if items, suppressed, err = filterSuppressed(ctx, b.tx, spec, items); err == nil {
		err = checkParents(ctx, b.tx, spec, items)
	}
	if err == nil {
		res, err = upsertFiltered(ctx, b.tx, spec, items)
		res.Suppressed = suppressed
	}
	if err != nil {
		b.fail(err)
	}
	return res, err
}

// fail rolls the session back and ends it. The rollback's own error is
// not reported: after an OR ROLLBACK failure SQLite has ended the
// transaction already, and the rollback then only says that none is
// active; either way the session is over, and b.err says why.
func (b *bulk) fail(err error) {
	if b.tx != nil {
		_ = b.tx.Rollback()
		b.tx = nil
	}
	b.err = fmt.Errorf("sqlite: bulk session rolled back by an earlier failure: %w", err)
}

func (b *bulk) UpsertCompanies(ctx context.Context, cs []*prospector.Company) (prospector.UpsertResult, error) {
	return bulkUpsert(ctx, b, companySpec(formatTime(time.Now())), cs)
}

func (b *bulk) UpsertPeople(ctx context.Context, ps []*prospector.Person) (prospector.UpsertResult, error) {
	return bulkUpsert(ctx, b, personSpec(formatTime(time.Now())), ps)
}

func (b *bulk) UpsertSignals(ctx context.Context, ss []*prospector.Signal) (prospector.UpsertResult, error) {
	return bulkUpsert(ctx, b, signalSpec(formatTime(time.Now())), ss)
}

func (b *bulk) UpsertNewsEvents(ctx context.Context, es []*prospector.NewsEvent) (prospector.UpsertResult, error) {
	return bulkUpsert(ctx, b, newsSpec(), es)
}

func (b *bulk) UpsertFinancingEvents(ctx context.Context, es []*prospector.FinancingEvent) (prospector.UpsertResult, error) {
	return bulkUpsert(ctx, b, financingSpec(), es)
}

func (b *bulk) Commit(ctx context.Context) error {
	if b.err != nil {
		return b.err
	}
	if b.tx == nil {
		return nil
	}
	err := b.tx.Commit()
	b.tx = nil
	if err != nil {
		b.err = fmt.Errorf("sqlite: bulk commit failed: %w", err)
		return fmt.Errorf("sqlite: commit: %w", err)
	}
	return nil
}

// Close turns foreign keys back on before the writer serves other work;
// a failure there is Close's failure.
func (b *bulk) Close() error {
	if b.conn == nil {
		return nil
	}
	var err error
	if b.tx != nil {
		if rerr := b.tx.Rollback(); rerr != nil {
			err = fmt.Errorf("sqlite: roll back bulk session: %w", rerr)
		}
		b.tx = nil
	}
	if _, ferr := b.conn.ExecContext(context.Background(), `PRAGMA foreign_keys = ON`); ferr != nil {
		err = errors.Join(err, fmt.Errorf("sqlite: foreign keys on: %w", ferr))
	}
	err = errors.Join(err, b.conn.Close())
	b.conn = nil
	if b.err == nil {
		b.err = errors.New("sqlite: bulk session is closed")
	}
	return err
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

package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// bulk is a prospector.Bulk: one transaction from its first upsert to
// Commit, then the next. An upsert locks its table until commit (see
// lockAndLookup), so seqs still ascend in commit order. A session's
// transaction spans tables (a seed writes companies, people, signals and
// events in the order its chunks come), so two sessions taking those
// locks as their batches come could each wait for the other: every
// transaction of a session takes all of them first, in one order.
type bulk struct {
	db *DB
	tx pgx.Tx
	// err is the failure that rolled the session back and ended it.
	err error
}

var _ prospector.Bulk = (*bulk)(nil)

// BeginBulk starts a bulk session.
func (db *DB) BeginBulk(ctx context.Context) (prospector.Bulk, error) {
	return &bulk{db: db}, nil
}

func bulkUpsert[T any](ctx context.Context, b *bulk, spec *upsertSpec[T], items []T) (res prospector.UpsertResult, err error) {
	if b.err != nil {
		return res, b.err
	}
	if len(items) == 0 {
		return res, nil
	}
	if b.tx == nil {
		if b.tx, err = b.db.pool.Begin(ctx); err != nil {
			return res, fmt.Errorf("postgres: begin: %w", err)
		}
		err = lockBulkTables(ctx, b.tx)
	}
	if err == nil {
		res, err = upsertTx(ctx, b.tx, spec, items)
	}
	if err != nil {
		if rerr := b.tx.Rollback(context.WithoutCancel(ctx)); rerr != nil {
			err = errors.Join(err, fmt.Errorf("postgres: rollback: %w", rerr))
		}
		b.tx = nil
		b.err = fmt.Errorf("postgres: bulk session rolled back by an earlier failure: %w", err)
	}
	return res, err
}

// bulkTables are the tables a session writes, in the order it locks them.
var bulkTables = []string{"companies", "people", "signals", "news_events", "financing_events"}

// lockBulkTables takes the upsert lock of every bulk table, in order.
func lockBulkTables(ctx context.Context, tx pgx.Tx) error {
	b := &pgx.Batch{}
	for _, t := range bulkTables {
		b.Queue(`SELECT pg_advisory_xact_lock($1, '`+t+`'::regclass::oid::int)`, dataLockSpace)
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("postgres: lock bulk tables: %w", err)
	}
	return nil
}

func (b *bulk) UpsertCompanies(ctx context.Context, cs []*prospector.Company) (prospector.UpsertResult, error) {
	return bulkUpsert(ctx, b, companySpec(), cs)
}

func (b *bulk) UpsertPeople(ctx context.Context, ps []*prospector.Person) (prospector.UpsertResult, error) {
	return bulkUpsert(ctx, b, personSpec(), ps)
}

func (b *bulk) UpsertSignals(ctx context.Context, ss []*prospector.Signal) (prospector.UpsertResult, error) {
	return bulkUpsert(ctx, b, signalSpec(), ss)
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
	err := b.tx.Commit(ctx)
	b.tx = nil
	if err != nil {
		b.err = fmt.Errorf("postgres: bulk commit failed: %w", err)
		return fmt.Errorf("postgres: commit: %w", err)
	}
	return nil
}

func (b *bulk) Close() error {
	var err error
	if b.tx != nil {
		err = b.tx.Rollback(context.Background())
		b.tx = nil
	}
	if b.err == nil {
		b.err = errors.New("postgres: bulk session is closed")
	}
	return err
}

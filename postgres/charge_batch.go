package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/prospectorhq/prospector"
)

// Charge batches. Every charged enrich/email answer updates its
// workspace's row, which serialises the answers of a workspace: one
// transaction each, each waiting on its predecessor's commit and WAL
// flush, held the database near 900 answers a second at p99 24 ms. The
// batcher sends the plain charges (no idempotency key) waiting at the
// moment as one pipeline and commits them together: two round trips and
// one commit for all of them.
//
// The pipeline opens an explicit transaction and COMMIT follows only
// once every charge was answered, within the earliest deadline of the
// batch's callers. A pipeline that ran as one implicit transaction would
// commit wherever it landed: when the database stalls, its callers' time
// runs out and pgx drops the connection, but the pipeline may already
// sit in the server's socket buffer, and it would charge answers nobody
// got. In an explicit transaction it rolls back when the server finds
// the connection gone.

// maxChargeBatch bounds the charges of one batch.
const maxChargeBatch = 64

// chargeBatchTimeout bounds one batch's round trips and commit when no
// caller has a deadline of its own.
const chargeBatchTimeout = 30 * time.Second

// qBatchedLookup charges a lookup and records it in one statement, or
// does nothing: when the period has ended, the credits do not cover it or
// the workspace is unknown. RecordEmailLookup then takes the full path,
// which tells those apart.
const qBatchedLookup = `WITH spend AS (
	UPDATE workspaces SET credits_used = credits_used + $1
	WHERE id = $2 AND period_end > $3 AND (credits_limit IS NULL OR credits_bypassed OR credits_used + $1 <= credits_limit)
	RETURNING id)
INSERT INTO email_lookups (` + emailLookupColumns + `)
SELECT $4, id, NULL, $5, $6, $7, $8, $1, $9 FROM spend`

var errClosed = errors.New("postgres: database closed")

type chargeWrite struct {
	rec      *prospector.EmailLookup
	now      time.Time
	deadline time.Time // the caller's; zero when it has none
	done     chan chargeOutcome
}

type chargeOutcome struct {
	charged bool // charged and recorded
	err     error
}

// batchedLookup queues rec (with its ID and time set) for the batcher
// and reports whether it was charged and recorded.
func (db *DB) batchedLookup(ctx context.Context, rec *prospector.EmailLookup, now time.Time) (bool, error) {
	w := &chargeWrite{rec: rec, now: now, done: make(chan chargeOutcome, 1)}
	if d, ok := ctx.Deadline(); ok {
		w.deadline = d
	}
	select {
	case db.charges <- w:
	case <-ctx.Done():
		return false, ctx.Err()
	case <-db.closing:
		return false, errClosed
	}
	// Once queued, the batch runs: wait for it. It ends by this caller's
	// deadline (sendCharges), so the answer is known in time.
	o := <-w.done
	return o.charged, o.err
}

// batcher sends the queued charges in batches until the database closes.
func (db *DB) batcher() {
	defer close(db.batcherDone)
	for {
		var batch []*chargeWrite
		select {
		case w := <-db.charges:
			batch = append(batch, w)
		case <-db.closing:
			return
		}
	fill:
		for len(batch) < maxChargeBatch {
			select {
			case w := <-db.charges:
				batch = append(batch, w)
			default:
				break fill
			}
		}
		db.sendCharges(batch)
	}
}

// sendCharges runs the batch in one transaction: BEGIN and the charges
// as one pipeline, then COMMIT. When the server (or the text guard, before
// sending) refuses any statement,
// none is kept, and every charge of the batch reports false, to be
// retried on the full path on its own. When the connection fails or the
// deadline passes before COMMIT is sent, nothing was committed and every
// charge reports the error; when COMMIT itself gets no answer, whether
// the batch was committed is unknown, and every charge reports the error
// rather than risk charging twice. The charges go in workspace order
// (stable within one), so two nodes' batches lock workspace rows in the
// same order and cannot deadlock.
func (db *DB) sendCharges(batch []*chargeWrite) {
	slices.SortStableFunc(batch, func(a, b *chargeWrite) int { return strings.Compare(a.rec.WorkspaceID, b.rec.WorkspaceID) })
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	for _, w := range batch {
		r := w.rec
		b.Queue(qBatchedLookup, r.Credits, r.WorkspaceID, w.now, r.ID, r.RequestHash, r.Email, r.Verified, r.Confidence, r.CreatedAt)
	}
	// The batch runs apart from its callers' contexts (one leaving must not
	// cancel the others), but not past the earliest of their deadlines:
	// the first caller to give up would otherwise not know its outcome.
	deadline := time.Now().Add(chargeBatchTimeout)
	for _, w := range batch {
		if !w.deadline.IsZero() && w.deadline.Before(deadline) {
			deadline = w.deadline
		}
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	ok := make([]bool, len(batch))
	err := db.chargeTx(ctx, b, ok)
	var refused *pgconn.PgError
	for i, w := range batch {
		switch {
		case err == nil:
			w.done <- chargeOutcome{charged: ok[i]}
		case errors.As(err, &refused), errors.Is(err, prospector.ErrInvalidText): // refused before sending
			w.done <- chargeOutcome{}
		default:
			w.done <- chargeOutcome{err: fmt.Errorf("postgres: charge batch: %w", err)}
		}
	}
}

// chargeTx sends b (BEGIN, then one charge per element of ok), records
// which charges were made in ok and commits. A *pgconn.PgError means the
// server refused and nothing was kept.
func (db *DB) chargeTx(ctx context.Context, b *pgx.Batch, ok []bool) error {
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// A connection left inside the transaction is destroyed on release,
	// which rolls it back.
	defer conn.Release()
	err = func() error {
		br := conn.SendBatch(ctx, b)
		defer br.Close()
		if _, err := br.Exec(); err != nil {
			return err
		}
		for i := range ok {
			tag, err := br.Exec()
			if err != nil {
				return err
			}
			ok[i] = tag.RowsAffected() == 1
		}
		return br.Close()
	}()
	if err != nil {
		// Past the deadline the connection is destroyed on release, which
		// rolls the transaction back; a ROLLBACK that fails leaves it to
		// the same release, so its error only joins the first.
		if ctx.Err() == nil {
			if _, rerr := conn.Exec(ctx, `ROLLBACK`); rerr != nil {
				err = errors.Join(err, fmt.Errorf("rollback: %w", rerr))
			}
		}
		return err
	}
	if _, err := conn.Exec(ctx, `COMMIT`); err != nil {
		var refused *pgconn.PgError
		if errors.As(err, &refused) {
			return err
		}
		return fmt.Errorf("commit, outcome unknown: %w", err)
	}
	return nil
}

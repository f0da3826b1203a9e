// Package postgres is the server store: a pgx connection pool against a
// PostgreSQL database shared by every node of a deployment.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prospectorhq/prospector"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationLock is the pg_advisory_xact_lock key that serialises schema
// changes. It is database-wide, so nodes on different schemas of one
// database also wait for each other; migrations are short, so that is
// simpler than deriving a key per schema.
const migrationLock int64 = 0x70726f7370656374 // "prospect"

// PostgreSQL error codes the store maps onto prospector sentinels.
const (
	codeUniqueViolation     = "23505"
	codeForeignKeyViolation = "23503"
)

// DB is the PostgreSQL implementation of prospector.Store.
type DB struct {
	pool guardedPool // every statement goes through its text guard
	// charges feeds the batcher (charge_batch.go) until closing is closed.
	charges     chan *chargeWrite
	closing     chan struct{}
	batcherDone chan struct{}
}

var _ prospector.Store = (*DB)(nil)

// Options tune a store for the process that opens it.
type Options struct {
	// StatementTimeout bounds, on the server, every statement and every
	// idle gap inside a transaction (PostgreSQL's statement_timeout and
	// idle_in_transaction_session_timeout) on the store's connections.
	// serve sets it to its request deadline: a client's deadline cannot
	// reach a server that stopped reading, so without it a statement, or
	// a transaction whose client vanished, could hold its locks until the
	// TCP connection dies. Migrations run without it. Zero keeps the
	// server's settings; so does a URL that names either parameter.
	StatementTimeout time.Duration
}

// Open connects to the database at url (a postgres:// URL or key=value
// DSN) and applies pending migrations. It returns an error, and holds no
// connections, when the database cannot be reached or a migration fails.
func Open(ctx context.Context, url string) (*DB, error) { return OpenWith(ctx, url, Options{}) }

// OpenWith is Open with options.
func OpenWith(ctx context.Context, url string, o Options) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	if o.StatementTimeout > 0 {
		ms := strconv.FormatInt(max(o.StatementTimeout.Milliseconds(), 1), 10)
		params := cfg.ConnConfig.RuntimeParams
		for _, name := range []string{"statement_timeout", "idle_in_transaction_session_timeout"} {
			if _, set := params[name]; !set {
				params[name] = ms
			}
		}
	}
	pgxPool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	pool := guardedPool{pgxPool}
	db := &DB{pool: pool, charges: make(chan *chargeWrite), closing: make(chan struct{}), batcherDone: make(chan struct{})}
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	go db.batcher()
	return db, nil
}

// Pool is the underlying connection pool, for callers that need the
// database directly (operational checks, tests).
func (db *DB) Pool() *pgxpool.Pool { return db.pool.Pool }

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.pool.Ping(ctx); err != nil {
		return fmt.Errorf("postgres: ping: %w", err)
	}
	return nil
}

// Close releases every connection of the pool.
func (db *DB) Close() error {
	select {
	case <-db.closing:
	default:
		close(db.closing)
		<-db.batcherDone
	}
	db.pool.Close()
	return nil
}

// migrate applies each pending migration in its own transaction.
func (db *DB) migrate(ctx context.Context) error {
	migrations, err := prospector.ReadMigrations(mustSub(migrationFiles, "migrations"))
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	for _, m := range migrations {
		err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
			// The lock makes a second node starting at the same time wait
			// here, then see the step as applied, instead of running it
			// twice. It also covers creating schema_migrations, which
			// races too: concurrent CREATE TABLE IF NOT EXISTS can fail.
			// A migration may rebuild a large table: the session's
			// timeouts (Options) are for requests, not for this.
			if _, err := tx.Exec(ctx, `SET LOCAL statement_timeout = 0`); err != nil {
				return fmt.Errorf("timeouts: %w", err)
			}
			if _, err := tx.Exec(ctx, `SET LOCAL idle_in_transaction_session_timeout = 0`); err != nil {
				return fmt.Errorf("timeouts: %w", err)
			}
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
				return fmt.Errorf("lock: %w", err)
			}
			if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
				version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)`); err != nil {
				return fmt.Errorf("create schema_migrations: %w", err)
			}
			var applied bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)`,
				m.Version).Scan(&applied); err != nil {
				return err
			}
			if applied {
				return nil
			}
			// No arguments, so pgx sends the file with the simple protocol,
			// which accepts several statements at once.
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, now())`,
				m.Version, m.Name)
			return err
		})
		if err != nil {
			return fmt.Errorf("postgres: migration %s: %w", m.Name, err)
		}
	}
	return nil
}

// execTx runs one write statement in a transaction of its own. A lone
// statement would commit by itself wherever it lands: if the database or
// the network stalls and the caller's deadline passes, pgx gives up and
// closes the connection, but the statement may already sit in the
// server's socket buffer and commit when the server reads it, a write
// nobody is told about. In a transaction it only reaches COMMIT after its
// answer came back and while ctx lives; otherwise the connection's end
// rolls it back. It costs two round trips more, so request paths that
// write rarely use it; batched and hot writes have their own pipelines.
func (db *DB) execTx(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	var tag pgconn.CommandTag
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var err error
		tag, err = tx.Exec(ctx, sql, args...)
		return err
	})
	return tag, err
}

// isPgError reports whether err is a PostgreSQL error with code; when
// constraint is not empty, the violated constraint must match too.
func isPgError(err error, code, constraint string) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != code {
		return false
	}
	return constraint == "" || pgErr.ConstraintName == constraint
}

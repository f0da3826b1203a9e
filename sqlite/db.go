// Package sqlite is the embedded store: one file, WAL mode, a single
// writer connection beside a pool of readers.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prospectorhq/prospector"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// DB is the SQLite implementation of prospector.Store.
type DB struct {
	path  string
	write *sql.DB // one connection: SQLite has one writer at a time anyway
	read  *sql.DB
	// ckpt copies the WAL back into the database file off the writer's
	// path; see checkpointer.
	ckpt     *sql.DB
	stopCkpt context.CancelFunc
	ckptDone chan struct{}
	stmts    sync.Map // query -> *sql.Stmt on the reader pool
	wstmts   sync.Map // query -> *sql.Stmt on the writer
	// group feeds the committer (see group.go) until closing is closed.
	group     chan *groupWrite
	closing   chan struct{}
	groupDone chan struct{}
	// rewind asks the committer to restart the WAL once it holds
	// rewindAt frames (see restartWAL).
	rewind   chan struct{}
	rewindAt atomic.Int64
}

var _ prospector.Store = (*DB)(nil)

// pageSize is the page size of new database files: 8 KiB pages halve the
// WAL frames, and so the write calls, of bulk loads. Seeding 200k
// companies and 2M people took 107 s with them, 120 s with 4 KiB pages
// (SQLite's default) and 135 s with 16 KiB ones.
const pageSize = 8192

// createFile creates the database file with pageSize pages if it does not
// exist. The page size only takes effect before the file's first page is
// written, and the driver runs the DSN's pragmas in alphabetical order,
// so journal_mode (which writes it) would run before page_size: the new
// file is made on a connection of its own instead.
func createFile(ctx context.Context, path string) (err error) {
	if _, err := os.Stat(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma="+url.QueryEscape(fmt.Sprintf("page_size(%d)", pageSize)))
	if err != nil {
		return fmt.Errorf("sqlite: create database: %w", err)
	}
	defer func() { err = errors.Join(err, db.Close()) }()
	if _, err := db.ExecContext(ctx, `PRAGMA journal_mode = WAL`); err != nil {
		return fmt.Errorf("sqlite: create database: %w", err)
	}
	return nil
}

// Open opens (creating if needed) the database file prospector.db inside
// dir and applies pending migrations, with the default Options.
func Open(ctx context.Context, dir string) (*DB, error) {
	return OpenWith(ctx, dir, Options{})
}

// OpenWith is Open with options; a validation error when they are not
// valid.
func OpenWith(ctx context.Context, dir string, o Options) (*DB, error) {
	sync, err := ParseSynchronous(o.Synchronous)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("sqlite: create data dir: %w", err)
	}
	path := filepath.Join(dir, "prospector.db")
	if err := createFile(ctx, path); err != nil {
		return nil, err
	}
	pragmas := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(" + sync + ")", "foreign_keys(1)",
		"temp_store(MEMORY)"} {
		pragmas.Add("_pragma", p)
	}
	base := "file:" + path + "?" + pragmas.Encode()
	// The writer gets a large page cache for bulk loads and never
	// checkpoints on commit: the checkpointer goroutine does, on its own
	// connection, so copying the WAL back overlaps with the next batch.
	// Only the writer maps the file: each reader connection would map it
	// again, and their resident pages would count once per mapping.
	writeDSN := base + "&_pragma=cache_size(-65536)&_pragma=mmap_size(134217728)&_pragma=wal_autocheckpoint(0)&_txlock=immediate"
	// Readers keep a small page cache: SQLite drops a reader's whole
	// cache when its next transaction finds the database changed, so under
	// a steady trickle of writes (every enrich/email call writes) a larger
	// one is freed page by page over and over and rarely hit: 2 MiB
	// instead of 8 gave enrich/email 12 % more throughput at 2M people.
	// Pages come from the OS's cache either way.
	readDSN := base + "&_pragma=cache_size(-2048)&_pragma=query_only(1)"

	write, err := openGuarded(writeDSN)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open writer: %w", err)
	}
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	db := &DB{path: path, write: write}
	if err := db.migrate(ctx); err != nil {
		return nil, errors.Join(err, write.Close())
	}
	read, err := openGuarded(readDSN)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("sqlite: open readers: %w", err), write.Close())
	}
	read.SetMaxOpenConns(max(4, 2*runtime.GOMAXPROCS(0)))
	read.SetMaxIdleConns(max(4, 2*runtime.GOMAXPROCS(0)))
	db.read = read
	ckpt, err := openGuarded(base + "&_pragma=cache_size(-2048)")
	if err != nil {
		return nil, errors.Join(fmt.Errorf("sqlite: open checkpointer: %w", err), db.Close())
	}
	ckpt.SetMaxOpenConns(1)
	db.ckpt = ckpt
	db.rewind = make(chan struct{}, 1)
	db.rewindAt.Store(rewindFrames)
	cctx, cancel := context.WithCancel(context.Background())
	db.stopCkpt, db.ckptDone = cancel, make(chan struct{})
	go db.checkpointer(cctx)
	if err := db.writeStmts(ctx, qSavepoint, qRollbackTo, qRelease); err != nil {
		return nil, errors.Join(err, db.Close())
	}
	db.group, db.closing, db.groupDone = make(chan *groupWrite), make(chan struct{}), make(chan struct{})
	go db.committer()
	return db, nil
}

// checkpointer runs a passive checkpoint every 250 ms: it never blocks
// the writer or readers, and copies pages back while writes go on. When
// the WAL has grown long it asks the committer to rewind it.
func (db *DB) checkpointer(ctx context.Context) {
	defer close(db.ckptDone)
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			// A failure here (a busy database) is retried on the next tick.
			var busy, frames, done int
			err := db.ckpt.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &done)
			if err == nil && int64(frames) >= db.rewindAt.Load() {
				select {
				case db.rewind <- struct{}{}:
				default:
				}
			}
		}
	}
}

// Path is the database file.
func (db *DB) Path() string { return db.path }

// Ping checks both pools.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.read.PingContext(ctx); err != nil {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	return nil
}

// Close stops the checkpointer, folds the WAL back into the database
// file and closes every pool. It returns every failure, joined.
func (db *DB) Close() error {
	var errs []error
	if db.closing != nil {
		close(db.closing)
		<-db.groupDone
	}
	if db.ckpt != nil {
		db.stopCkpt()
		<-db.ckptDone
		if _, err := db.ckpt.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			errs = append(errs, fmt.Errorf("sqlite: checkpoint: %w", err))
		}
		errs = append(errs, db.ckpt.Close())
	}
	for _, m := range []*sync.Map{&db.stmts, &db.wstmts} {
		m.Range(func(_, s any) bool {
			errs = append(errs, s.(*sql.Stmt).Close())
			return true
		})
	}
	if db.read != nil {
		errs = append(errs, db.read.Close())
	}
	errs = append(errs, db.write.Close())
	return errors.Join(errs...)
}

func (db *DB) migrate(ctx context.Context) error {
	migrations, err := prospector.ReadMigrations(mustSub(migrationFiles, "migrations"))
	if err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	if _, err := db.write.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("sqlite: create schema_migrations: %w", err)
	}
	for _, m := range migrations {
		// BEGIN IMMEDIATE (the writer's txlock) makes a second process wait
		// here instead of applying the same step twice.
		err := db.tx(ctx, func(tx *sql.Tx) error {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, m.Version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
				m.Version, m.Name, formatTime(time.Now()))
			return err
		})
		if err != nil {
			return fmt.Errorf("sqlite: migration %s: %w", m.Name, err)
		}
	}
	return nil
}

// tx runs fn in a write transaction (BEGIN IMMEDIATE), committing when fn
// returns nil; fn's error comes first, joined with the rollback's if
// that failed too. A transaction that already ended (its context was
// cancelled: database/sql rolled it back) has no rollback to report.
func (db *DB) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		if rerr := tx.Rollback(); rerr != nil && !errors.Is(rerr, sql.ErrTxDone) {
			return errors.Join(err, fmt.Errorf("sqlite: rollback: %w", rerr))
		}
		return err
	}
	return tx.Commit()
}

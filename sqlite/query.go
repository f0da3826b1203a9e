package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
)

// queryList runs a query whose rows scan with scan.
func queryList[T any](ctx context.Context, q *sql.DB, query string, scan func(rowScanner) (T, error), args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	return collect(rows, err, scan)
}

// collect scans every row of a query's result.
func collect[T any](rows *sql.Rows, err error, scan func(rowScanner) (T, error)) ([]T, error) {
	if err != nil {
		return nil, fmt.Errorf("sqlite: query: %w", err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: query: %w", err)
	}
	return out, nil
}

// idBuckets are the IN-list sizes of by-id fetches: a list is padded
// with 0 (never a row id) to the next bucket so a handful of prepared
// statements serve every page size instead of one prepare per request.
var idBuckets = []int{8, 32, 128, 512}

// bucketFor is the IN-list size for n remaining values: the smallest
// bucket holding them all, else the largest.
func bucketFor(n int) int {
	for _, b := range idBuckets {
		if b >= n {
			return b
		}
	}
	return idBuckets[len(idBuckets)-1]
}

// queryByIDs fetches rows of table by id.
func queryByIDs[T any](ctx context.Context, db *DB, table, columns string, ids []int64, scan func(rowScanner) (T, error)) ([]T, error) {
	out := make([]T, 0, len(ids))
	for start := 0; start < len(ids); {
		bucket := bucketFor(len(ids) - start)
		chunk := ids[start:min(start+bucket, len(ids))]
		start += len(chunk)
		args := make([]any, bucket)
		for i := range args {
			args[i] = int64(0)
		}
		for i, id := range chunk {
			args[i] = id
		}
		stmt, err := db.stmt(ctx, `SELECT `+columns+` FROM `+table+` WHERE id IN (`+placeholders(bucket)+`)`)
		if err != nil {
			return nil, err
		}
		rows, err := stmt.QueryContext(ctx, args...)
		if err != nil {
			return nil, fmt.Errorf("sqlite: %s by id: %w", table, err)
		}
		for rows.Next() {
			v, err := scan(rows)
			if err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, v)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("sqlite: %s by id: %w", table, err)
		}
	}
	return out, nil
}

// stmt returns a prepared statement of the reader pool, preparing it on
// first use.
func (db *DB) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if s, ok := db.stmts.Load(query); ok {
		return s.(*sql.Stmt), nil
	}
	s, err := db.read.PrepareContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("sqlite: prepare: %w", err)
	}
	if prev, loaded := db.stmts.LoadOrStore(query, s); loaded {
		s.Close()
		return prev.(*sql.Stmt), nil
	}
	return s, nil
}

// row runs a one-row read through a prepared statement: parsing SQL
// costs more than running a point lookup.
func (db *DB) row(ctx context.Context, query string, args ...any) rowScanner {
	s, err := db.stmt(ctx, query)
	if err != nil {
		return errRow{err}
	}
	return s.QueryRowContext(uncancelled(ctx), args...)
}

// uncancelled drops ctx's cancellation for a point read. Given a context
// that can be cancelled, database/sql and the driver each start a
// goroutine per statement to watch it, which costs more than the
// lookup, and interrupting a read that takes microseconds saves nothing.
func uncancelled(ctx context.Context) context.Context {
	if ctx.Err() != nil {
		return ctx // already over: let the call fail fast
	}
	return context.WithoutCancel(ctx)
}

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

// queryPrepared is queryList through a prepared statement, for the
// fixed queries of request paths. Their LIMIT and OFFSET are written
// "(? + 0)": SQLite re-prepares a statement whenever a new value is bound
// to a bare LIMIT parameter (the planner may use it), which costs a third
// of a point query; an expression it cannot fold keeps the plan.
func queryPrepared[T any](ctx context.Context, db *DB, query string, scan func(rowScanner) (T, error), args ...any) ([]T, error) {
	s, err := db.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := s.QueryContext(ctx, args...)
	return collect(rows, err, scan)
}

// writeStmts prepares queries on the writer connection, once. It must be
// called outside a transaction: the writer has one connection, which a
// transaction holds. Inside, txStmt binds them to the transaction.
func (db *DB) writeStmts(ctx context.Context, queries ...string) error {
	for _, q := range queries {
		if _, ok := db.wstmts.Load(q); ok {
			continue
		}
		s, err := db.write.PrepareContext(ctx, q)
		if err != nil {
			return fmt.Errorf("sqlite: prepare: %w", err)
		}
		if _, loaded := db.wstmts.LoadOrStore(q, s); loaded {
			s.Close()
		}
	}
	return nil
}

// txStmts runs a write transaction's statements through the writer's
// prepared ones (writeStmts), binding each to the transaction the first
// time it is used: a transaction that writes little (a radar batch that
// matched nothing moves one cursor) binds little. A statement that cannot
// be bound fails the call that uses it.
type txStmts struct {
	db *DB
	tx *sql.Tx
	// bound holds the handles so far; a write uses a dozen statements at
	// most, and their queries are the same constants, so a scan compares
	// pointers.
	bound []boundStmt
	fixed [16]boundStmt
}

type boundStmt struct {
	query string
	stmt  *sql.Stmt
}

func newTxStmts(db *DB, tx *sql.Tx) *txStmts {
	t := &txStmts{db: db, tx: tx}
	t.bound = t.fixed[:0]
	return t
}

// stmt returns the transaction's handle on query's statement.
func (t *txStmts) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	for _, b := range t.bound {
		if b.query == query {
			return b.stmt, nil
		}
	}
	s, err := txStmt(ctx, t.db, t.tx, query)
	if err != nil {
		return nil, err
	}
	t.bound = append(t.bound, boundStmt{query, s})
	return s, nil
}

// exec runs query's statement.
func (t *txStmts) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	s, err := t.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.ExecContext(ctx, args...)
}

// queryRow runs query's statement for one row; the row's Scan reports a
// statement that could not be bound.
func (t *txStmts) queryRow(ctx context.Context, query string, args ...any) txRow {
	s, err := t.stmt(ctx, query)
	if err != nil {
		return txRow{err: err}
	}
	return txRow{row: s.QueryRowContext(ctx, args...)}
}

// txRow is a row of a txStmts statement, or the error of binding it. A
// concrete type rather than rowScanner: through an interface every
// scan target would escape to the heap.
type txRow struct {
	row *sql.Row
	err error
}

func (r txRow) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	return r.row.Scan(dest...)
}

// rowsAffected returns the rows an Exec changed, or its error, or the
// error of counting them.
func rowsAffected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// txStmt returns tx's handle on a statement writeStmts prepared, reusing
// the connection's prepared statement; an unprepared query is prepared
// on the transaction.
func txStmt(ctx context.Context, db *DB, tx *sql.Tx, query string) (*sql.Stmt, error) {
	if s, ok := db.wstmts.Load(query); ok {
		return tx.StmtContext(ctx, s.(*sql.Stmt)), nil
	}
	s, err := tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("sqlite: prepare: %w", err)
	}
	return s, nil
}

func (db *DB) count(ctx context.Context, table string) (int64, error) {
	var n int64
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM `+table).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: count %s: %w", table, err)
	}
	return n, nil
}

// idsByKey maps the stored values of a key column to their row ids.
func (db *DB) idsByKey(ctx context.Context, table, column string, keys []string) (map[string]int64, error) {
	out := make(map[string]int64, len(keys))
	for start := 0; start < len(keys); {
		// Lists are padded with NULL (equal to nothing) to a bucket size,
		// so a few prepared statements serve every batch.
		bucket := bucketFor(len(keys) - start)
		chunk := keys[start:min(start+bucket, len(keys))]
		start += len(chunk)
		args := make([]any, bucket)
		for i, k := range chunk {
			args[i] = k
		}
		stmt, err := db.stmt(ctx, `SELECT `+column+`, min(id) FROM `+table+` WHERE `+column+
			` IN (`+placeholders(bucket)+`) GROUP BY `+column)
		if err != nil {
			return nil, err
		}
		rows, err := stmt.QueryContext(ctx, args...)
		if err != nil {
			return nil, fmt.Errorf("sqlite: %s ids: %w", table, err)
		}
		for rows.Next() {
			var k string
			var id int64
			if err := rows.Scan(&k, &id); err != nil {
				rows.Close()
				return nil, fmt.Errorf("sqlite: %s ids: %w", table, err)
			}
			out[k] = id
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("sqlite: %s ids: %w", table, err)
		}
	}
	return out, nil
}

// jsonList encodes a string list, [] for nil. encoding/json cannot fail
// on a []string (it writes any bytes of a string, replacing invalid
// UTF-8), so the error it declares is the one left unchecked here.
func jsonList(l []string) string {
	if len(l) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(l)
	return string(b)
}

func nullFloat(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func float64Ptr(n sql.NullFloat64) *float64 {
	if !n.Valid {
		return nil
	}
	v := n.Float64
	return &v
}

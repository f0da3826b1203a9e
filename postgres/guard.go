package postgres

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prospectorhq/prospector"
)

// guardedPool is the pool every statement of the store goes through. It
// refuses, before anything is sent, an argument holding text PostgreSQL
// would reject with a raw error (invalid UTF-8, a NUL byte, the JSON
// escape \u0000 in jsonb), with an error wrapping
// prospector.ErrInvalidText, as SQLite's guard does: both engines answer
// the same typed validation error. Transactions begun from it, their
// batches and COPYs are guarded alike. pgx gives no hook for this: it
// sends a string parameter as is, without any codec seeing it. (Acquire
// hands out a bare connection: the store does not use it.)
type guardedPool struct{ *pgxpool.Pool }

func (p guardedPool) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if err := checkArgs(args); err != nil {
		return pgconn.CommandTag{}, err
	}
	return p.Pool.Exec(ctx, sql, args...)
}

func (p guardedPool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if err := checkArgs(args); err != nil {
		return nil, err
	}
	return p.Pool.Query(ctx, sql, args...)
}

func (p guardedPool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if err := checkArgs(args); err != nil {
		return errRow{err}
	}
	return p.Pool.QueryRow(ctx, sql, args...)
}

func (p guardedPool) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if err := checkBatch(b); err != nil {
		return errBatch{err}
	}
	return p.Pool.SendBatch(ctx, b)
}

func (p guardedPool) Begin(ctx context.Context) (pgx.Tx, error) {
	tx, err := p.Pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return guardedTx{tx}, nil
}

func (p guardedPool) BeginTx(ctx context.Context, opts pgx.TxOptions) (pgx.Tx, error) {
	tx, err := p.Pool.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return guardedTx{tx}, nil
}

// guardedTx is a transaction of guardedPool.
type guardedTx struct{ pgx.Tx }

func (t guardedTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if err := checkArgs(args); err != nil {
		return pgconn.CommandTag{}, err
	}
	return t.Tx.Exec(ctx, sql, args...)
}

func (t guardedTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if err := checkArgs(args); err != nil {
		return nil, err
	}
	return t.Tx.Query(ctx, sql, args...)
}

func (t guardedTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if err := checkArgs(args); err != nil {
		return errRow{err}
	}
	return t.Tx.QueryRow(ctx, sql, args...)
}

func (t guardedTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if err := checkBatch(b); err != nil {
		return errBatch{err}
	}
	return t.Tx.SendBatch(ctx, b)
}

func (t guardedTx) CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, src pgx.CopyFromSource) (int64, error) {
	g := &guardedSource{CopyFromSource: src}
	n, err := t.Tx.CopyFrom(ctx, table, columns, g)
	if g.err != nil { // the server's answer to the aborted COPY only quotes it
		return n, g.err
	}
	return n, err
}

func (t guardedTx) Begin(ctx context.Context) (pgx.Tx, error) {
	tx, err := t.Tx.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return guardedTx{tx}, nil
}

// guardedSource checks each row a COPY reads; an error ends the COPY.
type guardedSource struct {
	pgx.CopyFromSource
	err error
}

func (s *guardedSource) Values() ([]any, error) {
	vs, err := s.CopyFromSource.Values()
	if err == nil {
		err = checkArgs(vs)
		s.err = err
	}
	return vs, err
}

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

type errBatch struct{ err error }

func (b errBatch) Exec() (pgconn.CommandTag, error) { return pgconn.CommandTag{}, b.err }
func (b errBatch) Query() (pgx.Rows, error)         { return nil, b.err }
func (b errBatch) QueryRow() pgx.Row                { return errRow(b) }
func (b errBatch) Close() error                     { return b.err }

func checkBatch(b *pgx.Batch) error {
	for _, q := range b.QueuedQueries {
		if err := checkArgs(q.Arguments); err != nil {
			return err
		}
	}
	return nil
}

// checkArgs returns an error wrapping prospector.ErrInvalidText when a
// string anywhere in args (inside pointers, slices, maps and structs, as
// pgx would encode them) is not prospector.ValidText. Byte slices are
// bytea and may hold anything.
func checkArgs(args []any) error {
	for i, a := range args {
		if !validArg(a) {
			return fmt.Errorf("postgres: argument %d: %w", i+1, prospector.ErrInvalidText)
		}
	}
	return nil
}

// validArg has fast paths for what the store passes most; the rest is
// walked by reflection.
func validArg(a any) bool {
	switch v := a.(type) {
	case nil, bool, int, int32, int64, float64, time.Time, *time.Time, *int64, *float64, []byte,
		[]int64, []float64, []*float64, []time.Time, []*time.Time, []bool:
		return true
	case string:
		return prospector.ValidText(v)
	case *string:
		return v == nil || prospector.ValidText(*v)
	case []string:
		for _, s := range v {
			if !prospector.ValidText(s) {
				return false
			}
		}
		return true
	}
	return validValue(reflect.ValueOf(a), 0)
}

func validValue(v reflect.Value, depth int) bool {
	if depth > 16 {
		return true // deeper than anything the store builds
	}
	switch v.Kind() {
	case reflect.String:
		return prospector.ValidText(v.String())
	case reflect.Pointer, reflect.Interface:
		return v.IsNil() || validValue(v.Elem(), depth+1)
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return true
		}
		for i := 0; i < v.Len(); i++ {
			if !validValue(v.Index(i), depth+1) {
				return false
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if !validValue(it.Key(), depth+1) || !validValue(it.Value(), depth+1) {
				return false
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && !validValue(v.Field(i), depth+1) {
				return false
			}
		}
	}
	return true
}

func (b errBatch) Tx() pgx.Tx { return nil }

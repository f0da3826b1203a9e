package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// A feed is what a search index reads to build and catch up: the rows
// written after a seq, the fields it keeps only. The text fields come
// packed into one value separated by NUL, which no stored text holds
// (every string argument passes prospector.ValidText, see guard.go): the
// driver's cost is per column (a type check, a copy, a string and its
// interface for each), and reading people column by column was a third
// of a 10M-person cold build's CPU.

// feedScan reads the current row's numeric columns and its packed text
// into v; it reports whether the text unpacked into the expected fields.
type feedScan[T any] func(rows *sql.Rows, v *T, text *string, fields []string) (bool, error)

// readFeed runs query (seq, limit) and scans each row into one shared
// allocation per 1,024 rows. Rows whose text held a NUL of its own
// (written before the store refused them) are read again with byID,
// column by column, keeping the seq read first so the caller's position
// moves on as the rows said.
func readFeed[T any](ctx context.Context, db *DB, what, query string, seq int64, limit, nfields int,
	scan feedScan[T], byID func(context.Context, []int64) ([]*T, error), idSeq func(*T) (id int64, seq *int64)) ([]*T, error) {
	rows, err := db.read.QueryContext(ctx, query, seq, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: %s changed since %d: %w", what, seq, err)
	}
	defer rows.Close()
	chunk := min(max(limit, 1), 1024)
	var (
		out    []*T
		slab   []T
		reread []int // positions in out
		text   string
		fields = make([]string, nfields)
	)
	for rows.Next() {
		if len(slab) == cap(slab) {
			slab = make([]T, 0, chunk)
		}
		slab = slab[:len(slab)+1]
		v := &slab[len(slab)-1]
		ok, err := scan(rows, v, &text, fields)
		if err != nil {
			return nil, fmt.Errorf("sqlite: scan %s: %w", what, err)
		}
		if !ok {
			reread = append(reread, len(out))
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: %s changed since %d: %w", what, seq, err)
	}
	rows.Close()
	if len(reread) == 0 {
		return out, nil
	}
	ids := make([]int64, len(reread))
	for i, at := range reread {
		ids[i], _ = idSeq(out[at])
	}
	full, err := byID(ctx, ids)
	if err != nil {
		return nil, err
	}
	byKey := make(map[int64]*T, len(full))
	for _, v := range full {
		id, _ := idSeq(v)
		byKey[id] = v
	}
	for _, at := range reread {
		id, seq := idSeq(out[at])
		if v := byKey[id]; v != nil {
			_, s := idSeq(v)
			*s = *seq
			out[at] = v
		}
	}
	return out, nil
}

// unpackFields splits text at NUL into fields, reporting whether it held
// exactly len(fields) of them.
func unpackFields(text string, fields []string) bool {
	for i := range fields {
		j := strings.IndexByte(text, 0)
		if i == len(fields)-1 {
			fields[i] = text
			return j < 0
		}
		if j < 0 {
			clear(fields[i:])
			return false
		}
		fields[i], text = text[:j], text[j+1:]
	}
	return true
}

package sqlite

import (
	"database/sql"
	"io/fs"
	"strings"
	"time"
)

// timeLayout is fixed-width UTC so that stored times compare as text.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func formatTimePtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return formatTime(*t)
}

// parseTime reads a time formatTime wrote. Every time this store keeps
// is written by formatTime (no column has an SQL default time), so the
// parse error it leaves unchecked cannot occur on the store's own data.
func parseTime(s string) time.Time {
	t, _ := time.Parse(timeLayout, s)
	return t
}

func parseTimePtr(s sql.NullString) *time.Time {
	if !s.Valid {
		return nil
	}
	t := parseTime(s.String)
	return &t
}

func int64Ptr(n sql.NullInt64) *int64 {
	if !n.Valid {
		return nil
	}
	v := n.Int64
	return &v
}

func nullInt(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func mustSub(fsys fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err) // the embed pattern guarantees dir exists
	}
	return sub
}

func isForeignKeyError(err error) bool {
	return err != nil && strings.Contains(err.Error(), "FOREIGN KEY constraint failed")
}

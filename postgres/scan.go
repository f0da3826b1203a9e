package postgres

import (
	"io/fs"
	"time"
)

// nowUTC is the store's clock: UTC and cut to microseconds, the precision of
// TIMESTAMPTZ, so a time handed back to the caller equals the stored one.
func nowUTC() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// utcPtr puts a scanned time in UTC; pgx returns TIMESTAMPTZ in time.Local.
func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func mustSub(fsys fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err) // the embed pattern guarantees dir exists
	}
	return sub
}

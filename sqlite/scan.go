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
	if t, ok := parseTimeFast(s); ok {
		return t
	}
	t, _ := time.Parse(timeLayout, s)
	return t
}

// parseTimeFast reads timeLayout by hand, four times faster than
// time.Parse (which was a tenth of the CPU of reading people for a cold
// index build); anything it does not recognise as a valid time in that
// layout (days past the 28th included) is left to time.Parse.
func parseTimeFast(s string) (time.Time, bool) {
	if len(s) != len(timeLayout) || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' ||
		s[19] != '.' || s[29] != 'Z' {
		return time.Time{}, false
	}
	num := func(from, to int) (int, bool) {
		n := 0
		for i := from; i < to; i++ {
			if s[i] < '0' || s[i] > '9' {
				return 0, false
			}
			n = n*10 + int(s[i]-'0')
		}
		return n, true
	}
	y, ok1 := num(0, 4)
	mo, ok2 := num(5, 7)
	d, ok3 := num(8, 10)
	h, ok4 := num(11, 13)
	mi, ok5 := num(14, 16)
	sec, ok6 := num(17, 19)
	ns, ok7 := num(20, 29)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || !ok7 || mo < 1 || mo > 12 || d < 1 || d > 28 || h > 23 || mi > 59 || sec > 59 {
		return time.Time{}, false
	}
	return time.Date(y, time.Month(mo), d, h, mi, sec, ns, time.UTC), true
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

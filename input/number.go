package input

import (
	"strconv"
	"time"
)

// MaxPage bounds page parameters so page*per_page stays a sane offset.
const MaxPage = 10000

// Bounded reads an optional integer field with inclusive bounds; def
// when it is absent.
func Bounded(field string, v *int, lo, hi, def int) (int, error) {
	if v == nil {
		return def, nil
	}
	if *v < lo || *v > hi {
		return 0, Errorf(field, "must be between %d and %d", lo, hi)
	}
	return *v, nil
}

// MaxResults applies the contract's 1..100 bound of max_results,
// default 100.
func MaxResults(v *int) (int, error) {
	if v == nil {
		return 100, nil
	}
	if *v < 1 || *v > 100 {
		return 0, Errorf("max_results", "must be between 1 and 100")
	}
	return *v, nil
}

// Int reads an optional integer given as text (a query parameter) with
// inclusive bounds; def when v is "".
func Int(field, v string, lo, hi, def int) (int, error) {
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, Errorf(field, "must be an integer between %d and %d", lo, hi)
	}
	return Bounded(field, &n, lo, hi, def)
}

// Time reads an optional time bound: an RFC 3339 timestamp, or a day
// (YYYY-MM-DD, UTC) meaning its first instant, or its last when
// endOfDay, so that an upper bound of a day includes the whole day. nil
// when v is "".
func Time(field, v string, endOfDay bool) (*time.Time, error) {
	if v == "" {
		return nil, nil
	}
	if d, err := time.Parse(time.DateOnly, v); err == nil {
		if endOfDay {
			d = d.Add(24*time.Hour - time.Nanosecond)
		}
		return &d, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return nil, Errorf(field, "%q is not a date (YYYY-MM-DD) or an RFC 3339 timestamp (2026-01-31T09:30:00Z; encode + as %%2B)", v)
	}
	t = t.UTC()
	return &t, nil
}

package taxonomy

import (
	"math"
	"strings"
)

// employeeBuckets are the bounds of EmployeeRanges, in the same order.
var employeeBuckets = [...]struct {
	label    string
	min, max int64
}{
	{"1-10", 1, 10},
	{"11-50", 11, 50},
	{"51-200", 51, 200},
	{"201-500", 201, 500},
	{"501-1000", 501, 1000},
	{"1001-5000", 1001, 5000},
	{"5001-10000", 5001, 10000},
	{"10001+", 10001, math.MaxInt64},
}

// ValidEmployeeRange reports whether s is exactly one of EmployeeRanges.
func ValidEmployeeRange(s string) bool {
	_, _, ok := EmployeeRangeBounds(s)
	return ok
}

// EmployeeRangeOf returns the bucket a headcount falls in, or "" for a
// headcount of zero or less.
func EmployeeRangeOf(headcount int64) string {
	for _, b := range employeeBuckets {
		if headcount >= b.min && headcount <= b.max {
			return b.label
		}
	}
	return ""
}

// EmployeeRangeBounds returns the inclusive bounds of a bucket; the open
// top bucket "10001+" ends at math.MaxInt64. It returns ok false when r is
// not exactly one of EmployeeRanges.
func EmployeeRangeBounds(r string) (min, max int64, ok bool) {
	for _, b := range employeeBuckets {
		if r == b.label {
			return b.min, b.max, true
		}
	}
	return 0, 0, false
}

// NormalizeEmployeeRange returns the bucket a vendor's size label means. It
// accepts the buckets themselves written the usual ways: spaces, en or em
// dashes or "to" between the bounds, thousands commas and an "employees"
// suffix ("11 - 50", "10,001+ employees", "51 to 200"); "10,000+" for the
// top bucket; and the network's own small buckets "0-1", "2-10", "Myself
// Only" and "Self-employed", which all sit inside "1-10". Any other range
// ("12-34", "1-50"), a bare headcount, or anything else gives ("", false):
// a headcount goes through EmployeeRangeOf instead.
func NormalizeEmployeeRange(s string) (string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "myself only", "self-employed", "self employed":
		return "1-10", true
	}
	for _, suffix := range [...]string{"employees", "employee"} {
		s = strings.TrimSpace(strings.TrimSuffix(s, suffix))
	}
	for _, r := range [...][2]string{{",", ""}, {" ", ""}, {"\u2013", "-"}, {"\u2014", "-"}, {"to", "-"}} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	switch s {
	case "0-1", "2-10":
		return "1-10", true
	case "10000+":
		return "10001+", true
	}
	if ValidEmployeeRange(s) {
		return s, true
	}
	return "", false
}

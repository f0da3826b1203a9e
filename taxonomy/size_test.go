package taxonomy

import (
	"math"
	"testing"
)

func TestEmployeeRangeOf(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{math.MinInt64, ""}, {-1, ""}, {0, ""},
		{1, "1-10"}, {10, "1-10"}, {11, "11-50"},
		{50, "11-50"}, {51, "51-200"},
		{200, "51-200"}, {201, "201-500"},
		{500, "201-500"}, {501, "501-1000"},
		{1000, "501-1000"}, {1001, "1001-5000"},
		{5000, "1001-5000"}, {5001, "5001-10000"},
		{10000, "5001-10000"}, {10001, "10001+"},
		{math.MaxInt64, "10001+"},
	}
	for _, tt := range tests {
		if got := EmployeeRangeOf(tt.n); got != tt.want {
			t.Errorf("EmployeeRangeOf(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestEmployeeRangeBounds(t *testing.T) {
	tests := []struct {
		r        string
		min, max int64
	}{
		{"1-10", 1, 10}, {"11-50", 11, 50}, {"51-200", 51, 200}, {"201-500", 201, 500},
		{"501-1000", 501, 1000}, {"1001-5000", 1001, 5000}, {"5001-10000", 5001, 10000},
		{"10001+", 10001, math.MaxInt64},
	}
	if len(tests) != len(EmployeeRanges()) {
		t.Fatal("a bucket is missing from this test")
	}
	for i, tt := range tests {
		if EmployeeRanges()[i] != tt.r {
			t.Errorf("EmployeeRanges()[%d] = %q, want %q", i, EmployeeRanges()[i], tt.r)
		}
		min, max, ok := EmployeeRangeBounds(tt.r)
		if !ok || min != tt.min || max != tt.max {
			t.Errorf("EmployeeRangeBounds(%q) = %d, %d, %v", tt.r, min, max, ok)
		}
		if EmployeeRangeOf(min) != tt.r || EmployeeRangeOf(max) != tt.r {
			t.Errorf("%q: its own bounds fall outside it", tt.r)
		}
		if !ValidEmployeeRange(tt.r) {
			t.Errorf("ValidEmployeeRange(%q) = false", tt.r)
		}
	}
	for _, r := range []string{"", "1-11", "10000+", "10,001+", " 1-10", "11 - 50", "1-10 employees"} {
		if _, _, ok := EmployeeRangeBounds(r); ok {
			t.Errorf("EmployeeRangeBounds(%q) ok", r)
		}
		if ValidEmployeeRange(r) {
			t.Errorf("ValidEmployeeRange(%q) = true", r)
		}
	}
}

func TestNormalizeEmployeeRange(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1-10", "1-10"}, {"11-50", "11-50"}, {"51-200", "51-200"}, {"201-500", "201-500"},
		{"501-1000", "501-1000"}, {"1001-5000", "1001-5000"}, {"5001-10000", "5001-10000"},
		{"10001+", "10001+"},
		{"11 - 50", "11-50"},
		{"11–50", "11-50"},
		{"11—50", "11-50"},
		{"11-50 employees", "11-50"},
		{"1-10 employees", "1-10"},
		{"10,001+", "10001+"},
		{"10001+ employees", "10001+"},
		{"10,001+ employees", "10001+"},
		{"10,000+", "10001+"},
		{"51 to 200", "51-200"},
		{"501-1,000", "501-1000"},
		{"1,001-5,000 employees", "1001-5000"},
		{"5,001-10,000", "5001-10000"},
		{"Myself Only", "1-10"},
		{"self-employed", "1-10"},
		{"2-10", "1-10"},
		{"2-10 employees", "1-10"},
		{"0-1 employees", "1-10"},
		{"  201-500  ", "201-500"},
	}
	for _, tt := range tests {
		if got, ok := NormalizeEmployeeRange(tt.in); !ok || got != tt.want {
			t.Errorf("NormalizeEmployeeRange(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
	for _, in := range []string{"", "small", "1-50", "11-51", "12-34", "1-5", "50", "5000+", "20000+", "10,002+", "0-0", "10-1", "-5-10", "1-10-20", "abc-def", "+"} {
		if got, ok := NormalizeEmployeeRange(in); ok || got != "" {
			t.Errorf("NormalizeEmployeeRange(%q) = %q, %v; want not found", in, got, ok)
		}
	}
}

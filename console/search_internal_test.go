package console

import "testing"

func TestResultsReadsAsWords(t *testing.T) {
	for total, want := range map[int]string{0: "0 results", 1: "1 result", 25: "25 results", 1234: "1,234 results",
		999999: "999,999 results", 2000000: "2,000,000 results"} {
		if got := (&searchData{Total: total}).Results(); got != want {
			t.Errorf("%d results read %q, want %q", total, got, want)
		}
	}
}

package importer_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector/importer"
)

// TestBadTextLinesRejectedByNumber: a line holding a NUL (raw in CSV, as
// \u0000 in JSONL, in a plain member, a list or a nested object) or bytes
// that are not UTF-8 is rejected with its number and the member it is in,
// and every other line lands, on both engines. PostgreSQL used to fail
// the whole import on its raw error, with no line number.
func TestBadTextLinesRejectedByNumber(t *testing.T) {
	jsonl := strings.Join([]string{
		`{"name":"Good One","domain":"good-one.example"}`,
		`{"name":"Bad\u0000Name","domain":"bad-one.example"}`,
		`{"name":"Bad Keywords","domain":"bad-two.example","keywords":["ok","x\u0000y"]}`,
		"{\"name\":\"Bad \xff Bytes\",\"domain\":\"bad-three.example\"}",
		`{"name":"Literal \\u0000 text","domain":"bad-four.example"}`,
		`{"name":"Escaped backslash \\\\u0000","domain":"good-two.example"}`,
		`{"name":"Good Three","domain":"good-three.example","description":"tab\tand ✓"}`,
	}, "\n")
	csv := "name,domain,description\n" +
		"Good One,good-one.example,fine\n" +
		"Bad Name,bad-one.example,has \x00 NUL\n" +
		"Bad Bytes,bad-two.example,caf\xe9\n" +
		"Good Two,good-two.example,\"quoted, fine\"\n"
	for name, open := range engines(t) {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				format, body string
				good         int
				want         []string
			}{
				{"jsonl", jsonl, 3, []string{"2: name: must not contain the NUL character",
					"3: keywords[1]: must not contain the NUL character", "4: not valid UTF-8",
					"5: name: must not contain the NUL character"}},
				{"csv", csv, 2, []string{"3: description: must not contain the NUL character", "4: description: must be valid UTF-8"}},
			} {
				st := open(t)
				stats, errs := importString(t, st, importer.Companies, tc.format, tc.body)
				if stats.Inserted != tc.good || stats.Rejected != len(tc.want) || len(errs) != len(tc.want) {
					t.Fatalf("%s: %+v, errors %v; want %d inserted and %d rejected", tc.format, stats, errs, tc.good, len(tc.want))
				}
				for i, e := range errs {
					if got := fmt.Sprintf("%d: %s", e.line, e.reason); !strings.HasPrefix(got, tc.want[i]) {
						t.Errorf("%s: rejection %q, want %q...", tc.format, got, tc.want[i])
					}
				}
				for _, d := range []string{"good-one.example", "good-two.example"} {
					if _, err := st.CompanyByDomain(context.Background(), d); err != nil {
						t.Errorf("%s: %s did not land: %v", tc.format, d, err)
					}
				}
			}
		})
	}
}

package postgres

import (
	"errors"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// TestCheckArgs: a bad string is found wherever pgx would encode one from
// (pointers, slices, maps, exported struct fields); bytes are bytea.
func TestCheckArgs(t *testing.T) {
	type named string
	type card struct {
		Name string
		tags []string // unexported: pgx does not see it either
	}
	bad := "a\x00b"
	for _, tc := range []struct {
		name string
		args []any
		ok   bool
	}{
		{"plain", []any{int64(1), "text", time.Now(), nil, []int64{1}, []string{"a"}, []byte{0}}, true},
		{"string", []any{1, bad}, false},
		{"pointer", []any{&bad}, false},
		{"list", []any{[]string{"ok", bad}}, false},
		{"named type", []any{named(bad)}, false},
		{"list of named", []any{[]named{"ok", named(bad)}}, false},
		{"escape", []any{`x\u0000`}, false},
		{"invalid UTF-8", []any{"caf\xe9"}, false},
		{"nested any", []any{[]any{1, []any{bad}}}, false},
		{"map value", []any{map[string]any{"k": bad}}, false},
		{"map key", []any{map[string]int{bad: 1}}, false},
		{"struct field", []any{card{Name: bad}}, false},
		{"unexported field", []any{card{Name: "ok", tags: []string{bad}}}, true},
		{"nil pointer", []any{(*string)(nil)}, true},
	} {
		err := checkArgs(tc.args)
		if tc.ok != (err == nil) || (err != nil && !errors.Is(err, prospector.ErrInvalidText)) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

package main

import (
	"context"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector/sqlite"
)

// --sqlite-synchronous and $PROSPECTOR_SQLITE_SYNCHRONOUS reach the
// database: SQLite reads the setting back on the writer and the readers.
func TestSQLiteSynchronousOption(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		flag, env, want string
	}{
		{"", "", sqlite.DefaultSynchronous},
		{"normal", "", "NORMAL"},
		{"full", "", "FULL"},
		{"", "normal", "NORMAL"},
		{"full", "normal", "FULL"}, // the flag wins
	} {
		vars := map[string]string{"PROSPECTOR_DATA": t.TempDir(), "PROSPECTOR_SQLITE_SYNCHRONOUS": c.env}
		e := &env{getenv: func(k string) string { return vars[k] }}
		so := storeOptions{synchronous: c.flag}
		st, err := so.open(ctx, e)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		w, r, err := st.(*sqlite.DB).Synchronous(ctx)
		st.Close()
		if err != nil || w != c.want || r != c.want {
			t.Errorf("flag %q env %q: writer %s, reader %s (%v); want %s", c.flag, c.env, w, r, err, c.want)
		}
		if d := so.describe(e); !strings.Contains(d, "synchronous="+c.want) {
			t.Errorf("describe %q does not name synchronous=%s", d, c.want)
		}
	}
	_, _, err := cli(t, map[string]string{"PROSPECTOR_DATA": t.TempDir()}, "migrate", "--sqlite-synchronous", "off")
	if err == nil || !strings.Contains(err.Error(), "--sqlite-synchronous") {
		t.Fatalf("migrate --sqlite-synchronous off: %v, want the flag refused", err)
	}
}

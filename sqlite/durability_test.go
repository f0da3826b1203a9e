package sqlite_test

import (
	"context"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sqlite"
)

// The synchronous option reaches every connection, as SQLite reads it
// back; the default is DefaultSynchronous, and nothing but normal or full
// is accepted.
func TestSynchronousOption(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ given, want string }{
		{"", sqlite.DefaultSynchronous}, {"normal", "NORMAL"}, {"FULL", "FULL"}, {" Full ", "FULL"},
	} {
		db, err := sqlite.OpenWith(ctx, t.TempDir(), sqlite.Options{Synchronous: c.given})
		if err != nil {
			t.Fatalf("%q: %v", c.given, err)
		}
		w, r, err := db.Synchronous(ctx)
		db.Close()
		if err != nil || w != c.want || r != c.want {
			t.Errorf("synchronous %q: writer %s, reader %s (%v); want %s", c.given, w, r, err, c.want)
		}
	}
	for _, bad := range []string{"off", "extra", "2", "fast"} {
		if _, err := sqlite.OpenWith(ctx, t.TempDir(), sqlite.Options{Synchronous: bad}); prospector.ErrorCode(err) != prospector.EINVALID {
			t.Errorf("synchronous %q: err = %v, want a validation error", bad, err)
		}
	}
}

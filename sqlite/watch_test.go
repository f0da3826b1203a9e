package sqlite_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/storetest"
)

// TestRadarWatchEndsWithRadar: a radar watches its companies while it
// exists; deleting it (no API does yet) deletes its watches with it.
func TestRadarWatchEndsWithRadar(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	radarID := storetest.WatchingRadar(t, db)
	raw, err := sql.Open("sqlite", "file:"+db.Path()+"?_pragma=foreign_keys(1)&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.ExecContext(ctx, `DELETE FROM radars WHERE id = ?`, radarID); err != nil {
		t.Fatal(err)
	}
	storetest.CheckUnwatched(t, db, time.Now())
}

package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/prospectorhq/prospector/storetest"
)

// TestRadarWatchEndsWithRadar: a radar watches its companies while it
// exists; deleting it (no API does yet) deletes its watches with it.
func TestRadarWatchEndsWithRadar(t *testing.T) {
	db := openURL(t, freshSchema(t))
	radarID := storetest.WatchingRadar(t, db)
	if _, err := db.Pool().Exec(context.Background(), `DELETE FROM radars WHERE id = $1`, radarID); err != nil {
		t.Fatal(err)
	}
	storetest.CheckUnwatched(t, db, time.Now())
}

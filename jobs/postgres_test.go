package jobs_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector/postgres"
)

// freshSchema creates an empty schema in TEST_DATABASE_URL's database,
// dropped when the test ends, and returns a URL whose search_path points
// at it. It skips the test when TEST_DATABASE_URL is not set.
func freshSchema(t *testing.T) string {
	t.Helper()
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		t.Skip("TEST_DATABASE_URL not set: skipping PostgreSQL tests")
	}
	b := make([]byte, 6)
	rand.Read(b)
	schema := "t_jobs_" + hex.EncodeToString(b)
	exec := func(sql string) {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Fatalf("connect to TEST_DATABASE_URL: %v", err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	exec("CREATE SCHEMA " + schema)
	t.Cleanup(func() { exec("DROP SCHEMA " + schema + " CASCADE") })
	if !strings.HasPrefix(base, "postgres://") && !strings.HasPrefix(base, "postgresql://") {
		return base + " search_path=" + schema
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("TEST_DATABASE_URL: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func openPostgres(t *testing.T, url string) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Two nodes, each with its own connection pool, share one queue: SKIP
// LOCKED must give every job to exactly one of them.
func TestPostgresTwoNodesRunEachJobOnce(t *testing.T) {
	url := freshSchema(t)
	runTwoRunners(t, openPostgres(t, url), openPostgres(t, url), 100)
}

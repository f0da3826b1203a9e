// Package pgtest gives tests an empty PostgreSQL schema of their own in
// the database TEST_DATABASE_URL names, and skips them when it is unset,
// so `go test ./...` passes on a machine with only Go.
package pgtest

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

// BaseURL returns TEST_DATABASE_URL, skipping the test when it is unset.
func BaseURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("TEST_DATABASE_URL")
	if u == "" {
		t.Skip("TEST_DATABASE_URL not set: skipping PostgreSQL tests")
	}
	return u
}

// FreshSchema creates an empty schema, dropped when the test ends, and
// returns a URL whose search_path points at it.
func FreshSchema(t testing.TB) string {
	t.Helper()
	base := BaseURL(t)
	b := make([]byte, 8)
	rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	Admin(t, base, "CREATE SCHEMA "+schema)
	t.Cleanup(func() { Admin(t, base, "DROP SCHEMA "+schema+" CASCADE") })
	return WithSearchPath(t, base, schema)
}

// Admin runs one statement on a connection of its own, outside any store.
func Admin(t testing.TB, url, sql string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect to TEST_DATABASE_URL: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// WithSearchPath adds search_path, which pgx sends as a run-time
// parameter, to a URL or a key=value DSN.
func WithSearchPath(t testing.TB, base, schema string) string {
	t.Helper()
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

// Open opens (migrating) the store at url, closed when the test ends.
func Open(t testing.TB, url string) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

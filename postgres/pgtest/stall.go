package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector/proxytest"
)

// Proxied puts a proxytest.Proxy in front of the server a postgres:// URL
// names and returns it with a URL that goes through it. The URL also
// names a unique application_name, which Drained waits on.
func Proxied(t testing.TB, rawURL string) (proxy *proxytest.Proxy, proxiedURL, appName string) {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		t.Fatalf("pgtest: a postgres:// URL with a host is needed for a proxy: %q", rawURL)
	}
	proxy = proxytest.New(t, u.Host)
	b := make([]byte, 6)
	rand.Read(b)
	appName = "proxied_" + hex.EncodeToString(b)
	u.Host = proxy.Addr()
	q := u.Query()
	q.Set("application_name", appName)
	u.RawQuery = q.Encode()
	return proxy, u.String(), appName
}

// Drained waits until the server runs no session named appName: once a
// store that used a Proxied URL is closed and the proxy has delivered
// what it held, every statement those sessions received has been run,
// and committed or rolled back. It fails the test after a minute.
func Drained(t testing.TB, appName string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, BaseURL(t))
	if err != nil {
		t.Fatalf("connect to TEST_DATABASE_URL: %v", err)
	}
	defer conn.Close(ctx)
	for deadline := time.Now().Add(time.Minute); ; {
		var n int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`,
			appName).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions of %s still open after a minute", n, appName)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

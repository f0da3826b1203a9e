package api_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
	"github.com/prospectorhq/prospector/ratelimit"
	"github.com/prospectorhq/prospector/sqlite"
)

// benchServer is the request path as deployed: auth through the key
// cache, the in-process limiter (limits raised), JSON logs, metrics.
func benchServer(b *testing.B) (http.Handler, string) {
	b.Helper()
	st, err := sqlite.Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	w := prospector.NewWorkspace("bench", prospector.PlanGrowth)
	if err := st.CreateWorkspace(context.Background(), w); err != nil {
		b.Fatal(err)
	}
	k, secret := prospector.NewAPIKey(w.ID, prospector.PlanGrowth, nil)
	if err := st.CreateAPIKey(context.Background(), k); err != nil {
		b.Fatal(err)
	}
	rates, _ := prospector.ParseTierRates("growth=1000000000/m")
	return api.NewServer(api.Config{Store: st, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Limiter: ratelimit.NewMemory(), TierRates: rates, KeyCacheTTL: time.Minute}), secret
}

// BenchmarkRequestPath compares GET /account/key-info through the whole
// request path with a bare handler writing the same bytes, in one run.
func BenchmarkRequestPath(b *testing.B) {
	srv, key := benchServer(b)
	req := httptest.NewRequest("GET", "/api/v1/account/key-info", nil)
	req.Header.Set(prospector.KeyHeader, key)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != 200 {
		b.Fatalf("key-info: %d", rec.Code)
	}
	body := rec.Body.Bytes()
	bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	for _, tc := range []struct {
		name string
		h    http.Handler
	}{{"bare", bare}, {"key-info", srv}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					r := httptest.NewRequest("GET", "/api/v1/account/key-info", nil)
					r.Header.Set(prospector.KeyHeader, key)
					w := httptest.NewRecorder()
					tc.h.ServeHTTP(w, r)
					if w.Code != 200 {
						b.Errorf("status %d", w.Code)
					}
				}
			})
		})
	}
}

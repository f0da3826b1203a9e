package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prospectorhq/prospector/postgres/pgtest"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/webhook"
	"github.com/prospectorhq/prospector/workflows"
)

// sqliteBench opens a temp-dir SQLite store.
func sqliteBench(b *testing.B) prospector.Store {
	st, err := sqlite.Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

// postgresBench opens a store in a fresh schema of TEST_DATABASE_URL's
// database, dropped at the end; it skips without TEST_DATABASE_URL.
func postgresBench(b *testing.B) prospector.Store { return pgtest.Open(b, pgtest.FreshSchema(b)) }

// leadsBench is a server on st with n leads of one workspace, seeded
// through ApplyLeadBatch.
func leadsBench(b *testing.B, st prospector.Store, n int, hooks *webhook.Client) (http.Handler, string, []string) {
	b.Helper()
	ctx := context.Background()
	w := prospector.NewWorkspace("bench", prospector.PlanGrowth)
	if err := st.CreateWorkspace(ctx, w); err != nil {
		b.Fatal(err)
	}
	k, secret := prospector.NewAPIKey(w.ID, prospector.PlanGrowth, nil)
	if err := st.CreateAPIKey(ctx, k); err != nil {
		b.Fatal(err)
	}
	ls := seedLeads(b, st, w, n, func(i int, l *prospector.Lead) {
		l.FirstName, l.LastName, l.Title, l.Company = "Avery", "Quill", "VP Sales, EMEA", "Acme Robotics"
		l.NetworkURL, l.City, l.Region, l.CountryCode = "https://network.example/in/avery-quill", "Austin", "Texas", "US"
	})
	srv := api.NewServer(api.Config{Store: st, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), KeyCacheTTL: time.Minute,
		Workflows: workflows.New(workflows.Parts{Store: st, Index: search.New(st), Webhooks: hooks})})
	return srv, secret, idsOf(ls...)
}

func benchPost(b *testing.B, h http.Handler, key, path string, body []byte) []byte {
	req := httptest.NewRequest("POST", path, bytes.NewReader(body))
	req.Header.Set(prospector.KeyHeader, key)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("%s: %d %s", path, rec.Code, rec.Body.Bytes())
	}
	return rec.Body.Bytes()
}

// BenchmarkExportLeads exports 10,000 leads, the most one call takes,
// through the whole handler (target: 300 ms an export), on SQLite.
func BenchmarkExportLeads(b *testing.B) { benchExport(b, sqliteBench(b)) }

// BenchmarkExportLeadsPostgres is BenchmarkExportLeads on PostgreSQL.
func BenchmarkExportLeadsPostgres(b *testing.B) { benchExport(b, postgresBench(b)) }

func benchExport(b *testing.B, st prospector.Store) {
	srv, key, ids := leadsBench(b, st, 10000, nil)
	for _, format := range []string{"csv", "json"} {
		b.Run(format, func(b *testing.B) {
			body, _ := json.Marshal(map[string]any{"lead_ids": ids, "format": format})
			var size int
			for b.Loop() {
				size = len(benchPost(b, srv, key, "/api/v1/leads/export", body))
			}
			b.ReportMetric(float64(size)/1e6, "MB/response")
		})
	}
}

// BenchmarkPushLeads pushes 1,000 leads in one signed delivery to a
// receiver on loopback (target: 1 s a push).
func BenchmarkPushLeads(b *testing.B) {
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	}))
	b.Cleanup(rc.Close)
	srv, key, ids := leadsBench(b, sqliteBench(b), 1000, webhook.NewClient(webhook.Config{AllowPrivate: true}))
	body, _ := json.Marshal(map[string]any{"lead_ids": ids, "destination": "webhook_url", "webhook_url": rc.URL})
	for b.Loop() {
		var env struct {
			Data struct {
				Status    string `json:"status"`
				LeadCount int    `json:"lead_count"`
			} `json:"data"`
		}
		if err := json.Unmarshal(benchPost(b, srv, key, "/api/v1/leads/push", body), &env); err != nil ||
			env.Data.Status != "dispatched" || env.Data.LeadCount != 1000 {
			b.Fatalf("push: %+v %v", env, err)
		}
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sqlite"
)

// serve runs the radar jobs: a new radar is backfilled from the demo
// data, and signals another process stores afterwards (as an import
// does) reach its leads through the scheduled scan.
func TestServeRunsRadarJobs(t *testing.T) {
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir()}
	addr, out, stop := startServe(t, vars)
	key := lastLine(out.String())
	body := bytes.NewBufferString(`{"signals_to_track":["funding","hiring","job_change"]}`)
	req, err := http.NewRequest("POST", "http://"+addr+"/api/v1/radar/create", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Service-API-Key", key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		Data struct {
			RadarID string `json:"radar_id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&created); err != nil || res.StatusCode != 200 {
		t.Fatalf("create: %d %v", res.StatusCode, err)
	}
	res.Body.Close()
	signals := func() []any {
		status, b := getJSON(t, "http://"+addr+"/api/v1/radar/"+created.Data.RadarID+"/signals", key)
		if status != 200 {
			t.Fatalf("radar signals: %d %v", status, b)
		}
		data, _ := b["data"].([]any)
		return data
	}
	waitUntil(t, func() bool { return len(signals()) > 0 })
	before := len(signals())

	// Another process stores a new funding signal at a demo company.
	st, err := sqlite.Open(context.Background(), vars["PROSPECTOR_DATA"])
	if err != nil {
		t.Fatal(err)
	}
	cs, err := st.ListCompanies(context.Background(), 0, 1)
	if err != nil || len(cs) == 0 {
		t.Fatalf("companies: %v", err)
	}
	sg := &prospector.Signal{ExternalID: "radar-e2e-funding", Type: "funding_announcement", CompanyID: &cs[0].ID,
		CompanyDomain: cs[0].Domain, Title: "Raised a Series C", DetectedAt: time.Now().UTC()}
	if _, err := st.UpsertSignals(context.Background(), []*prospector.Signal{sg}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	waitUntil(t, func() bool {
		for _, s := range signals() {
			if s.(map[string]any)["title"] == "Raised a Series C" {
				return true
			}
		}
		return false
	})
	if n := len(signals()); n <= before {
		t.Fatalf("%d radar signals after the new one, %d before", n, before)
	}
	if err := stop(); err != nil {
		t.Fatalf("serve after cancel: %v", err)
	}
}

func waitUntil(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

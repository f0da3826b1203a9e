package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sqlite"
)

// demoSubject finds a demo person with a profile URL and no address of
// their own, at a company where the data knows someone's address: what
// a newcomer would look up first.
func demoSubject(t *testing.T, dir string) *prospector.Person {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	people, err := st.ListPeople(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	known := map[int64]bool{}
	for _, p := range people {
		if p.Email != "" && p.CompanyID != nil {
			known[*p.CompanyID] = true
		}
	}
	for _, p := range people {
		if p.NetworkURL != "" && p.Email == "" && p.CompanyID != nil && known[*p.CompanyID] {
			return p
		}
	}
	t.Fatal("no demo person to look up")
	return nil
}

func postJSON(t *testing.T, url, key, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest("POST", url, bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Service-API-Key", key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, out
}

// TestServeDemoFindsAnEmail: on a fresh demo store, enrich/email for a
// demo person answers an address built from the company's pattern, not
// verified, and charges exactly one credit. The demo's .example domains
// have no mail servers; without the finder's synthetic domains the
// answer was always empty.
func TestServeDemoFindsAnEmail(t *testing.T) {
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir()}
	addr, out, stop := startServe(t, vars)
	defer stop()
	key := lastLine(out.String())
	p := demoSubject(t, vars["PROSPECTOR_DATA"])
	body, err := json.Marshal(map[string]string{"network_url": p.NetworkURL})
	if err != nil {
		t.Fatal(err)
	}
	status, res := postJSON(t, "http://"+addr+"/api/v1/enrich/email", key, string(body))
	d, _ := res["data"].(map[string]any)
	email, _ := d["email"].(string)
	if status != 200 || !strings.HasSuffix(email, "@"+p.CompanyDomain) || d["verified"] != false ||
		d["confidence"].(float64) <= 0 || d["confidence"].(float64) > 0.8 {
		t.Fatalf("enrich/email for demo person %s at %s: %d %v", p.FullName, p.CompanyDomain, status, res)
	}
	_, usage := getJSON(t, "http://"+addr+"/api/v1/account/credit-usage", key)
	credits := usage["data"].(map[string]any)["credits"].(map[string]any)
	if credits["used"] != float64(1) {
		t.Fatalf("credits after one address found: %v", credits)
	}
}

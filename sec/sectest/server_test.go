package sectest

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

func get(t *testing.T, url string) (int, string, http.Header) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b), resp.Header
}

func TestServerFixturesAndKnobs(t *testing.T) {
	s := New()
	defer s.Close()
	if code, body, _ := get(t, s.URL+"/Archives/edgar/daily-index/2026/QTR2/form.20260504.idx"); code != 200 || !strings.Contains(body, "Acme Robotics Inc") {
		t.Fatalf("index: %d", code)
	}
	// Form D folders get a generated index page naming the XML.
	code, body, _ := get(t, s.URL+"/Archives/edgar/data/1900001/000190000126000002/0001900001-26-000002-index.htm")
	if code != 200 || !strings.Contains(body, `>D/A</td>`) || !strings.Contains(body, "/primary_doc.xml\">primary_doc.xml") {
		t.Fatalf("generated index page: %d %s", code, body)
	}
	if code, _, _ := get(t, s.URL+"/Archives/edgar/daily-index/2026/QTR2/form.20260505.idx"); code != 404 {
		t.Errorf("missing day: %d", code)
	}
	s.SetMissingStatus(403)
	if code, body, _ := get(t, s.URL+"/nothing"); code != 403 || strings.Contains(body, "Threshold") {
		t.Errorf("missing as 403: %d %s", code, body)
	}
	s.Throttle(2, 429, "7")
	for range 2 {
		if code, _, h := get(t, s.URL+"/submissions/CIK0001900001.json"); code != 429 || h.Get("Retry-After") != "7" {
			t.Errorf("throttle: %d %q", code, h.Get("Retry-After"))
		}
	}
	if code, _, _ := get(t, s.URL+"/submissions/CIK0001900001.json"); code != 200 {
		t.Errorf("after throttle: %d", code)
	}
	s.Throttle(1, 403, "")
	if code, body, _ := get(t, s.URL+"/submissions/CIK0001900001.json"); code != 403 || !strings.Contains(body, "Request Rate Threshold Exceeded") {
		t.Errorf("403 throttle: %d", code)
	}
	s.RequireContactEmail(true)
	if code, _, _ := get(t, s.URL+"/submissions/CIK0001900001.json"); code != 403 {
		t.Errorf("no contact e-mail: %d", code)
	}
	f := &Fetcher{UserAgent: "Prospector/1 (ops@prospector.example)"}
	resp, err := f.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/submissions/CIK0001900001.json"})
	if err != nil || resp.Status != 200 {
		t.Errorf("with contact e-mail: %v %v", resp, err)
	}
	s.RequireContactEmail(false)
	s.SetLatency(30 * time.Millisecond)
	start := time.Now()
	get(t, s.URL+"/submissions/CIK0001900001.json")
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Errorf("latency knob: answered in %s", d)
	}
	if n := len(s.Requests()); n != 11 {
		t.Errorf("%d requests recorded", n)
	}
}

func TestGenerateFormDs(t *testing.T) {
	s := New()
	defer s.Close()
	issuers := s.GenerateFormDs(DefaultDay, 40, 7)
	again := New()
	defer again.Close()
	if same := again.GenerateFormDs(DefaultDay, 40, 7); same[39] != issuers[39] {
		t.Error("same seed, different issuers")
	}
	names := map[string]bool{}
	for _, is := range issuers {
		if names[is.Name] || !strings.HasSuffix(is.Domain, ".example") || is.Sold <= 0 || is.Offering < is.Sold {
			t.Errorf("issuer %+v", is)
		}
		names[is.Name] = true
		doc, ok := s.File("/Archives/edgar/data/" + is.CIK + "/" + strings.ReplaceAll(is.Accession, "-", "") + "/primary_doc.xml")
		if !ok || !strings.Contains(string(doc), "<totalAmountSold>"+strconv.FormatInt(is.Sold, 10)+"</totalAmountSold>") {
			t.Fatalf("primary doc of %s", is.CIK)
		}
		sub, ok := s.File("/submissions/CIK000" + is.CIK + ".json")
		if !ok || strings.Contains(string(sub), is.Domain) != is.Website {
			t.Errorf("submissions of %s: website %v", is.CIK, is.Website)
		}
	}
	idx, _ := s.File("/Archives/edgar/daily-index/2026/QTR2/form.20260504.idx")
	if n := strings.Count(string(idx), "\nD   "); n != 43 { // 3 built-in notices and 40 generated
		t.Errorf("index lists %d notices", n)
	}
	// A fresh day gets a header.
	other := s.GenerateFormDs(DefaultDay.AddDate(0, 0, 1), 1, 1)
	idx, _ = s.File("/Archives/edgar/daily-index/2026/QTR2/form.20260505.idx")
	if !strings.HasPrefix(string(idx), "Description:") || !strings.Contains(string(idx), other[0].Accession) {
		t.Errorf("new day index: %s", idx)
	}
}

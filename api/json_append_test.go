package api

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// stdJSON encodes v as writeJSON does, without the trailing newline.
func stdJSON(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

var awkwardStrings = []string{
	"", "plain", `quote " and \ backslash`, "tab\tnew\nline\rcr\bbs\fff", "\x00\x01\x1f\x7f",
	"<b>&amp;</b>", "héllo wörld ✓ 日本", "line\u2028sep\u2029para", "bad \xff utf8 \xc3", "emoji 🚀 ok",
	"https://news.example/posts/63935de2?a=1&b=<2>",
}

func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range awkwardStrings {
		if got, want := appendJSONString(nil, s), stdJSON(t, s); !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}

func TestAppendJSONFloatMatchesEncodingJSON(t *testing.T) {
	fs := []float64{0, math.Copysign(0, -1), 1, -1, 69.5, 90.9, 0.1, 1e-6, 9.99e-7, 1e-7, 1.5e-10, 1e20, 1e21, 1.2345e22,
		-3e-9, 100, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		fs = append(fs, math.Float64frombits(r.Uint64()))
	}
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		if got, want := appendJSONFloat(nil, f), stdJSON(t, f); !bytes.Equal(got, want) {
			t.Errorf("%v: got %s, want %s", f, got, want)
		}
	}
	if got := string(appendJSONFloat(nil, math.NaN())); got != "null" {
		t.Errorf("NaN: %s", got)
	}
}

// refSignalRecord is the Signal record as plain encoding/json would
// render it: what signalRecord.appendJSON must write.
type refSignalRecord struct {
	ID            string   `json:"id"`
	Type          string   `json:"type"`
	Company       *string  `json:"company"`
	CompanyDomain *string  `json:"company_domain"`
	LeadID        string   `json:"lead_id"`
	LeadName      string   `json:"lead_name"`
	LeadTitle     *string  `json:"lead_title"`
	NetworkURL    *string  `json:"network_url"`
	Title         *string  `json:"title"`
	Detail        *string  `json:"detail"`
	SourceURL     *string  `json:"source_url"`
	DetectedAt    *string  `json:"detected_at"`
	Score         *float64 `json:"score"`
}

func refRecord(r signalRecord) refSignalRecord {
	ref := refSignalRecord{ID: r.LeadID + ":" + strconv.FormatInt(r.RowID, 10), Type: r.Type, Company: orNull(r.Company),
		CompanyDomain: orNull(r.CompanyDomain), LeadID: r.LeadID, LeadName: r.LeadName, LeadTitle: orNull(r.LeadTitle),
		NetworkURL: orNull(r.NetworkURL), Title: orNull(r.Title), Detail: orNull(r.Detail), SourceURL: orNull(r.SourceURL),
		Score: r.Score}
	if !r.DetectedAt.IsZero() {
		at := timestamp(r.DetectedAt)
		ref.DetectedAt = &at
	}
	return ref
}

func TestSignalRecordAppendJSONMatchesEncodingJSON(t *testing.T) {
	score := 87.25
	recs := []signalRecord{
		{},
		{RowID: 42, Type: "job_change", Company: "Acme <Robotics>", CompanyDomain: "acme.example",
			LeadID: "https://network.example/in/ava-\"q\"", LeadName: "Ava \"Q\" Lin", LeadTitle: "VP of Sales",
			NetworkURL: "https://network.example/in/ava", Title: "Started\nas VP", Detail: "bad \xff",
			SourceURL: "https://news.example/p?a=1&b=2", DetectedAt: time.Date(2026, 11, 4, 15, 58, 29, 362749005, time.FixedZone("X", 3600)),
			Score: &score},
		{RowID: 7, Type: "company_hiring", LeadID: "company:acme.example", LeadName: "Acme", Title: "Hiring"},
	}
	for _, r := range recs {
		want := stdJSON(t, refRecord(r))
		if got := r.appendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("appendJSON\n got  %s\n want %s", got, want)
		}
		// encoding/json (the feeds' path) goes through MarshalJSON.
		if got := stdJSON(t, []signalRecord{r}); !bytes.Equal(got, append(append([]byte("["), want...), ']')) {
			t.Errorf("encoding/json\n got  %s\n want [%s]", got, want)
		}
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range awkwardStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := appendJSONString(nil, s), stdJSON(t, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}

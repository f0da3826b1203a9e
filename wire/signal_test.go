package wire

import (
	"bytes"
	"strconv"
	"testing"
	"time"
)

// refSignalRecord is the Signal record as plain encoding/json would
// render it: what Signal.AppendJSON must write.
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

func refSignal(r Signal) refSignalRecord {
	ref := refSignalRecord{ID: r.LeadID + ":" + strconv.FormatInt(r.RowID, 10), Type: r.Type, Company: OrNull(r.Company),
		CompanyDomain: OrNull(r.CompanyDomain), LeadID: r.LeadID, LeadName: r.LeadName, LeadTitle: OrNull(r.LeadTitle),
		NetworkURL: OrNull(r.NetworkURL), Title: OrNull(r.Title), Detail: OrNull(r.Detail), SourceURL: OrNull(r.SourceURL),
		Score: r.Score}
	if !r.DetectedAt.IsZero() {
		at := Timestamp(r.DetectedAt)
		ref.DetectedAt = &at
	}
	return ref
}

func TestSignalRecordAppendJSONMatchesEncodingJSON(t *testing.T) {
	score := 87.25
	recs := []Signal{
		{},
		{RowID: 42, Type: "job_change", Company: "Acme <Robotics>", CompanyDomain: "acme.example",
			LeadID: "https://network.example/in/ava-\"q\"", LeadName: "Ava \"Q\" Lin", LeadTitle: "VP of Sales",
			NetworkURL: "https://network.example/in/ava", Title: "Started\nas VP", Detail: "bad \xff",
			SourceURL: "https://news.example/p?a=1&b=2", DetectedAt: time.Date(2026, 11, 4, 15, 58, 29, 362749005, time.FixedZone("X", 3600)),
			Score: &score},
		{RowID: 7, Type: "company_hiring", LeadID: "company:acme.example", LeadName: "Acme", Title: "Hiring"},
	}
	for _, r := range recs {
		want := stdJSON(t, refSignal(r))
		if got := r.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("AppendJSON\n got  %s\n want %s", got, want)
		}
		// encoding/json (the feeds' path) goes through MarshalJSON.
		if got := stdJSON(t, []Signal{r}); !bytes.Equal(got, append(append([]byte("["), want...), ']')) {
			t.Errorf("encoding/json\n got  %s\n want [%s]", got, want)
		}
	}
}

package wire

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// The reference renderings below are the structs encoding/json rendered
// before the lead had one shape: the API's export record, radar lead
// record and radar signal record. The shape's renderings must write the
// same bytes.

type refRecord struct {
	ID              string   `json:"id"`
	FullName        string   `json:"full_name"`
	FirstName       *string  `json:"first_name"`
	LastName        *string  `json:"last_name"`
	Title           *string  `json:"title"`
	Company         *string  `json:"company"`
	NetworkURL      *string  `json:"network_url"`
	Email           *string  `json:"email"`
	Phone           *string  `json:"phone"`
	Location        *string  `json:"location"`
	Score           *float64 `json:"score"`
	Status          *string  `json:"status"`
	Source          string   `json:"source"`
	RadarID         *string  `json:"radar_id"`
	CampaignID      *string  `json:"campaign_id"`
	CreatedAt       *string  `json:"created_at"`
	RepliedAt       *string  `json:"replied_at"`
	MeetingBookedAt *string  `json:"meeting_booked_at"`
	ReplyContent    string   `json:"reply_content"`
	Feedback        string   `json:"feedback"`
	FeedbackReason  string   `json:"feedback_reason"`
}

func newRefRecord(l *prospector.Lead) refRecord {
	return refRecord{ID: l.ID, FullName: l.FullName, FirstName: OrNull(l.FirstName), LastName: OrNull(l.LastName),
		Title: OrNull(l.Title), Company: OrNull(l.Company), NetworkURL: OrNull(l.NetworkURL), Email: OrNull(l.Email),
		Phone: OrNull(l.Phone), Location: OrNull(Place(l.City, l.Region, l.CountryCode)), Score: l.Score,
		Status: OrNull(l.Status), Source: l.Source, RadarID: OrNull(l.RadarID), CampaignID: OrNull(l.CampaignID),
		CreatedAt: TimeOrNull(&l.CreatedAt), RepliedAt: TimeOrNull(l.RepliedAt), MeetingBookedAt: TimeOrNull(l.MeetingBookedAt),
		ReplyContent: l.ReplyContent, Feedback: l.Feedback, FeedbackReason: l.FeedbackReason}
}

type refRadarSignal struct {
	ID         string   `json:"id"`
	Type       string   `json:"type"`
	LeadID     string   `json:"lead_id"`
	LeadName   string   `json:"lead_name"`
	Company    *string  `json:"company"`
	Title      *string  `json:"title"`
	Detail     *string  `json:"detail"`
	SourceURL  *string  `json:"source_url"`
	DetectedAt *string  `json:"detected_at"`
	Score      *float64 `json:"score"`
}

func newRefRadarSignal(s *prospector.LeadSignal) refRadarSignal {
	r := refRadarSignal{ID: s.LeadID + ":" + strconv.FormatInt(s.SignalID, 10), Type: s.Type, LeadID: s.LeadID,
		LeadName: s.LeadName, Company: OrNull(s.Company), Title: OrNull(s.Title), Detail: OrNull(s.Detail),
		SourceURL: OrNull(s.SourceURL)}
	if r.Company == nil {
		r.Company = OrNull(s.LeadCompany)
	}
	if r.Title == nil {
		r.Title = OrNull(s.LeadTitle)
	}
	if !s.DetectedAt.IsZero() {
		at := Timestamp(s.DetectedAt)
		r.DetectedAt = &at
	}
	score := s.Score
	r.Score = &score
	return r
}

type refBreakdown struct {
	Total      float64 `json:"total"`
	SignalType float64 `json:"signal_type"`
	Recency    float64 `json:"recency"`
	TitleFit   float64 `json:"title_fit"`
	CompanyFit float64 `json:"company_fit"`
	Signal     string  `json:"signal"`
	Type       string  `json:"type"`
}

type refRadarLead struct {
	ID             string           `json:"id"`
	Name           string           `json:"name"`
	Title          *string          `json:"title"`
	Company        *string          `json:"company"`
	NetworkURL     *string          `json:"network_url"`
	Location       *string          `json:"location"`
	Score          *float64         `json:"score"`
	SignalContext  []refRadarSignal `json:"signal_context"`
	ScoreBreakdown *refBreakdown    `json:"score_breakdown"`
}

func newRefRadarLeads(leads []*prospector.Lead, sigs []*prospector.LeadSignal) []refRadarLead {
	byLead := map[string][]refRadarSignal{}
	for _, s := range sigs {
		byLead[s.LeadID] = append(byLead[s.LeadID], newRefRadarSignal(s))
	}
	out := make([]refRadarLead, 0, len(leads))
	for _, l := range leads {
		rec := refRadarLead{ID: l.ID, Name: l.FullName, Title: OrNull(l.Title), Company: OrNull(l.Company),
			NetworkURL: OrNull(l.NetworkURL), Location: OrNull(Place(l.City, l.Region, l.CountryCode)), Score: l.Score,
			SignalContext: byLead[l.ID]}
		if rec.SignalContext == nil {
			rec.SignalContext = []refRadarSignal{}
		}
		if b := l.Breakdown; b != nil {
			rec.ScoreBreakdown = &refBreakdown{Total: b.Total, SignalType: b.SignalType, Recency: b.Recency,
				TitleFit: b.TitleFit, CompanyFit: b.CompanyFit, Signal: RadarSignalID(l.ID, b.SignalID), Type: b.Type}
		}
		out = append(out, rec)
	}
	return out
}

// randomLeads makes leads with every field now set, now empty, with the
// awkward strings JSON must escape.
func randomLeads(n int) ([]*prospector.Lead, []*prospector.LeadSignal) {
	r := rand.New(rand.NewPCG(3, 4))
	str := func() string {
		if r.IntN(3) == 0 {
			return ""
		}
		return awkwardStrings[r.IntN(len(awkwardStrings))]
	}
	at := func() *time.Time {
		if r.IntN(3) == 0 {
			return nil
		}
		t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("X", 3600)).Add(time.Duration(r.Int64N(1e16)))
		return &t
	}
	score := func() *float64 {
		if r.IntN(3) == 0 {
			return nil
		}
		f := r.Float64() * 100
		return &f
	}
	var leads []*prospector.Lead
	var sigs []*prospector.LeadSignal
	for i := range n {
		l := &prospector.Lead{ID: prospector.NewLeadID(), FullName: str(), FirstName: str(), LastName: str(), Title: str(),
			Company: str(), NetworkURL: str(), Email: str(), Phone: str(), City: str(), Region: str(),
			CountryCode: []string{"", "DE", "US", "ZZ"}[r.IntN(4)], Score: score(), Status: str(), Source: str(),
			RadarID: str(), CampaignID: str(), RepliedAt: at(), MeetingBookedAt: at(), ReplyContent: str(),
			Feedback: str(), FeedbackReason: str()}
		if t := at(); t != nil {
			l.CreatedAt = *t
		}
		if i%2 == 0 {
			l.Breakdown = &prospector.ScoreBreakdown{Total: r.Float64() * 100, SignalType: 40, Recency: r.Float64() * 20,
				TitleFit: 1e-7, CompanyFit: 12.5, Type: str(), SignalID: r.Int64N(1e6)}
		}
		leads = append(leads, l)
		for range r.IntN(3) {
			s := &prospector.LeadSignal{LeadID: l.ID, SignalID: r.Int64N(1e6), Type: str(), Title: str(), Detail: str(),
				SourceURL: str(), Company: str(), Score: r.Float64() * 100, LeadName: str(), LeadTitle: str(), LeadCompany: str()}
			if t := at(); t != nil {
				s.DetectedAt = *t
			}
			sigs = append(sigs, s)
		}
	}
	return leads, sigs
}

func TestLeadRenderingsMatchTheirContractRecords(t *testing.T) {
	leads, sigs := randomLeads(300)
	var refs []refRecord
	for _, l := range leads {
		refs = append(refs, newRefRecord(l))
	}
	if got, want := stdJSON(t, LeadRecords(NewLeads(leads))), stdJSON(t, refs); !bytes.Equal(got, want) {
		t.Fatalf("export records\n got  %s\n want %s", got, want)
	}
	if got := stdJSON(t, LeadRecords{}); string(got) != "[]" {
		t.Errorf("no records: %s", got)
	}
	if got, want := stdJSON(t, NewRadarLeads(leads, sigs)), stdJSON(t, newRefRadarLeads(leads, sigs)); !bytes.Equal(got, want) {
		t.Fatalf("radar leads\n got  %s\n want %s", got, want)
	}
	for _, s := range sigs {
		if got, want := stdJSON(t, NewRadarSignal(s)), stdJSON(t, newRefRadarSignal(s)); !bytes.Equal(got, want) {
			t.Fatalf("radar signal\n got  %s\n want %s", got, want)
		}
	}
	// An encoder that escapes HTML (deliveries use json.Marshal) escapes
	// a record's strings as it would a struct's.
	got, _ := json.Marshal(LeadRecords(NewLeads(leads)))
	want, _ := json.Marshal(refs)
	if !bytes.Equal(got, want) {
		t.Fatalf("json.Marshal differs")
	}
}

// The outbox keeps a lead's JSON form; reading it back gives the lead.
func TestLeadRoundTrip(t *testing.T) {
	leads, _ := randomLeads(50)
	for _, l := range NewLeads(leads) {
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		var back Lead
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(`\ufffd`)) {
			continue // invalid UTF-8, which no store keeps, became U+FFFD
		}
		if again, _ := json.Marshal(back); !bytes.Equal(again, b) {
			t.Fatalf("round trip of %s gave %s", b, again)
		}
		if got, want := stdJSON(t, LeadRecords{back}), stdJSON(t, LeadRecords{l}); !bytes.Equal(got, want) {
			t.Fatalf("round trip: record %s, want %s", got, want)
		}
	}
}

func f64(v float64) *float64 { return &v }

func TestLeadRecord(t *testing.T) {
	replied := time.Date(2026, 11, 21, 8, 30, 0, 0, time.FixedZone("CET", 3600))
	l := &prospector.Lead{ID: "ld_a", FullName: "Ada Lovelace", FirstName: "Ada", City: "London", CountryCode: "GB",
		Score: f64(90), Status: "replied", Source: "radar", RadarID: "rdr_1", RepliedAt: &replied, ReplyContent: "yes",
		Feedback: "positive", CreatedAt: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
	rec := NewLead(l)
	got := rec.AppendRecord(nil)
	want := `{"id":"ld_a","full_name":"Ada Lovelace","first_name":"Ada","last_name":null,"title":null,"company":null,` +
		`"network_url":null,"email":null,"phone":null,"location":"London, United Kingdom","score":90,"status":"replied",` +
		`"source":"radar","radar_id":"rdr_1","campaign_id":null,"created_at":"2026-11-20T09:00:00.000Z",` +
		`"replied_at":"2026-11-21T07:30:00.000Z","meeting_booked_at":null,"reply_content":"yes","feedback":"positive",` +
		`"feedback_reason":""}`
	if string(got) != want {
		t.Fatalf("record:\n%s\nwant\n%s", got, want)
	}
	e := NewLead(l)
	if e.Location != "London, United Kingdom" || e.ID != l.ID || e.Score != l.Score || e.Status != "replied" ||
		!e.CreatedAt.Equal(l.CreatedAt) || e.RadarID != "rdr_1" {
		t.Fatalf("entry %+v", e)
	}
}

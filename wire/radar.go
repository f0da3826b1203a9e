package wire

import (
	"strconv"
	"time"

	"github.com/prospectorhq/prospector"
)

// RadarSignal is the contract's Radar signal record: a signal attached
// to one of a radar's leads.
type RadarSignal struct {
	ID         string // RadarSignalID of the lead and the stored signal
	Type       string
	LeadID     string
	LeadName   string
	Company    string
	Title      string
	Detail     string
	SourceURL  string
	DetectedAt time.Time
	Score      float64 // the signal's match score for this lead
}

// RadarSignalID is a radar signal's id: the lead's id and the signal's
// stored row id, shaped like Signal record ids (<lead_id>:<row id>).
func RadarSignalID(leadID string, signalID int64) string {
	return leadID + ":" + strconv.FormatInt(signalID, 10)
}

// NewRadarSignal renders an attached signal. Title is the signal's
// headline, else the lead's job title; Company the signal's company,
// else the lead's.
func NewRadarSignal(s *prospector.LeadSignal) RadarSignal {
	r := RadarSignal{ID: RadarSignalID(s.LeadID, s.SignalID), Type: s.Type, LeadID: s.LeadID, LeadName: s.LeadName,
		Company: s.Company, Title: s.Title, Detail: s.Detail, SourceURL: s.SourceURL, DetectedAt: s.DetectedAt,
		Score: s.Score}
	if r.Company == "" {
		r.Company = s.LeadCompany
	}
	if r.Title == "" {
		r.Title = s.LeadTitle
	}
	return r
}

// AppendJSON appends the record, members in the contract's order.
func (r *RadarSignal) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = AppendString(b, r.ID)
	b = append(b, `,"type":`...)
	b = AppendString(b, r.Type)
	b = append(b, `,"lead_id":`...)
	b = AppendString(b, r.LeadID)
	b = append(b, `,"lead_name":`...)
	b = AppendString(b, r.LeadName)
	b = AppendMember(b, "company", r.Company)
	b = AppendMember(b, "title", r.Title)
	b = AppendMember(b, "detail", r.Detail)
	b = AppendMember(b, "source_url", r.SourceURL)
	b = AppendTimeMember(b, "detected_at", r.DetectedAt)
	b = append(b, `,"score":`...)
	b = AppendFloat(b, r.Score)
	return append(b, '}')
}

// MarshalJSON renders the record for encoding/json.
func (r RadarSignal) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// ScoreBreakdown explains a radar lead's score: its components and the
// signal (a radar signal id) that earned it (docs/scoring.md).
type ScoreBreakdown struct {
	Total      float64
	SignalType float64
	Recency    float64
	TitleFit   float64
	CompanyFit float64
	Signal     string
	Type       string
}

// RadarLead is the contract's Radar lead record plus the extra member
// score_breakdown: the lead's members of Lead, with the signals that
// surfaced it.
type RadarLead struct {
	Lead      Lead
	Signals   []RadarSignal // signal_context, newest first
	Breakdown *ScoreBreakdown
}

// NewRadarLeads renders leads in their order, each with its signals from
// sigs (grouped by lead, newest first).
func NewRadarLeads(leads []*prospector.Lead, sigs []*prospector.LeadSignal) []RadarLead {
	byLead := map[string][]RadarSignal{}
	for _, s := range sigs {
		byLead[s.LeadID] = append(byLead[s.LeadID], NewRadarSignal(s))
	}
	out := make([]RadarLead, 0, len(leads))
	for _, l := range leads {
		rec := RadarLead{Lead: NewLead(l), Signals: byLead[l.ID]}
		if b := l.Breakdown; b != nil {
			rec.Breakdown = &ScoreBreakdown{Total: b.Total, SignalType: b.SignalType, Recency: b.Recency,
				TitleFit: b.TitleFit, CompanyFit: b.CompanyFit, Signal: RadarSignalID(l.ID, b.SignalID), Type: b.Type}
		}
		out = append(out, rec)
	}
	return out
}

// AppendJSON appends the record, members in the contract's order.
func (r *RadarLead) AppendJSON(b []byte) []byte {
	l := &r.Lead
	b = append(b, `{"id":`...)
	b = AppendString(b, l.ID)
	b = append(b, `,"name":`...)
	b = AppendString(b, l.FullName)
	b = AppendMember(b, "title", l.Title)
	b = AppendMember(b, "company", l.Company)
	b = AppendMember(b, "network_url", l.NetworkURL)
	b = AppendMember(b, "location", l.Location)
	b = AppendFloatMember(b, "score", l.Score)
	b = append(b, `,"signal_context":[`...)
	for i := range r.Signals {
		if i > 0 {
			b = append(b, ',')
		}
		b = r.Signals[i].AppendJSON(b)
	}
	b = append(b, `],"score_breakdown":`...)
	if bd := r.Breakdown; bd == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"total":`...)
		b = AppendFloat(b, bd.Total)
		b = append(b, `,"signal_type":`...)
		b = AppendFloat(b, bd.SignalType)
		b = append(b, `,"recency":`...)
		b = AppendFloat(b, bd.Recency)
		b = append(b, `,"title_fit":`...)
		b = AppendFloat(b, bd.TitleFit)
		b = append(b, `,"company_fit":`...)
		b = AppendFloat(b, bd.CompanyFit)
		b = append(b, `,"signal":`...)
		b = AppendString(b, bd.Signal)
		b = append(b, `,"type":`...)
		b = AppendString(b, bd.Type)
		b = append(b, '}')
	}
	return append(b, '}')
}

// MarshalJSON renders the record for encoding/json.
func (r RadarLead) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

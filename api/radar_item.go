package api

import (
	"strconv"

	"github.com/prospectorhq/prospector"
)

// radarSignalRecord is the contract's Radar signal record.
type radarSignalRecord struct {
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

// radarSignalID is a radar signal's id: the lead's id and the signal's
// stored row id, shaped like Signal record ids (<lead_id>:<index>).
func radarSignalID(leadID string, signalID int64) string {
	return leadID + ":" + strconv.FormatInt(signalID, 10)
}

// newRadarSignalRecord renders an attached signal. title is the signal's
// headline, else the lead's job title; company the signal's company, else
// the lead's; score the signal's match score for this lead.
func newRadarSignalRecord(s *prospector.LeadSignal) radarSignalRecord {
	r := radarSignalRecord{ID: radarSignalID(s.LeadID, s.SignalID), Type: s.Type, LeadID: s.LeadID,
		LeadName: s.LeadName, Company: orNull(s.Company), Title: orNull(s.Title), Detail: orNull(s.Detail),
		SourceURL: orNull(s.SourceURL)}
	if r.Company == nil {
		r.Company = orNull(s.LeadCompany)
	}
	if r.Title == nil {
		r.Title = orNull(s.LeadTitle)
	}
	if !s.DetectedAt.IsZero() {
		at := timestamp(s.DetectedAt)
		r.DetectedAt = &at
	}
	score := s.Score
	r.Score = &score
	return r
}

// radarLeadRecord is the contract's Radar lead record plus the extra
// member score_breakdown (docs/scoring.md).
type radarLeadRecord struct {
	ID             string              `json:"id"`
	Name           string              `json:"name"`
	Title          *string             `json:"title"`
	Company        *string             `json:"company"`
	NetworkURL     *string             `json:"network_url"`
	Location       *string             `json:"location"`
	Score          *float64            `json:"score"`
	SignalContext  []radarSignalRecord `json:"signal_context"`
	ScoreBreakdown *scoreBreakdown     `json:"score_breakdown"`
}

// scoreBreakdown explains a lead's score: its components and the signal
// (a radar signal id) that earned it.
type scoreBreakdown struct {
	Total      float64 `json:"total"`
	SignalType float64 `json:"signal_type"`
	Recency    float64 `json:"recency"`
	TitleFit   float64 `json:"title_fit"`
	CompanyFit float64 `json:"company_fit"`
	Signal     string  `json:"signal"`
	Type       string  `json:"type"`
}

// newRadarLeadRecords renders leads in their order, each with its
// signals from sigs (grouped by lead, newest first).
func newRadarLeadRecords(leads []*prospector.Lead, sigs []*prospector.LeadSignal) []radarLeadRecord {
	byLead := map[string][]radarSignalRecord{}
	for _, s := range sigs {
		byLead[s.LeadID] = append(byLead[s.LeadID], newRadarSignalRecord(s))
	}
	out := make([]radarLeadRecord, 0, len(leads))
	for _, l := range leads {
		rec := radarLeadRecord{ID: l.ID, Name: l.FullName, Title: orNull(l.Title), Company: orNull(l.Company),
			NetworkURL: orNull(l.NetworkURL), Location: orNull(place(l.City, l.Region, l.CountryCode)), Score: l.Score,
			SignalContext: byLead[l.ID]}
		if rec.SignalContext == nil {
			rec.SignalContext = []radarSignalRecord{}
		}
		if b := l.Breakdown; b != nil {
			rec.ScoreBreakdown = &scoreBreakdown{Total: b.Total, SignalType: b.SignalType, Recency: b.Recency,
				TitleFit: b.TitleFit, CompanyFit: b.CompanyFit, Signal: radarSignalID(l.ID, b.SignalID), Type: b.Type}
		}
		out = append(out, rec)
	}
	return out
}

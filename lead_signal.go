package prospector

import "time"

// LeadSignal is a signal attached to a lead, with what a Radar signal
// record shows of both.
type LeadSignal struct {
	LeadID      string
	SignalID    int64
	Type        string
	Title       string // the signal's headline
	Detail      string
	SourceURL   string
	Company     string // the signal's company, "" when it has none
	DetectedAt  time.Time
	Score       float64 // the match score of this signal for this lead
	LeadName    string
	LeadTitle   string
	LeadCompany string // the lead's company
}

// NewestPerLead keeps the first perLead of each lead's rows (which come
// grouped by lead, newest first within a lead, as LeadSignals reads
// them) and returns them lead by lead in the order of leadIDs; a lead
// named twice contributes once. It is what LeadSignals returns of the
// rows an engine read.
func NewestPerLead(rows []*LeadSignal, leadIDs []string, perLead int) []*LeadSignal {
	byLead := map[string][]*LeadSignal{}
	for _, r := range rows {
		if len(byLead[r.LeadID]) < perLead {
			byLead[r.LeadID] = append(byLead[r.LeadID], r)
		}
	}
	var out []*LeadSignal
	for _, id := range leadIDs {
		out = append(out, byLead[id]...)
		delete(byLead, id)
	}
	return out
}

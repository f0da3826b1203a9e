package wire

import (
	"strconv"
	"time"

	"github.com/prospectorhq/prospector"
)

// Signal is the contract's Signal record. Empty optional strings
// and a zero DetectedAt render as null. It renders itself (AppendJSON):
// signals/bulk writes hundreds per call, and plain fields cost no
// allocation per member the way pointers for null would.
type Signal struct {
	RowID         int64 // the signal's stored row id: id is <lead_id>:<row id>
	Type          string
	Company       string
	CompanyDomain string
	LeadID        string
	LeadName      string
	LeadTitle     string
	NetworkURL    string
	Title         string
	Detail        string
	SourceURL     string
	DetectedAt    time.Time
	Score         *float64
}

// NewSignal renders a signal with its company and person (either
// may be nil). The lead is the person when the signal names one, else the
// company (docs/decisions.md); the id is the lead's id and the signal's
// stored row id, which no later import changes.
func NewSignal(sg *prospector.Signal, co *prospector.Company, p *prospector.Person) Signal {
	r := Signal{RowID: sg.ID, Type: sg.Type, Title: sg.Title, Detail: sg.Detail, SourceURL: sg.SourceURL,
		DetectedAt: sg.DetectedAt, Score: sg.Score}
	if co != nil {
		r.Company, r.CompanyDomain = co.Name, co.Domain
	}
	switch {
	case p != nil:
		r.LeadID, r.LeadName, r.LeadTitle, r.NetworkURL = p.PublicID(), p.FullName, p.Title, p.NetworkURL
	case co != nil:
		r.LeadID, r.LeadName, r.NetworkURL = co.PublicID(), co.Name, co.NetworkURL
	default:
		// Imports refuse signals that name nothing stored and deletes
		// cascade, so this is a safety net, not a documented shape.
		r.LeadID = "signal:" + sg.ExternalID
	}
	return r
}

// MarshalJSON renders the record for encoding/json (the feeds); the hot
// paths call AppendJSON directly.
func (r Signal) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// AppendJSON appends the record as a JSON object, members in the
// contract's order.
func (r *Signal) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = AppendString(b, r.LeadID)
	b = append(b[:len(b)-1], ':') // the lead id's closing quote
	b = strconv.AppendInt(b, r.RowID, 10)
	b = append(b, `","type":`...)
	b = AppendString(b, r.Type)
	b = AppendMember(b, "company", r.Company)
	b = AppendMember(b, "company_domain", r.CompanyDomain)
	b = append(b, `,"lead_id":`...)
	b = AppendString(b, r.LeadID)
	b = append(b, `,"lead_name":`...)
	b = AppendString(b, r.LeadName)
	b = AppendMember(b, "lead_title", r.LeadTitle)
	b = AppendMember(b, "network_url", r.NetworkURL)
	b = AppendMember(b, "title", r.Title)
	b = AppendMember(b, "detail", r.Detail)
	b = AppendMember(b, "source_url", r.SourceURL)
	b = append(b, `,"detected_at":`...)
	if r.DetectedAt.IsZero() {
		b = append(b, "null"...)
	} else {
		b = append(b, '"')
		b = r.DetectedAt.UTC().AppendFormat(b, TimestampLayout)
		b = append(b, '"')
	}
	b = append(b, `,"score":`...)
	if r.Score == nil {
		b = append(b, "null"...)
	} else {
		b = AppendFloat(b, *r.Score)
	}
	return append(b, '}')
}

package wire

import (
	"time"

	"github.com/prospectorhq/prospector"
)

// Lead is a lead as it leaves the service: the one shape behind the
// contract's Lead record (exports, AppendRecord), its lead entry
// (deliveries and outreach tools, which take the entry's fields from
// it) and the lead members of a Radar lead record (RadarLead). Unknown
// values are empty strings, a nil Score and zero times; each rendering
// shows them as its contract says. Its JSON form (encoding/json, empty
// members left out) is what the delivery outbox keeps.
type Lead struct {
	ID         string    `json:"id"`
	FullName   string    `json:"full_name"`
	FirstName  string    `json:"first_name,omitempty"`
	LastName   string    `json:"last_name,omitempty"`
	Title      string    `json:"title,omitempty"`
	Company    string    `json:"company,omitempty"`
	NetworkURL string    `json:"network_url,omitempty"`
	Email      string    `json:"email,omitempty"`
	Phone      string    `json:"phone,omitempty"`
	Location   string    `json:"location,omitempty"`
	Score      *float64  `json:"score,omitempty"`
	Status     string    `json:"status,omitempty"`
	RadarID    string    `json:"radar_id,omitempty"`
	CampaignID string    `json:"campaign_id,omitempty"`
	CreatedAt  time.Time `json:"created_at,omitzero"`
	// The record's members that deliveries do not carry.
	Source          string     `json:"source,omitempty"`
	RepliedAt       *time.Time `json:"replied_at,omitempty"`
	MeetingBookedAt *time.Time `json:"meeting_booked_at,omitempty"`
	ReplyContent    string     `json:"reply_content,omitempty"`
	Feedback        string     `json:"feedback,omitempty"`
	FeedbackReason  string     `json:"feedback_reason,omitempty"`
}

// NewLead returns l as it leaves the service.
func NewLead(l *prospector.Lead) Lead {
	return Lead{ID: l.ID, FullName: l.FullName, FirstName: l.FirstName, LastName: l.LastName, Title: l.Title,
		Company: l.Company, NetworkURL: l.NetworkURL, Email: l.Email, Phone: l.Phone,
		Location: Place(l.City, l.Region, l.CountryCode), Score: l.Score, Status: l.Status, RadarID: l.RadarID,
		CampaignID: l.CampaignID, CreatedAt: l.CreatedAt, Source: l.Source, RepliedAt: l.RepliedAt,
		MeetingBookedAt: l.MeetingBookedAt, ReplyContent: l.ReplyContent, Feedback: l.Feedback,
		FeedbackReason: l.FeedbackReason}
}

// NewLeads converts leads with NewLead, in order.
func NewLeads(ls []*prospector.Lead) []Lead {
	out := make([]Lead, len(ls))
	for i, l := range ls {
		out[i] = NewLead(l)
	}
	return out
}

// AppendRecord appends l as the contract's Lead record, every member it
// lists in its order: unknown values are null, except source,
// reply_content, feedback and feedback_reason, which the contract types
// as strings and are "" when none is recorded.
func (l *Lead) AppendRecord(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = AppendString(b, l.ID)
	b = append(b, `,"full_name":`...)
	b = AppendString(b, l.FullName)
	b = AppendMember(b, "first_name", l.FirstName)
	b = AppendMember(b, "last_name", l.LastName)
	b = AppendMember(b, "title", l.Title)
	b = AppendMember(b, "company", l.Company)
	b = AppendMember(b, "network_url", l.NetworkURL)
	b = AppendMember(b, "email", l.Email)
	b = AppendMember(b, "phone", l.Phone)
	b = AppendMember(b, "location", l.Location)
	b = AppendFloatMember(b, "score", l.Score)
	b = AppendMember(b, "status", l.Status)
	b = append(b, `,"source":`...)
	b = AppendString(b, l.Source)
	b = AppendMember(b, "radar_id", l.RadarID)
	b = AppendMember(b, "campaign_id", l.CampaignID)
	b = AppendTimeMember(b, "created_at", l.CreatedAt)
	b = AppendTimeMember(b, "replied_at", orZero(l.RepliedAt))
	b = AppendTimeMember(b, "meeting_booked_at", orZero(l.MeetingBookedAt))
	b = append(b, `,"reply_content":`...)
	b = AppendString(b, l.ReplyContent)
	b = append(b, `,"feedback":`...)
	b = AppendString(b, l.Feedback)
	b = append(b, `,"feedback_reason":`...)
	b = AppendString(b, l.FeedbackReason)
	return append(b, '}')
}

func orZero(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

// LeadRecords renders leads as an array of Lead records (AppendRecord),
// the JSON export's data.
type LeadRecords []Lead

// MarshalJSON renders the records.
func (ls LeadRecords) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 512*len(ls)+2)
	b = append(b, '[')
	for i := range ls {
		if i > 0 {
			b = append(b, ',')
		}
		b = ls[i].AppendRecord(b)
	}
	return append(b, ']'), nil
}

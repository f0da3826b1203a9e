// Package leads gives stored leads the forms in which they leave the
// service: export rows (CSV) and records (JSON) for POST /leads/export,
// delivery entries (webhook.Lead) for pushes and auto-sync, and the hook
// that queues a radar's new leads to the auto-sync outbox.
package leads

import (
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
	"github.com/prospectorhq/prospector/webhook"
)

// timeLayout is the API's timestamp format: UTC with milliseconds.
const timeLayout = "2006-01-02T15:04:05.000Z"

// Location is a lead's place as the API shows it everywhere (radar lead
// records, exports, deliveries): city, region and country name, those
// known, joined by ", "; "" when none is.
func Location(l *prospector.Lead) string {
	parts := make([]string, 0, 3)
	for _, s := range []string{l.City, l.Region, taxonomy.CountryName(l.CountryCode)} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

// Entry is l as deliveries carry it (the contract's lead entry).
func Entry(l *prospector.Lead) webhook.Lead {
	return webhook.Lead{ID: l.ID, FullName: l.FullName, FirstName: l.FirstName, LastName: l.LastName, Title: l.Title,
		Company: l.Company, NetworkURL: l.NetworkURL, Email: l.Email, Phone: l.Phone, Location: Location(l),
		Score: l.Score, Status: l.Status, RadarID: l.RadarID, CampaignID: l.CampaignID, CreatedAt: l.CreatedAt}
}

// Entries converts leads with Entry, in order.
func Entries(ls []*prospector.Lead) []webhook.Lead {
	out := make([]webhook.Lead, len(ls))
	for i, l := range ls {
		out[i] = Entry(l)
	}
	return out
}

// Record is the contract's Lead record, every field it lists, as a JSON
// export carries it: unknown values are null, except reply_content,
// feedback and feedback_reason, which the contract types as strings and
// are "" when none is recorded.
type Record struct {
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

func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func timeOrNull(t *time.Time) *string {
	if t == nil || t.IsZero() {
		return nil
	}
	s := t.UTC().Format(timeLayout)
	return &s
}

// NewRecord returns l's export record.
func NewRecord(l *prospector.Lead) Record {
	return Record{ID: l.ID, FullName: l.FullName, FirstName: orNull(l.FirstName), LastName: orNull(l.LastName),
		Title: orNull(l.Title), Company: orNull(l.Company), NetworkURL: orNull(l.NetworkURL), Email: orNull(l.Email),
		Phone: orNull(l.Phone), Location: orNull(Location(l)), Score: l.Score, Status: orNull(l.Status),
		Source: l.Source, RadarID: orNull(l.RadarID), CampaignID: orNull(l.CampaignID), CreatedAt: timeOrNull(&l.CreatedAt),
		RepliedAt: timeOrNull(l.RepliedAt), MeetingBookedAt: timeOrNull(l.MeetingBookedAt),
		ReplyContent: l.ReplyContent, Feedback: l.Feedback, FeedbackReason: l.FeedbackReason}
}

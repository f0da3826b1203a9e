package prospector

import (
	"context"
	"encoding/json"
	"time"
)

// SubjectRecord is everything the store holds about a subject, as
// `prospector privacy find` prints it for an access request: the rows
// themselves, where they came from and when.
type SubjectRecord struct {
	Subject   SubjectKind      `json:"subject_kind"`
	Companies []SubjectCompany `json:"companies"`
	People    []SubjectPerson  `json:"people"`
	Signals   []SubjectSignal  `json:"signals"`
	// Leads are per workspace: every workspace whose radars or pushes
	// hold the subject.
	Leads          []SubjectLead          `json:"leads"`
	EmailLookups   []SubjectEmailLookup   `json:"email_lookups"`
	Deliveries     []SubjectDelivery      `json:"deliveries"`
	FeedbackEvents []SubjectFeedbackEvent `json:"feedback_events"`
	SECFilings     []SubjectFiling        `json:"sec_filings"`
	// Suppressed is true when the subject is on the suppression list.
	Suppressed bool `json:"suppressed"`
}

// SubjectCompany is a company row with its provenance.
type SubjectCompany struct {
	ID        int64     `json:"id"`
	Domain    string    `json:"domain"`
	Name      string    `json:"name"`
	Watched   bool      `json:"watched"`
	Openings  int64     `json:"job_openings"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// SubjectPerson is a person row, every field it holds.
type SubjectPerson struct {
	ID            int64     `json:"id"`
	ExternalID    string    `json:"external_id"`
	FullName      string    `json:"full_name"`
	FirstName     string    `json:"first_name"`
	LastName      string    `json:"last_name"`
	Title         string    `json:"title"`
	JobLevel      string    `json:"job_level"`
	JobFunction   string    `json:"job_function"`
	CompanyID     *int64    `json:"company_id"`
	CompanyName   string    `json:"company_name"`
	CompanyDomain string    `json:"company_domain"`
	NetworkURL    string    `json:"network_url"`
	Email         string    `json:"email"`
	Phone         string    `json:"phone"`
	City          string    `json:"city"`
	Region        string    `json:"region"`
	CountryCode   string    `json:"country_code"`
	Score         *float64  `json:"score"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
	// Source is where the row came from: "network" when it has a profile
	// URL (a vendor's or the demo's record of a network profile),
	// "import" otherwise (a file the operator loaded).
	Source string `json:"source"`
}

// NewSubjectPerson is the record of p for an access request.
func NewSubjectPerson(p *Person) SubjectPerson {
	src := "import"
	if p.NetworkURL != "" {
		src = "network"
	}
	return SubjectPerson{ID: p.ID, ExternalID: p.ExternalID, FullName: p.FullName, FirstName: p.FirstName,
		LastName: p.LastName, Title: p.Title, JobLevel: p.JobLevel, JobFunction: p.JobFunction, CompanyID: p.CompanyID,
		CompanyName: p.CompanyName, CompanyDomain: p.CompanyDomain, NetworkURL: p.NetworkURL, Email: p.Email,
		Phone: p.Phone, City: p.City, Region: p.Region, CountryCode: p.CountryCode, Score: p.Score,
		CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt, Source: src}
}

// SubjectSignal is a signal naming the subject, with its source.
type SubjectSignal struct {
	ID         int64     `json:"id"`
	Type       string    `json:"type"`
	Title      string    `json:"title"`
	SourceURL  string    `json:"source_url"`
	DetectedAt time.Time `json:"detected_at"`
}

// SubjectLead is a lead holding the subject in one workspace.
type SubjectLead struct {
	Workspace string    `json:"workspace"`
	LeadID    string    `json:"lead_id"`
	RadarID   string    `json:"radar_id,omitempty"`
	Source    string    `json:"source"`
	FullName  string    `json:"full_name"`
	Email     string    `json:"email,omitempty"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"created_at"`
}

// SubjectEmailLookup is an enrich/email answer that gave the subject's
// address.
type SubjectEmailLookup struct {
	Workspace string    `json:"workspace"`
	Email     string    `json:"email"`
	CreatedAt time.Time `json:"created_at"`
}

// SubjectDelivery is a delivery of one of the subject's leads.
type SubjectDelivery struct {
	Workspace   string     `json:"workspace"`
	LeadID      string     `json:"lead_id"`
	Destination string     `json:"destination"`
	URL         string     `json:"url"`
	Status      string     `json:"status"`
	DeliveredAt *time.Time `json:"delivered_at,omitempty"`
	CreatedAt   time.Time  `json:"created_at"`
}

// SubjectFeedbackEvent is an outcome recorded on one of the subject's
// leads.
type SubjectFeedbackEvent struct {
	Workspace  string    `json:"workspace"`
	LeadID     string    `json:"lead_id"`
	Type       string    `json:"type"`
	Source     string    `json:"source"`
	OccurredAt time.Time `json:"occurred_at"`
}

// SubjectFiling is an SEC filing that names the subject (a person by
// name at the filer's domain).
type SubjectFiling struct {
	Accession string `json:"accession"`
	Form      string `json:"form"`
	Filed     string `json:"filed"`
	URL       string `json:"url"`
	Role      string `json:"role"`
	Name      string `json:"name"`
}

// Erasure is one row the erasure feed records, so every node's search
// index drops a deleted company or person (the change feed otherwise
// only ever carries rows that exist).
type Erasure struct {
	Seq   int64
	Kind  string // ErasedCompany, ErasedPerson or ErasedSignal
	RowID int64
}

// The kinds of Erasure.
const (
	ErasedCompany = "company"
	ErasedPerson  = "person"
	ErasedSignal  = "signal"
)

// EraseRequest is a deletion: the subject, and the list entry to add in
// the same transaction when it is also suppressed.
type EraseRequest struct {
	Subject Subject
	// Suppress are the list entries to add (replacing any of the same
	// hash); none: delete only. A person suppressed by one identifier is
	// entered under every one the store knows for them (profile URL,
	// address, name at their company's domain), so a lookup by another
	// cannot bring them back.
	Suppress []*Suppression
	Actor    string // who asked: "cli", or a key prefix
	// SubjectID names the subject in audit events: the short form of its
	// keyed hash, never the raw value.
	SubjectID string
}

// Erased counts what an erasure removed.
type Erased struct {
	Companies      int64 `json:"companies"`
	People         int64 `json:"people"`
	Signals        int64 `json:"signals"`
	Leads          int64 `json:"leads"`
	EmailLookups   int64 `json:"email_lookups"`
	FeedbackEvents int64 `json:"feedback_events"`
	// Cancelled counts the pending deliveries that will not be sent.
	Cancelled  int64    `json:"cancelled_deliveries"`
	SECPeople  int64    `json:"sec_filing_people"`
	Suppressed bool     `json:"suppressed"`
	Workspaces []string `json:"workspaces"` // names of those whose leads went
}

// PrivacyStore answers subject requests.
type PrivacyStore interface {
	// FindSubject returns every row naming s. The suppression secret is
	// needed to tell whether s is suppressed.
	FindSubject(ctx context.Context, s Subject, secret string) (*SubjectRecord, error)
	// EraseSubject deletes every row naming r.Subject in one transaction:
	// companies and people (recording each in the erasure feed), their
	// signals, leads in every workspace with their feedback, email
	// lookups and outcomes; it cancels pending deliveries of those leads
	// and empties the payloads of sent ones. With r.Suppress it adds the
	// entry (replacing one of the same hash) in the same transaction. It
	// appends an audit event to each workspace that lost leads and one
	// for the deployment.
	EraseSubject(ctx context.Context, r EraseRequest, now time.Time) (*Erased, error)
	// ErasuresSince returns up to limit erasures recorded after seq, by
	// Seq.
	ErasuresSince(ctx context.Context, seq int64, limit int) ([]Erasure, error)
}

// EraseAudit is the audit event of an erasure, for the workspace
// workspaceID ("" for the deployment) that lost leads of its leads.
func EraseAudit(r EraseRequest, workspaceID string, leads int64, now time.Time) *AuditEvent {
	detail, _ := json.Marshal(map[string]any{
		"subject_kind": r.Subject.Kind, "leads_removed": leads, "suppressed": len(r.Suppress) > 0,
	})
	return &AuditEvent{WorkspaceID: workspaceID, Action: AuditPrivacyErase, Actor: r.Actor, Target: r.SubjectID,
		Detail: string(detail), CreatedAt: now}
}

package prospector

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/binary"
	"errors"
	"regexp"
	"strings"
	"time"
)

// Lead is a person a radar (or, later, another source) surfaced for a
// workspace. The person's card is copied when the lead is written, so a
// lead reads the same whatever happens to the shared dataset later; each
// new match refreshes it.
type Lead struct {
	ID          string // "ld_" + 128 random bits
	WorkspaceID string
	RadarID     string // "" for leads of other sources
	Source      string // "radar" for radar leads
	PersonID    int64
	CompanyID   *int64
	FullName    string
	FirstName   string
	LastName    string
	Title       string
	Company     string
	NetworkURL  string
	City        string
	Region      string
	CountryCode string
	// Email and Phone stay empty until enrichment finds them.
	Email string
	Phone string
	// Score is the best score of the lead's signals (docs/scoring.md);
	// Breakdown explains it.
	Score           *float64
	Breakdown       *ScoreBreakdown
	Status          string // one of LeadStatuses; "detected" when created
	CampaignID      string
	RepliedAt       *time.Time
	MeetingBookedAt *time.Time
	ReplyContent    string
	Feedback        string
	FeedbackReason  string
	// LastSignalAt is the detection time of the newest signal attached.
	LastSignalAt time.Time
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// ScoreBreakdown is a match score by component (docs/scoring.md); Total
// is their sum, capped at 100.
type ScoreBreakdown struct {
	Total      float64 `json:"total"`
	SignalType float64 `json:"signal_type"`
	Recency    float64 `json:"recency"`
	TitleFit   float64 `json:"title_fit"`
	CompanyFit float64 `json:"company_fit"`
	// Type and SignalID name the signal that scored it.
	Type     string `json:"type"`
	SignalID int64  `json:"signal_id"`
}

var leadIDShape = regexp.MustCompile(`^ld_[a-z2-7]{36}$`)

var leadIDEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewLeadID returns a new opaque, unguessable lead id: "ld_" and, in
// lowercase base32, the creation time in milliseconds (6 bytes) followed
// by 128 random bits. The time first makes ids ascend as leads are
// written, so a backfill of a hundred thousand leads appends to the
// indexes on lead ids instead of rewriting pages all over them; the
// random part is what makes an id unguessable, as NewID's are.
func NewLeadID() string {
	b := make([]byte, 22)
	binary.BigEndian.PutUint64(b[:8], uint64(time.Now().UnixMilli())<<16)
	if _, err := rand.Read(b[6:]); err != nil {
		panic("prospector: crypto/rand: " + err.Error()) // see randomToken
	}
	return "ld_" + strings.ToLower(leadIDEncoding.EncodeToString(b))
}

// ValidLeadID reports whether id has the shape NewLeadID gives.
func ValidLeadID(id string) bool { return leadIDShape.MatchString(id) }

// SignalMatch is one signal that matched a lead, scored.
type SignalMatch struct {
	SignalID   int64
	DetectedAt time.Time
	Score      ScoreBreakdown
}

// LeadMatch is a person a radar matched in a batch of signals, with a
// copy of their card and the matching signals, best first.
type LeadMatch struct {
	RadarID     string
	WorkspaceID string
	Lead        Lead // the card fields: PersonID, CompanyID, names, title, company, URL, location
	Signals     []SignalMatch
}

// RadarCursor moves a radar's scan cursor from From to To; the write
// fails with ErrCursorMoved when the stored cursor is not From, so two
// workers can never both apply the same batch.
type RadarCursor struct {
	RadarID  string
	From, To int64
}

// LeadBatch is what one transaction of the engine writes.
type LeadBatch struct {
	// Matches in priority order: when a workspace's radar signals quota
	// runs out, the earlier matches are the ones kept.
	Matches []LeadMatch
	Cursors []RadarCursor
	// Backfilled are the radars whose backfill this batch completes.
	Backfilled []string
	Now        time.Time
	// AutoSync, when set, queues the auto-sync deliveries of the leads
	// the batch creates inside the batch's own transaction, so that a
	// crash right after the commit cannot lose them (see AutoSyncFunc).
	AutoSync AutoSyncFunc
	// Created is filled by PlanLeadBatch (so by ApplyLeadBatch): each
	// workspace's ids of the leads the batch creates.
	Created map[string][]string
}

// WriteTime is the time b's rows are written at: b.Now, or the current
// time when it is zero.
func (b *LeadBatch) WriteTime() time.Time {
	if b.Now.IsZero() {
		return time.Now()
	}
	return b.Now
}

// LeadBatchResult counts what a batch wrote.
type LeadBatchResult struct {
	LeadsCreated  int
	LeadsUpdated  int
	SignalsAdded  int // new lead-signal attachments, what the quota counts
	OverQuota     int // attachments left out because a quota ran out
	AlreadyStored int // attachments that were already there
}

// ErrCursorMoved: a radar's cursor was not where the batch expected it;
// another worker processed those signals. Nothing of the batch is written.
var ErrCursorMoved = errors.New("radar cursor moved")

// LeadKey identifies a radar's lead for a person.
type LeadKey struct {
	RadarID  string
	PersonID int64
}

// AttachKey identifies a signal attached to a lead.
type AttachKey struct {
	LeadID   string
	SignalID int64
}

// PlannedLead is one lead write of a batch: the lead (an existing id, or
// a new one when New) and the signals to attach to it.
type PlannedLead struct {
	Match   *LeadMatch
	ID      string
	New     bool
	Signals []SignalMatch
	Best    *ScoreBreakdown // the best of Signals
	Last    time.Time       // the newest DetectedAt of Signals
}

// PlanLeadBatch decides what a batch writes, given the leads already
// stored (by radar and person), the attachments already stored and the
// radar signals each workspace has left (absent: unlimited). Matches are
// taken in order; each signal not yet attached costs one unit of its
// workspace's remaining quota; a match without any new signal to attach
// writes nothing. It is shared by the engines, which differ only in how
// they read existing and write the plan.
func PlanLeadBatch(b *LeadBatch, existing map[LeadKey]string, attached map[AttachKey]bool,
	remaining map[string]int64) ([]PlannedLead, LeadBatchResult) {
	b.Created = map[string][]string{}
	var res LeadBatchResult
	var out []PlannedLead
	index := map[LeadKey]int{} // a person matched twice in the batch is one lead
	for i := range b.Matches {
		m := &b.Matches[i]
		key := LeadKey{m.RadarID, m.Lead.PersonID}
		pos, seen := index[key]
		if !seen {
			id, ok := existing[key]
			p := PlannedLead{Match: m, ID: id}
			if !ok {
				p.ID, p.New = NewLeadID(), true
			}
			out = append(out, p)
			pos = len(out) - 1
			index[key] = pos
		}
		p := &out[pos]
		for _, s := range m.Signals {
			ak := AttachKey{p.ID, s.SignalID}
			if attached[ak] {
				res.AlreadyStored++
				continue
			}
			if left, limited := remaining[m.WorkspaceID]; limited {
				if left <= 0 {
					res.OverQuota++
					continue
				}
				remaining[m.WorkspaceID] = left - 1
			}
			attached[ak] = true
			p.Signals = append(p.Signals, s)
			if p.Best == nil || s.Score.Total > p.Best.Total {
				best := s.Score
				p.Best = &best
			}
			if s.DetectedAt.After(p.Last) {
				p.Last = s.DetectedAt
			}
		}
	}
	kept := out[:0]
	for _, p := range out {
		if len(p.Signals) == 0 {
			continue
		}
		kept = append(kept, p)
		res.SignalsAdded += len(p.Signals)
		if p.New {
			res.LeadsCreated++
			b.Created[p.Match.WorkspaceID] = append(b.Created[p.Match.WorkspaceID], p.ID)
		} else {
			res.LeadsUpdated++
		}
	}
	return kept, res
}

// SignalsAdded counts by workspace the signals plan attaches: what each
// workspace's radar signals quota is charged for the batch.
func SignalsAdded(plan []PlannedLead) map[string]int64 {
	added := map[string]int64{}
	for _, p := range plan {
		added[p.Match.WorkspaceID] += int64(len(p.Signals))
	}
	return added
}

// LeadFilter selects a radar's leads: score at least MinScore (nil: any)
// and a signal detected at or after Since (nil: any time), best first
// (score, then newest signal, then id), at most Limit.
type LeadFilter struct {
	RadarID  string
	MinScore *float64
	Since    *time.Time
	Limit    int
}

// LeadStore persists leads.
type LeadStore interface {
	// ApplyLeadBatch writes a batch in one transaction: the leads and
	// their signals as PlanLeadBatch decides under each workspace's radar
	// signals quota, the quota usage, the cursors (ErrCursorMoved, and
	// nothing written, when one moved) and the completed backfills.
	ApplyLeadBatch(ctx context.Context, b *LeadBatch) (LeadBatchResult, error)
	// RadarLeads returns the leads f selects.
	RadarLeads(ctx context.Context, f LeadFilter) ([]*Lead, error)
	// LeadSignals returns the newest perLead signals of each lead detected
	// at or after since (nil: any time), grouped by lead in the order of
	// ids, newest first within a lead.
	LeadSignals(ctx context.Context, leadIDs []string, since *time.Time, perLead int) ([]*LeadSignal, error)
	// RadarSignals returns the signals attached to a radar's leads
	// detected at or after since, newest first (then by signal and lead
	// id), at most limit.
	RadarSignals(ctx context.Context, radarID string, since *time.Time, limit int) ([]*LeadSignal, error)
	// LeadsByID returns the workspace's leads among ids, in no order;
	// ids of other workspaces are left out.
	LeadsByID(ctx context.Context, workspaceID string, ids []string) ([]*Lead, error)
}

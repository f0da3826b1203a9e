package prospector

import (
	"context"
	"time"
)

// Signal is one buying signal: something a person did (a post, a job
// change, an event RSVP) or something that happened at a company (hiring,
// funding, a technology change). Its natural key is ExternalID.
type Signal struct {
	ID            int64
	ExternalID    string
	Type          string // one of SignalTypes, or tech_changes
	CompanyID     *int64
	CompanyDomain string
	PersonID      *int64
	PersonKey     string // the person's natural key, resolved to PersonID
	Title         string
	Detail        string
	SourceURL     string
	DetectedAt    time.Time
	Score         *float64
	// Seq orders writes: it grows with every insert or update.
	Seq       int64
	CreatedAt time.Time
}

// ValidSignalType reports whether t is a person or company signal type.
func ValidSignalType(t string) bool {
	if t == "tech_changes" {
		return true
	}
	for _, s := range SignalTypes() {
		if s == t {
			return true
		}
	}
	return false
}

// SignalFeedFilter selects signals of one type across all companies,
// newest first (detected_at, then id, descending). Zero fields do not
// filter.
type SignalFeedFilter struct {
	Type      string
	Since     *time.Time // inclusive lower bound on DetectedAt
	CompanyID *int64
	Industry  string // canonical industry of the signal's company
	Country   string // ISO code of the signal's company
	Offset    int
	Limit     int
}

// SignalStore persists signals.
type SignalStore interface {
	// UpsertSignals inserts or updates by ExternalID in one transaction.
	UpsertSignals(ctx context.Context, ss []*Signal) (UpsertResult, error)
	// SignalsByCompanies returns the newest perCompany signals of each of
	// the companies in one round trip, ordered by company id, then newest
	// first. Unknown ids contribute nothing.
	SignalsByCompanies(ctx context.Context, companyIDs []int64, perCompany int) ([]*Signal, error)
	// SignalFeed returns the signals matching f, newest first.
	SignalFeed(ctx context.Context, f SignalFeedFilter) ([]*Signal, error)
	// SignalsChangedSince returns up to limit signals written after seq,
	// by Seq: what a search index replays to catch up.
	SignalsChangedSince(ctx context.Context, seq int64, limit int) ([]*Signal, error)
	// ListSignals returns up to limit signals with ID > after, by ID.
	ListSignals(ctx context.Context, after int64, limit int) ([]*Signal, error)
	// CountSignals counts every signal.
	CountSignals(ctx context.Context) (int64, error)
}

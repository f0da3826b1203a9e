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
	CreatedAt     time.Time
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

// SignalStore persists signals.
type SignalStore interface {
	// UpsertSignals inserts or updates by ExternalID in one transaction.
	UpsertSignals(ctx context.Context, ss []*Signal) (UpsertResult, error)
	// SignalsByCompany returns a company's signals, newest first.
	SignalsByCompany(ctx context.Context, companyID int64, limit int) ([]*Signal, error)
	// ListSignals returns up to limit signals with ID > after, by ID.
	ListSignals(ctx context.Context, after int64, limit int) ([]*Signal, error)
	// CountSignals counts every signal.
	CountSignals(ctx context.Context) (int64, error)
}

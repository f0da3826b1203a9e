package prospector

import (
	"context"
	"strings"
	"time"
)

// Person is someone working at a company. Its natural key is the
// normalised NetworkURL, else ExternalID.
type Person struct {
	ID            int64
	ExternalID    string
	FullName      string
	FirstName     string
	LastName      string
	Title         string
	JobLevel      string // taxonomy level, derived from Title
	JobFunction   string // taxonomy function, derived from Title
	CompanyID     *int64 // the current company, when known
	CompanyName   string
	CompanyDomain string
	NetworkURL    string
	Email         string
	Phone         string
	City          string
	Region        string
	CountryCode   string
	Score         *float64
	// Seq orders writes: it grows with every insert or update.
	Seq       int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// NaturalKey is what an upsert matches on.
func (p *Person) NaturalKey() string {
	if p.NetworkURL != "" {
		return "url:" + p.NetworkURL
	}
	return "id:" + p.ExternalID
}

// PublicID is the contract's opaque person id: the profile URL when
// known, otherwise the source id.
func (p *Person) PublicID() string {
	if p.NetworkURL != "" {
		return p.NetworkURL
	}
	return "person:" + p.ExternalID
}

// PersonStore persists people.
type PersonStore interface {
	// UpsertPeople inserts or updates by NaturalKey in one transaction and
	// fills each person's ID. People must already be normalised and their
	// CompanyID resolved.
	UpsertPeople(ctx context.Context, ps []*Person) (UpsertResult, error)
	// PersonByKey returns ErrNotFound when no person has the natural key.
	PersonByKey(ctx context.Context, naturalKey string) (*Person, error)
	// PeopleByID returns the people with those ids, in no order.
	PeopleByID(ctx context.Context, ids []int64) ([]*Person, error)
	// PersonCards is PeopleByID for result lists: it fills only ID,
	// ExternalID, FullName, Title, CompanyName, NetworkURL, City, Region,
	// CountryCode and Score.
	PersonCards(ctx context.Context, ids []int64) ([]*Person, error)
	// PeopleAtCompany returns the people whose current company is id.
	PeopleAtCompany(ctx context.Context, companyID int64) ([]*Person, error)
	// ListPeople returns up to limit people with ID > after, by ID.
	ListPeople(ctx context.Context, after int64, limit int) ([]*Person, error)
	// CountPeople counts every person.
	CountPeople(ctx context.Context) (int64, error)
	// PeopleChangedSince returns up to limit people written after seq, by
	// Seq, for the search index: it fills only ID, Seq, ExternalID,
	// FullName, Title, JobLevel, JobFunction, CompanyID, CompanyName,
	// NetworkURL, City, Region, CountryCode and Score (a cold build reads
	// every person, and the other columns were a third of its reading).
	PeopleChangedSince(ctx context.Context, seq int64, limit int) ([]*Person, error)
	// PersonIDsByKey maps those of the natural keys that are stored to
	// their person ids.
	PersonIDsByKey(ctx context.Context, keys []string) (map[string]int64, error)
}

// nameAffixes are the honorifics and suffixes SplitName drops.
var nameAffixes = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "mx": true, "dr": true, "prof": true, "sir": true,
	"jr": true, "sr": true, "ii": true, "iii": true, "iv": true, "phd": true, "md": true, "mba": true, "cpa": true,
}

// SplitName returns the first and last name of a full name, leaving out
// honorifics, suffixes and middle names: "Dr. Ada M. Quill, PhD" is
// "Ada", "Quill". A single word is a first name.
func SplitName(full string) (first, last string) {
	var words []string
	for _, w := range strings.FieldsFunc(full, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
		if !nameAffixes[strings.ToLower(strings.TrimSuffix(w, "."))] {
			words = append(words, w)
		}
	}
	switch len(words) {
	case 0:
		return "", ""
	case 1:
		return words[0], ""
	}
	return words[0], words[len(words)-1]
}

package prospector

import (
	"context"
	"time"
)

// Company is an account: the unit discovery, signals and contacts revolve
// around. Its natural key is the normalised Domain.
type Company struct {
	// ID is the dense row id the search index keys its bitmaps by.
	ID            int64
	Name          string
	Domain        string
	Website       string
	Industry      string // canonical label of the taxonomy
	Description   string
	Keywords      []string
	City          string
	Region        string
	CountryCode   string // ISO 3166-1 alpha-2
	EmployeeCount *int64
	EmployeeRange string // one of the taxonomy's buckets
	Founded       *int64
	RevenueUSD    *int64 // annual revenue estimate
	NetworkURL    string // company profile URL on the professional network
	Ticker        string
	// Seq orders writes: it grows with every insert or update.
	Seq       int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// PublicID is the contract's opaque company id: the profile URL when known,
// otherwise a stable id derived from the domain.
func (c *Company) PublicID() string {
	if c.NetworkURL != "" {
		return c.NetworkURL
	}
	return "company:" + c.Domain
}

// UpsertResult counts what a batch upsert did. Unchanged rows were already
// stored exactly so: importing a file twice reports them all unchanged.
type UpsertResult struct {
	Inserted  int
	Updated   int
	Unchanged int
	// Suppressed counts the rows left out because their subject is on
	// the suppression list: they were not written.
	Suppressed int
}

// Add accumulates another batch's counts.
func (r *UpsertResult) Add(o UpsertResult) {
	r.Inserted += o.Inserted
	r.Updated += o.Updated
	r.Unchanged += o.Unchanged
	r.Suppressed += o.Suppressed
}

// CompanyStore persists companies.
type CompanyStore interface {
	// UpsertCompanies inserts or updates by Domain in one transaction and
	// fills each company's ID. Companies must already be normalised.
	UpsertCompanies(ctx context.Context, cs []*Company) (UpsertResult, error)
	// CompanyByDomain returns ErrNotFound when no company has the domain.
	CompanyByDomain(ctx context.Context, domain string) (*Company, error)
	// CompanyByName returns the company whose name equals name, ignoring
	// case; with namesakes, the one with most employees (then lowest id).
	// ErrNotFound when none.
	CompanyByName(ctx context.Context, name string) (*Company, error)
	// CompanyByNetworkURL returns ErrNotFound when no company has the URL.
	CompanyByNetworkURL(ctx context.Context, url string) (*Company, error)
	// CompaniesByID returns the companies with those ids, in no order.
	CompaniesByID(ctx context.Context, ids []int64) ([]*Company, error)
	// CompanyCards is CompaniesByID for result lists: it fills only ID,
	// Name, Domain, Website, Industry, City, Region, CountryCode,
	// EmployeeCount, EmployeeRange and NetworkURL, which is much cheaper to
	// read than whole rows.
	CompanyCards(ctx context.Context, ids []int64) ([]*Company, error)
	// ListCompanies returns up to limit companies with ID > after, by ID:
	// a keyset walk over the whole table.
	ListCompanies(ctx context.Context, after int64, limit int) ([]*Company, error)
	// CountCompanies counts every company.
	CountCompanies(ctx context.Context) (int64, error)
	// CompaniesChangedSince returns up to limit companies written after
	// seq, by Seq: what a search index replays to catch up. It fills
	// every field but Founded, Ticker, CreatedAt and UpdatedAt, which the
	// index does not keep.
	CompaniesChangedSince(ctx context.Context, seq int64, limit int) ([]*Company, error)
	// CompanyIDsByDomain maps those of the domains that are stored to
	// their company ids: one round trip for a batch of references.
	CompanyIDsByDomain(ctx context.Context, domains []string) (map[string]int64, error)
	// CompanyIDsByNetworkURL does the same for company profile URLs.
	CompanyIDsByNetworkURL(ctx context.Context, urls []string) (map[string]int64, error)
}

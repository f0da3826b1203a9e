package prospector

import (
	"context"
	"fmt"
	"time"
)

// Quota names a counted plan limit.
type Quota string

const (
	QuotaRadars          Quota = "radars"
	QuotaNetworkAccounts Quota = "network_accounts"
)

// QuotaUsage is one counted limit as credit-usage reports it.
type QuotaUsage struct {
	Used int64
	Limit
}

// CreditUsage is the workspace's standing in its current billing period.
type CreditUsage struct {
	Workspace       Workspace
	PeriodStart     time.Time
	PeriodEnd       time.Time
	CreditsUsed     int64
	Credits         Limit
	Radars          QuotaUsage
	NetworkAccounts QuotaUsage
	RadarSignals    Limit
}

// NewCreditUsage returns the usage of w's current period, as the store
// holds it: w's period and limits with the credits, radars and network
// accounts used in it.
func NewCreditUsage(w *Workspace, creditsUsed, radarsUsed, networkAccountsUsed int64) *CreditUsage {
	return &CreditUsage{Workspace: *w, PeriodStart: w.PeriodStart, PeriodEnd: w.PeriodEnd,
		CreditsUsed: creditsUsed, Credits: w.Credits,
		Radars:          QuotaUsage{Used: radarsUsed, Limit: w.Radars},
		NetworkAccounts: QuotaUsage{Used: networkAccountsUsed, Limit: w.NetworkAccounts},
		RadarSignals:    w.RadarSignals}
}

// Remaining returns the credits left, or nil when unlimited.
func (u *CreditUsage) Remaining() *int64 {
	if u.Credits.Limit == nil {
		return nil
	}
	r := *u.Credits.Limit - u.CreditsUsed
	if r < 0 {
		r = 0
	}
	return &r
}

// Charge is one entry of the credit ledger.
type Charge struct {
	ID             string
	WorkspaceID    string
	Amount         int64
	Reason         string
	IdempotencyKey string
	CreatedAt      time.Time
}

// Validate refuses a negative amount: a charge never gives credits back.
// The error is internal (callers compute amounts, users never send them).
func (c *Charge) Validate() error {
	if c.Amount < 0 {
		return fmt.Errorf("charge: negative amount %d", c.Amount)
	}
	return nil
}

// CreditStore keeps the credit ledger and the counted quotas. Every
// change is a conditional UPDATE inside one transaction, so concurrent
// callers can never overdraw or double-charge.
type CreditStore interface {
	// CreditUsage returns the usage in the period containing now, rolling
	// the period over first when it has ended.
	CreditUsage(ctx context.Context, workspaceID string, now time.Time) (*CreditUsage, error)
	// ChargeCredits records c and adds c.Amount to the period's usage.
	// ErrInsufficientCredits when the limit would be exceeded (unless the
	// workspace is unlimited or bypassed). A charge whose IdempotencyKey
	// was already used in the workspace is not applied again: the first
	// charge is returned with replayed true.
	ChargeCredits(ctx context.Context, c *Charge, now time.Time) (replayed bool, err error)
	// AcquireQuota takes one unit of q; ErrQuotaExceeded at the limit.
	AcquireQuota(ctx context.Context, workspaceID string, q Quota) error
	// ReleaseQuota gives one unit of q back, never going below zero.
	ReleaseQuota(ctx context.Context, workspaceID string, q Quota) error
}

// Package account holds the account workflows: a workspace's credits,
// quotas and plan (GET /account/credit-usage) and the enumerated values
// requests take (GET /meta/field-values), for every front end.
package account

import (
	"context"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/wire"
)

// Service runs the account workflows.
type Service struct {
	Store Store
	Now   func() time.Time // default time.Now
}

// Store is what Service reads.
type Store interface {
	CreditUsage(ctx context.Context, workspaceID string, now time.Time) (*prospector.CreditUsage, error)
	ListAPIKeys(ctx context.Context, workspaceID string) ([]*prospector.APIKey, error)
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Workspace is the workspace member of key-info and credit-usage.
type Workspace struct {
	ID     string `json:"id"`
	UserID string `json:"user_id"`
	Role   string `json:"role"`
	Email  string `json:"email"`
}

// WorkspaceOf is the workspace member of a caller.
func WorkspaceOf(p *prospector.Principal) Workspace {
	return Workspace{ID: p.Workspace.ID, UserID: p.Workspace.OwnerUserID, Role: p.Key.Role, Email: p.Workspace.Email}
}

// CreditUsage is GET /account/credit-usage's answer.
type CreditUsage struct {
	Workspace    Workspace    `json:"workspace"`
	Subscription Subscription `json:"subscription"`
	Credits      Credits      `json:"credits"`
	Limits       Limits       `json:"limits"`
	GeneratedAt  string       `json:"generated_at"`
	// PeriodStart, PeriodEnd and Now place the billing period in time,
	// for a front end that draws it (the console); the API's answer does
	// not carry them.
	PeriodStart time.Time `json:"-"`
	PeriodEnd   time.Time `json:"-"`
	Now         time.Time `json:"-"`
}

// Subscription is the plan part of CreditUsage.
type Subscription struct {
	Tier             string  `json:"tier"`
	Status           *string `json:"status"`
	CurrentPeriodEnd *string `json:"current_period_end"`
	PendingPlan      *string `json:"pending_plan"`
	PendingPlanAt    *string `json:"pending_plan_at"`
}

// Credits are the period's credits.
type Credits struct {
	Total     *int64 `json:"total"`
	Used      int64  `json:"used"`
	Remaining *int64 `json:"remaining"`
	Unlimited bool   `json:"unlimited"`
	Bypassed  bool   `json:"bypassed"`
}

// Limits are the workspace's quotas.
type Limits struct {
	Radars          Quota `json:"radars"`
	NetworkAccounts Quota `json:"networkAccounts"`
	RadarSignals    Limit `json:"radarSignals"`
}

// Quota is a limit and how much of it is used.
type Quota struct {
	Used int64 `json:"used"`
	Limit
}

// Limit is a quota's limit: null when unlimited.
type Limit struct {
	Limit     *int64 `json:"limit"`
	Unlimited bool   `json:"unlimited"`
	Bypassed  bool   `json:"bypassed"`
}

func limitOf(l prospector.Limit) Limit {
	return Limit{Limit: l.Limit, Unlimited: l.Unlimited(), Bypassed: l.Bypassed}
}

var errNoWorkspace = prospector.Errorf(prospector.ENOTFOUND, "The workspace context could not be resolved.")

// CreditUsage returns the caller's workspace's credits and quotas for the
// current billing period; 404 when the workspace cannot be read.
func (s *Service) CreditUsage(ctx context.Context, p *prospector.Principal) (*CreditUsage, error) {
	if p == nil {
		return nil, errNoWorkspace
	}
	now := s.now()
	u, err := s.Store.CreditUsage(ctx, p.Workspace.ID, now)
	if err != nil {
		if prospector.ErrorCode(err) == prospector.ENOTFOUND {
			return nil, errNoWorkspace
		}
		return nil, err
	}
	ws := u.Workspace
	status := ws.SubscriptionStatus()
	var pendingPlan, pendingAt *string
	if ws.PendingPlan != "" {
		pendingPlan = &ws.PendingPlan
	}
	if ws.PendingPlanAt != nil {
		t := wire.Timestamp(*ws.PendingPlanAt)
		pendingAt = &t
	}
	periodEnd := wire.Timestamp(u.PeriodEnd)
	return &CreditUsage{
		Workspace: Workspace{ID: ws.ID, UserID: ws.OwnerUserID, Role: p.Key.Role, Email: ws.Email},
		Subscription: Subscription{Tier: ws.Plan, Status: &status, CurrentPeriodEnd: &periodEnd,
			PendingPlan: pendingPlan, PendingPlanAt: pendingAt},
		Credits: Credits{Total: u.Credits.Limit, Used: u.CreditsUsed, Remaining: u.Remaining(),
			Unlimited: u.Credits.Unlimited(), Bypassed: u.Credits.Bypassed},
		Limits: Limits{
			Radars:          Quota{Used: u.Radars.Used, Limit: limitOf(u.Radars.Limit)},
			NetworkAccounts: Quota{Used: u.NetworkAccounts.Used, Limit: limitOf(u.NetworkAccounts.Limit)},
			RadarSignals:    limitOf(u.RadarSignals),
		},
		GeneratedAt: wire.Timestamp(now),
		PeriodStart: u.PeriodStart, PeriodEnd: u.PeriodEnd, Now: now,
	}, nil
}

// Key is one of a workspace's keys as a listing shows it: never its
// secret or hash, only the prefix people tell keys apart by.
type Key struct {
	ID        string
	Prefix    string
	Tier      string
	Role      string
	CreatedAt time.Time
	ExpiresAt *time.Time
	RevokedAt *time.Time
	Active    bool
}

// Keys returns the caller's workspace's keys, newest first; 404 when the
// caller has no workspace.
func (s *Service) Keys(ctx context.Context, p *prospector.Principal) ([]Key, error) {
	if p == nil {
		return nil, errNoWorkspace
	}
	keys, err := s.Store.ListAPIKeys(ctx, p.Workspace.ID)
	if err != nil {
		return nil, fmt.Errorf("account: keys: %w", err)
	}
	now := s.now()
	out := make([]Key, 0, len(keys))
	for _, k := range keys {
		out = append(out, Key{ID: k.ID, Prefix: k.Prefix, Tier: k.Tier, Role: k.Role, CreatedAt: k.CreatedAt,
			ExpiresAt: k.ExpiresAt, RevokedAt: k.RevokedAt, Active: k.Active(now)})
	}
	return out, nil
}

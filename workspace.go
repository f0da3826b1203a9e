package prospector

import (
	"context"
	"fmt"
	"regexp"
	"time"
)

// Plan names double as subscription tiers and API key tiers.
const (
	PlanDefault = "default"
	PlanStarter = "starter"
	PlanGrowth  = "growth"
)

// Plans lists the plan names in ascending order.
func Plans() []string { return []string{PlanDefault, PlanStarter, PlanGrowth} }

// ValidPlan reports whether p is a known plan or tier name.
func ValidPlan(p string) bool {
	return p == PlanDefault || p == PlanStarter || p == PlanGrowth
}

// Limit is one quota: Limit nil means unlimited; Bypassed means the limit
// is known but deliberately not enforced.
type Limit struct {
	Limit    *int64
	Bypassed bool
}

// Unlimited reports whether the quota never blocks.
func (l Limit) Unlimited() bool { return l.Limit == nil }

// Enforced reports whether the quota can block: it has a limit and is
// not bypassed.
func (l Limit) Enforced() bool { return l.Limit != nil && !l.Bypassed }

// Remaining returns the units left after used (negative when used went
// past the limit), and whether the quota is enforced at all: when it is
// not, nothing is counted against it and left is 0.
func (l Limit) Remaining(used int64) (left int64, enforced bool) {
	if !l.Enforced() {
		return 0, false
	}
	return *l.Limit - used, true
}

// PlanLimits are the allocations a plan brings. A nil pointer is unlimited.
type PlanLimits struct {
	Credits         *int64
	Radars          *int64
	NetworkAccounts *int64
	RadarSignals    *int64
}

func ptr(n int64) *int64 { return &n }

// DefaultPlanLimits returns what a new workspace on plan gets.
func DefaultPlanLimits(plan string) PlanLimits {
	switch plan {
	case PlanGrowth:
		return PlanLimits{Credits: ptr(10000), Radars: ptr(25), NetworkAccounts: ptr(10), RadarSignals: ptr(100000)}
	case PlanStarter:
		return PlanLimits{Credits: ptr(1000), Radars: ptr(5), NetworkAccounts: ptr(3), RadarSignals: ptr(10000)}
	default:
		return PlanLimits{Credits: ptr(100), Radars: ptr(1), NetworkAccounts: ptr(1), RadarSignals: ptr(1000)}
	}
}

// Workspace is the tenant every call is scoped to.
type Workspace struct {
	ID              string
	Name            string
	Plan            string
	OwnerUserID     string
	Email           string
	PublicAPI       bool
	Credits         Limit
	Radars          Limit
	NetworkAccounts Limit
	RadarSignals    Limit
	PeriodStart     time.Time
	PeriodEnd       time.Time
	PendingPlan     string
	PendingPlanAt   *time.Time
	CreatedAt       time.Time
}

// SubscriptionStatus is "none" on the free default plan and "active" on a
// paid one.
func (w *Workspace) SubscriptionStatus() string {
	if w.Plan == PlanDefault {
		return "none"
	}
	return "active"
}

var workspaceName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,62}$`)

// Validate checks the fields a caller chooses.
func (w *Workspace) Validate() error {
	if !workspaceName.MatchString(w.Name) {
		return Errorf(EINVALID, "name: must be 1-63 lowercase letters, digits, '-' or '_', starting with a letter or digit")
	}
	if !ValidPlan(w.Plan) {
		return Errorf(EINVALID, "plan: must be one of default, starter, growth")
	}
	if w.Email != "" && !validEmail(w.Email) {
		return Errorf(EINVALID, "email: not a valid address")
	}
	if w.Credits.Limit != nil && *w.Credits.Limit < 0 {
		return Errorf(EINVALID, "credits: must not be negative")
	}
	if w.Radars.Limit != nil && *w.Radars.Limit < 0 {
		return Errorf(EINVALID, "radars: must not be negative")
	}
	return nil
}

var emailShape = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)

func validEmail(s string) bool { return emailShape.MatchString(s) }

// Start fills what a workspace gets when it is created at now: a new ID,
// an owner id when it has none, CreatedAt, and a first billing period
// beginning at now (periods then follow monthly from it).
func (w *Workspace) Start(now time.Time) {
	w.ID = NewID("ws")
	if w.OwnerUserID == "" {
		w.OwnerUserID = NewID("usr")
	}
	w.CreatedAt = now
	w.PeriodStart, w.PeriodEnd = BillingPeriod(now, now)
}

// BillingPeriod returns the one-month period containing now for a
// workspace whose periods started at anchor.
func BillingPeriod(anchor, now time.Time) (start, end time.Time) {
	start = anchor
	for !now.Before(start.AddDate(0, 1, 0)) {
		start = start.AddDate(0, 1, 0)
	}
	return start, start.AddDate(0, 1, 0)
}

// WorkspaceStore persists workspaces.
type WorkspaceStore interface {
	// CreateWorkspace inserts w, filling ID and CreatedAt; ErrAlreadyExists
	// when the name is taken.
	CreateWorkspace(ctx context.Context, w *Workspace) error
	// WorkspaceByName returns ErrNotFound when there is no such workspace.
	WorkspaceByName(ctx context.Context, name string) (*Workspace, error)
	// WorkspaceByID returns ErrNotFound when there is no such workspace.
	WorkspaceByID(ctx context.Context, id string) (*Workspace, error)
	// CountWorkspaces tells whether the store is empty (for the demo).
	CountWorkspaces(ctx context.Context) (int, error)
	// ListWorkspaces returns every workspace, by name.
	ListWorkspaces(ctx context.Context) ([]*Workspace, error)
	// UpdateWorkspace stores w's plan, public API switch, limits and
	// pending plan (the workspace is found by w.ID; name, owner, email and
	// billing period are not changed) and, when move.From is set, gives
	// the workspace's unrevoked keys of tier move.From the tier move.To,
	// in one transaction. It returns how many keys it moved. A validation
	// error when w is invalid; ErrNotFound when there is no such
	// workspace, and then nothing is changed.
	UpdateWorkspace(ctx context.Context, w *Workspace, move TierMove) (keysMoved int, err error)
	// DeleteWorkspace removes the workspace and everything it owns (see
	// WorkspaceDeletion) in one transaction, and returns what it removed.
	// ErrNotFound when there is no such workspace; on any failure nothing
	// is removed.
	DeleteWorkspace(ctx context.Context, id string) (*WorkspaceDeletion, error)
}

// TierMove moves a workspace's keys from one tier to another; the zero
// value moves none.
type TierMove struct{ From, To string }

// WorkspaceDeletion counts what DeleteWorkspace removed: the workspace's
// API keys, radars, leads (with the signals attached to them and their
// feedback state), auto-sync and push deliveries, feedback events,
// integrations (its webhook settings and outreach tool connections),
// credit ledger charges and enrich/email lookups (the record of their
// charges); its radar signal counters go too, uncounted. Companies,
// people, signals, events and the address outcomes learnt from feedback
// are shared by every workspace and stay.
type WorkspaceDeletion struct {
	Keys           int64
	Radars         int64
	Leads          int64
	LeadSignals    int64
	Deliveries     int64
	FeedbackEvents int64
	Integrations   int64
	Charges        int64
	EmailLookups   int64
}

// NewID returns prefix_ followed by 16 random bytes in base32: opaque and
// unguessable.
func NewID(prefix string) string {
	return fmt.Sprintf("%s_%s", prefix, randomToken(16))
}

// NewWorkspace returns a workspace named name on plan, with the plan's
// default limits and the public API enabled.
func NewWorkspace(name, plan string) *Workspace {
	l := DefaultPlanLimits(plan)
	return &Workspace{Name: name, Plan: plan, PublicAPI: true,
		Credits: Limit{Limit: l.Credits}, Radars: Limit{Limit: l.Radars},
		NetworkAccounts: Limit{Limit: l.NetworkAccounts}, RadarSignals: Limit{Limit: l.RadarSignals}}
}

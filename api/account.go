package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/prospectorhq/prospector"
)

type workspaceJSON struct {
	ID     string `json:"id"`
	UserID string `json:"user_id"`
	Role   string `json:"role"`
	Email  string `json:"email"`
}

func workspaceOf(p *prospector.Principal) workspaceJSON {
	return workspaceJSON{ID: p.Workspace.ID, UserID: p.Workspace.OwnerUserID, Role: p.Key.Role, Email: p.Workspace.Email}
}

type keyInfoJSON struct {
	Valid            bool          `json:"valid"`
	PublicAPIEnabled bool          `json:"public_api_enabled"`
	Auth             authJSON      `json:"auth"`
	Workspace        workspaceJSON `json:"workspace"`
	Tier             string        `json:"tier"`
	RateLimit        rateLimitJSON `json:"rate_limit"`
	AllowedEndpoints []string      `json:"allowed_endpoints"`
	GeneratedAt      string        `json:"generated_at"`
}

type authJSON struct {
	Type      string `json:"type"`
	Subject   string `json:"subject"`
	KeyHeader string `json:"key_header"`
}

type rateLimitJSON struct {
	Enabled  bool              `json:"enabled"`
	Strategy string            `json:"strategy"`
	Simple   simpleRateJSON    `json:"simple"`
	Tiers    map[string]string `json:"tiers"`
}

type simpleRateJSON struct {
	Requests int    `json:"requests"`
	Window   string `json:"window"`
}

// keyInfo: GET /api/v1/account/key-info
//
// Everything but generated_at depends only on the resolved key and the
// server's configuration, so the encoded body is memoised on the key
// cache entry (expiring with it) and only the timestamp is appended per
// request: this is the endpoint the request-path benchmark measures.
func (s *Server) keyInfo(w http.ResponseWriter, r *http.Request) error {
	ri := info(r.Context())
	if ri.principal == nil || ri.key == nil {
		return prospector.Errorf(prospector.ENOTFOUND, "The key context could not be resolved.")
	}
	prefix := ri.key.keyInfo.Load()
	if prefix == nil {
		b, err := s.keyInfoPrefix(ri.principal)
		if err != nil {
			return err
		}
		ri.key.keyInfo.Store(&b)
		prefix = &b
	}
	buf := make([]byte, 0, len(*prefix)+32)
	buf = append(buf, *prefix...)
	buf = append(buf, timestamp(s.now())...)
	buf = append(buf, "\"}}\n"...)
	w.Header()["Content-Type"] = []string{"application/json"}
	_, err := w.Write(buf)
	return err
}

// keyInfoPrefix encodes the key-info envelope up to the opening quote of
// generated_at, its last member.
func (s *Server) keyInfoPrefix(p *prospector.Principal) ([]byte, error) {
	rate, ok := s.tierRates[p.Key.Tier]
	if !ok {
		rate = s.tierRates[prospector.PlanDefault]
	}
	b, err := json.Marshal(envelope{Data: keyInfoJSON{
		Valid:            true,
		PublicAPIEnabled: p.Workspace.PublicAPI,
		Auth:             authJSON{Type: "api_key", Subject: p.Key.ID, KeyHeader: prospector.KeyHeader},
		Workspace:        workspaceOf(p),
		Tier:             p.Key.Tier,
		RateLimit: rateLimitJSON{
			Enabled: s.limiter != nil, Strategy: "fixed_window",
			Simple: simpleRateJSON{Requests: rate.Requests, Window: rate.WindowString()}, Tiers: s.rateTiers,
		},
		AllowedEndpoints: s.endpoints,
	}})
	if err != nil {
		return nil, fmt.Errorf("key-info: %w", err)
	}
	const tail = `"generated_at":""}}`
	if !bytes.HasSuffix(b, []byte(tail)) {
		return nil, fmt.Errorf("key-info: generated_at is not the last member")
	}
	return b[:len(b)-len(`""}}`)+1], nil
}

type creditUsageJSON struct {
	Workspace    workspaceJSON    `json:"workspace"`
	Subscription subscriptionJSON `json:"subscription"`
	Credits      creditsJSON      `json:"credits"`
	Limits       limitsJSON       `json:"limits"`
	GeneratedAt  string           `json:"generated_at"`
}

type subscriptionJSON struct {
	Tier             string  `json:"tier"`
	Status           *string `json:"status"`
	CurrentPeriodEnd *string `json:"current_period_end"`
	PendingPlan      *string `json:"pending_plan"`
	PendingPlanAt    *string `json:"pending_plan_at"`
}

type creditsJSON struct {
	Total     *int64 `json:"total"`
	Used      int64  `json:"used"`
	Remaining *int64 `json:"remaining"`
	Unlimited bool   `json:"unlimited"`
	Bypassed  bool   `json:"bypassed"`
}

type limitsJSON struct {
	Radars          quotaJSON `json:"radars"`
	NetworkAccounts quotaJSON `json:"networkAccounts"`
	RadarSignals    limitJSON `json:"radarSignals"`
}

type quotaJSON struct {
	Used int64 `json:"used"`
	limitJSON
}

type limitJSON struct {
	Limit     *int64 `json:"limit"`
	Unlimited bool   `json:"unlimited"`
	Bypassed  bool   `json:"bypassed"`
}

func limitOf(l prospector.Limit) limitJSON {
	return limitJSON{Limit: l.Limit, Unlimited: l.Unlimited(), Bypassed: l.Bypassed}
}

// creditUsage: GET /api/v1/account/credit-usage
func (s *Server) creditUsage(w http.ResponseWriter, r *http.Request) error {
	p := principal(r.Context())
	if p == nil {
		return prospector.Errorf(prospector.ENOTFOUND, "The workspace context could not be resolved.")
	}
	u, err := s.store.CreditUsage(r.Context(), p.Workspace.ID, s.now())
	if err != nil {
		if prospector.ErrorCode(err) == prospector.ENOTFOUND {
			return prospector.Errorf(prospector.ENOTFOUND, "The workspace context could not be resolved.")
		}
		return err
	}
	ws := u.Workspace
	status := ws.SubscriptionStatus()
	var pendingPlan, pendingAt *string
	if ws.PendingPlan != "" {
		pendingPlan = &ws.PendingPlan
	}
	if ws.PendingPlanAt != nil {
		t := timestamp(*ws.PendingPlanAt)
		pendingAt = &t
	}
	periodEnd := timestamp(u.PeriodEnd)
	out := creditUsageJSON{
		Workspace: workspaceJSON{ID: ws.ID, UserID: ws.OwnerUserID, Role: p.Key.Role, Email: ws.Email},
		Subscription: subscriptionJSON{Tier: ws.Plan, Status: &status, CurrentPeriodEnd: &periodEnd,
			PendingPlan: pendingPlan, PendingPlanAt: pendingAt},
		Credits: creditsJSON{Total: u.Credits.Limit, Used: u.CreditsUsed, Remaining: u.Remaining(),
			Unlimited: u.Credits.Unlimited(), Bypassed: u.Credits.Bypassed},
		Limits: limitsJSON{
			Radars:          quotaJSON{Used: u.Radars.Used, limitJSON: limitOf(u.Radars.Limit)},
			NetworkAccounts: quotaJSON{Used: u.NetworkAccounts.Used, limitJSON: limitOf(u.NetworkAccounts.Limit)},
			RadarSignals:    limitOf(u.RadarSignals),
		},
		GeneratedAt: timestamp(s.now()),
	}
	writeData(w, out)
	return nil
}

// timestamp renders the contract's ISO 8601 in UTC with milliseconds.
func timestamp(t time.Time) string { return t.UTC().Format(timestampLayout) }

// timestampLayout is the contract's time format: UTC, milliseconds.
const timestampLayout = "2006-01-02T15:04:05.000Z"

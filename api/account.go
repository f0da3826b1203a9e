package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/account"
	"github.com/prospectorhq/prospector/wire"
)

type keyInfoJSON struct {
	Valid            bool              `json:"valid"`
	PublicAPIEnabled bool              `json:"public_api_enabled"`
	Auth             authJSON          `json:"auth"`
	Workspace        account.Workspace `json:"workspace"`
	Tier             string            `json:"tier"`
	RateLimit        rateLimitJSON     `json:"rate_limit"`
	AllowedEndpoints []string          `json:"allowed_endpoints"`
	GeneratedAt      string            `json:"generated_at"`
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
	buf = append(buf, wire.Timestamp(s.now())...)
	buf = append(buf, "\"}}\n"...)
	w.Header()["Content-Type"] = []string{"application/json"}
	_, err := w.Write(buf)
	return err
}

// keyInfoPrefix encodes the key-info envelope up to the opening quote of
// generated_at, its last member.
func (s *Server) keyInfoPrefix(p *prospector.Principal) ([]byte, error) {
	rate := s.tierRates.Of(p.Key.Tier)
	b, err := json.Marshal(envelope{Data: keyInfoJSON{
		Valid:            true,
		PublicAPIEnabled: p.Workspace.PublicAPI,
		Auth:             authJSON{Type: "api_key", Subject: p.Key.ID, KeyHeader: prospector.KeyHeader},
		Workspace:        account.WorkspaceOf(p),
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

// creditUsage: GET /api/v1/account/credit-usage
func (s *Server) creditUsage(w http.ResponseWriter, r *http.Request) error {
	u, err := s.flows.Account.CreditUsage(r.Context(), principal(r.Context()))
	if err != nil {
		return err
	}
	writeData(w, u)
	return nil
}

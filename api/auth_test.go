package api_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

var authedPaths = []string{"/api/v1/account/key-info", "/api/v1/account/credit-usage", "/api/v1/meta/field-values"}

func TestAuthFailures(t *testing.T) {
	e := newEnv(t, func(c *apiConfig) { c.KeyCacheTTL = 0 })
	w, good := e.workspace("auth", prospector.PlanDefault, prospector.PlanDefault)
	past := time.Now().Add(-time.Minute)
	expired := e.key(w, prospector.PlanDefault, &past)
	soon := time.Now().Add(time.Hour)
	revoked := e.key(w, prospector.PlanDefault, &soon)
	keys, _ := e.store.ListAPIKeys(context.Background(), w.ID)
	for _, k := range keys {
		if k.Hash == prospector.HashKey(revoked) {
			if err := e.store.RevokeAPIKey(context.Background(), k.ID, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := map[string]string{
		"missing": "",
		"unknown": "psk_thisisnotakey",
		"expired": expired,
		"revoked": revoked,
		"garbage": "\x7f not even close",
	}
	for _, path := range authedPaths {
		for name, key := range cases {
			t.Run(name+path, func(t *testing.T) {
				r := e.do("GET", path, key, nil)
				msg := r.wantError(t, http.StatusUnauthorized, prospector.EUNAUTHORIZED)
				if key != "" && len(key) > 8 && contains(msg, key) {
					t.Errorf("401 message echoes the key: %s", msg)
				}
				wantRateHeaders(t, r)
			})
		}
	}
	// None of those failures touched the good key's budget.
	r := e.do("GET", "/api/v1/account/key-info", good, nil)
	if r.status != 200 || r.header.Get("X-Ratelimit-Remaining") != "99" {
		t.Fatalf("after failed auths the good key has remaining %s (status %d), want 99", r.header.Get("X-Ratelimit-Remaining"), r.status)
	}
}

func TestRevocationReachesCachedKeyAfterTTL(t *testing.T) {
	now := time.Now()
	clock := func() time.Time { return now }
	e := newEnv(t, func(c *apiConfig) { c.KeyCacheTTL = 5 * time.Second; c.Now = clock })
	w, key := e.workspace("cache", prospector.PlanDefault, prospector.PlanDefault)
	if r := e.do("GET", "/api/v1/account/key-info", key, nil); r.status != 200 {
		t.Fatalf("status %d", r.status)
	}
	keys, _ := e.store.ListAPIKeys(context.Background(), w.ID)
	if err := e.store.RevokeAPIKey(context.Background(), keys[0].ID, now); err != nil {
		t.Fatal(err)
	}
	now = now.Add(6 * time.Second)
	e.do("GET", "/api/v1/account/key-info", key, nil).wantError(t, http.StatusUnauthorized, prospector.EUNAUTHORIZED)
}

func TestExpiryIsCheckedOnEveryRequest(t *testing.T) {
	now := time.Now()
	e := newEnv(t, func(c *apiConfig) { c.Now = func() time.Time { return now } })
	w, _ := e.workspace("expiry", prospector.PlanDefault, prospector.PlanDefault)
	exp := now.Add(time.Second)
	key := e.key(w, prospector.PlanDefault, &exp)
	if r := e.do("GET", "/api/v1/account/key-info", key, nil); r.status != 200 {
		t.Fatalf("status %d before expiry", r.status)
	}
	now = now.Add(2 * time.Second) // still inside the cache TTL
	e.do("GET", "/api/v1/account/key-info", key, nil).wantError(t, http.StatusUnauthorized, prospector.EUNAUTHORIZED)
}

func TestPublicAPIDisabled(t *testing.T) {
	e := newEnv(t)
	_, key := e.workspace("private", prospector.PlanGrowth, prospector.PlanGrowth, func(w *prospector.Workspace) { w.PublicAPI = false })
	for _, path := range authedPaths {
		r := e.do("GET", path, key, nil)
		r.wantError(t, http.StatusNotFound, prospector.ENOTFOUND)
		wantRateHeaders(t, r)
	}
	// A bad key is still 401 first: the 404 never tells a stranger the
	// workspace exists.
	e.do("GET", "/api/v1/account/key-info", "psk_wrong", nil).wantError(t, http.StatusUnauthorized, prospector.EUNAUTHORIZED)
}

func TestRateLimitPerTier(t *testing.T) {
	for _, tc := range []struct {
		tier  string
		limit int
	}{{prospector.PlanDefault, 100}, {prospector.PlanStarter, 300}, {prospector.PlanGrowth, 1000}} {
		t.Run(tc.tier, func(t *testing.T) {
			e := newEnv(t)
			_, key := e.workspace("rl-"+tc.tier, tc.tier, tc.tier)
			ok, limited := 0, 0
			for i := 0; i < tc.limit+50; i++ {
				r := e.do("GET", "/api/v1/meta/field-values", key, nil)
				if r.header.Get("X-Ratelimit-Limit") != strconv.Itoa(tc.limit) {
					t.Fatalf("x-ratelimit-limit %s, want %d", r.header.Get("X-Ratelimit-Limit"), tc.limit)
				}
				remaining, _ := strconv.Atoi(r.header.Get("X-Ratelimit-Remaining"))
				reset, _ := strconv.Atoi(r.header.Get("X-Ratelimit-Reset"))
				if reset < 1 || reset > 60 {
					t.Fatalf("x-ratelimit-reset %d outside 1..60", reset)
				}
				switch r.status {
				case 200:
					ok++
					if remaining != tc.limit-ok {
						t.Fatalf("request %d: remaining %d, want %d", i, remaining, tc.limit-ok)
					}
				case 429:
					limited++
					msg := r.wantError(t, http.StatusTooManyRequests, prospector.ERATELIMIT)
					if remaining != 0 || r.header.Get("Retry-After") == "" || !contains(msg, "retry") {
						t.Fatalf("429: remaining %d, Retry-After %q, message %q", remaining, r.header.Get("Retry-After"), msg)
					}
				default:
					t.Fatalf("status %d", r.status)
				}
			}
			if ok != tc.limit || limited != 50 {
				t.Fatalf("%d requests: %d succeeded and %d limited, want %d and 50", tc.limit+50, ok, limited, tc.limit)
			}
		})
	}
}

func TestRateLimitIsPerKey(t *testing.T) {
	e := newEnv(t)
	w, a := e.workspace("twokeys", prospector.PlanDefault, prospector.PlanDefault)
	b := e.key(w, prospector.PlanDefault, nil)
	for i := 0; i < 100; i++ {
		e.do("GET", "/api/v1/meta/field-values", a, nil)
	}
	e.do("GET", "/api/v1/meta/field-values", a, nil).wantError(t, http.StatusTooManyRequests, prospector.ERATELIMIT)
	if r := e.do("GET", "/api/v1/meta/field-values", b, nil); r.status != 200 || r.header.Get("X-Ratelimit-Remaining") != "99" {
		t.Fatalf("second key: status %d remaining %s", r.status, r.header.Get("X-Ratelimit-Remaining"))
	}
}

func contains(s, sub string) bool {
	return sub != "" && strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

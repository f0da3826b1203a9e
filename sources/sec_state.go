package sources

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

// settingSEC is the setting holding the SEC source's state (SECState).
const settingSEC = "sources.sec"

// SECState is the SEC source's state, shared by every node through the
// settings.
type SECState struct {
	// NextDay is the first day (YYYY-MM-DD) the next run reads.
	NextDay       string     `json:"next_day,omitempty"`
	LastRunAt     *time.Time `json:"last_run_at,omitempty"`
	LastSuccessAt *time.Time `json:"last_success_at,omitempty"`
	NextRunAt     *time.Time `json:"next_run_at,omitempty"`
	// Failures counts the runs that failed since the last success.
	Failures  int    `json:"failures,omitempty"`
	LastError string `json:"last_error,omitempty"`
	// PausedUntil is when EDGAR asked us back after throttling.
	PausedUntil *time.Time `json:"paused_until,omitempty"`
	// Filings counts the filings read in all.
	Filings int `json:"filings,omitempty"`
}

// LoadSECState reads the SEC source's state; the zero state before its
// first run.
func LoadSECState(ctx context.Context, st SECSettings) (SECState, error) {
	var s SECState
	v, err := st.LookupSetting(ctx, settingSEC)
	if errors.Is(err, prospector.ErrNotFound) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("sources: sec state: %w", err)
	}
	if err := json.Unmarshal([]byte(v), &s); err != nil {
		return SECState{}, fmt.Errorf("sources: sec state %q: %w", v, err)
	}
	return s, nil
}

func saveSECState(ctx context.Context, st SECSettings, s SECState) error {
	b, _ := json.Marshal(s)
	if err := st.SetSetting(ctx, settingSEC, string(b)); err != nil {
		return fmt.Errorf("sources: save sec state: %w", err)
	}
	return nil
}

// Health is the state's health at now, as for targets.
func (s SECState) Health(now time.Time) string {
	switch {
	case s.PausedUntil != nil && s.PausedUntil.After(now):
		return prospector.HealthPaused
	case s.Failures > 0:
		return prospector.HealthFailing
	case s.LastRunAt == nil:
		return prospector.HealthNew
	}
	return prospector.HealthOK
}

package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
	"github.com/prospectorhq/prospector/console"
)

// consoleKeySetting names the setting that holds the key sealing console
// sessions: every node reads the same one, so a session cookie works on
// any node.
const consoleKeySetting = "console_session_key"

// newConsole builds the web console over cfg's workflows, its session
// key kept in the store's settings (made on first start).
func newConsole(ctx context.Context, st prospector.Store, cfg api.Config, secure bool, logger *slog.Logger) (*console.Console, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("console key: %w", err)
	}
	v, err := st.Setting(ctx, consoleKeySetting, hex.EncodeToString(b))
	if err != nil {
		return nil, fmt.Errorf("console key: %w", err)
	}
	key, err := hex.DecodeString(v)
	if err != nil {
		return nil, fmt.Errorf("console key: setting %s is not hex: %w", consoleKeySetting, err)
	}
	return console.New(console.Config{Workflows: cfg.Workflows, Keys: st, Sessions: st, SessionKey: key, SecureCookies: secure,
		TierRates: cfg.TierRates, Logger: logger})
}

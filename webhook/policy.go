package webhook

import (
	"context"
	"errors"

	"github.com/prospectorhq/prospector"
)

// The private-address policy of a deployment: one setting in the store,
// read before every request, so that every node sends or refuses a
// delivery alike whatever it was started with.

// PolicyError is a request not made because the private-address policy
// could not be read. Its message says only that; the cause is unwrapped
// for logs.
type PolicyError struct{ Err error }

func (e *PolicyError) Error() string {
	return "the private-address setting could not be read; try again"
}
func (e *PolicyError) Unwrap() error { return e.Err }

// SettingReader reads one deployment setting; ErrNotFound when unset.
type SettingReader interface {
	LookupSetting(ctx context.Context, name string) (string, error)
}

// SettingPolicy is a Config.Policy reading the deployment's
// prospector.SettingAllowPrivateWebhooks from st: "true" allows internal
// addresses; any other value, or none, refuses them.
func SettingPolicy(st SettingReader) func(ctx context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		v, err := st.LookupSetting(ctx, prospector.SettingAllowPrivateWebhooks)
		if errors.Is(err, prospector.ErrNotFound) {
			return false, nil
		}
		return v == "true", err
	}
}

package prospector

import "context"

// SettingStore keeps deployment-wide values every node must share, such
// as the key that signs search cursors.
type SettingStore interface {
	// Setting returns the value of name, storing value first if the
	// setting does not exist yet. Concurrent first calls all get the value
	// that won.
	Setting(ctx context.Context, name, value string) (string, error)
	// LookupSetting returns the value of name; ErrNotFound when it has
	// none.
	LookupSetting(ctx context.Context, name string) (string, error)
	// SetSetting stores value as the value of name, replacing any.
	SetSetting(ctx context.Context, name, value string) error
}

// SettingAllowPrivateWebhooks is the deployment setting that lets webhook
// and outreach requests reach loopback, private and other internal
// addresses: "true" allows them, anything else (or no value) refuses
// them. It is one value for the whole deployment, read before every
// request, so every node decides a delivery's fate the same way.
const SettingAllowPrivateWebhooks = "allow_private_webhooks"

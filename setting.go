package prospector

import "context"

// SettingStore keeps deployment-wide values every node must share, such
// as the key that signs search cursors.
type SettingStore interface {
	// Setting returns the value of name, storing value first if the
	// setting does not exist yet. Concurrent first calls all get the value
	// that won.
	Setting(ctx context.Context, name, value string) (string, error)
}

package prospector

import (
	"context"
	"time"
)

// AuditEvent is one line of a workspace's audit trail: who did what to
// which of its resources. The trail is append-only: no store method
// changes or deletes an event (deleting the workspace deletes its
// trail). Events never hold a secret: keys are named by their prefix.
type AuditEvent struct {
	ID          int64
	WorkspaceID string // "" for the deployment's own trail (privacy actions)
	Action      string
	// Actor is who acted: "cli" for the command line, else the prefix of
	// the API key that made the request.
	Actor string
	// Target names what was acted on: a key id, a radar id, a
	// destination URL, a subject's hash id.
	Target string
	// Detail is what else the action needs to be understood, as JSON:
	// the leads exported or pushed, counts, a reason.
	Detail    string
	CreatedAt time.Time
}

// The audited actions.
const (
	AuditKeyCreate     = "key.create"
	AuditKeyRevoke     = "key.revoke"
	AuditLeadsExport   = "leads.export"
	AuditLeadsPush     = "leads.push"
	AuditRadarCreate   = "radar.create"
	AuditRadarDelete   = "radar.delete"
	AuditPrivacyErase  = "privacy.erase"
	AuditPrivacyUnsupp = "privacy.unsuppress"
)

// ActorCLI is the actor of actions taken from the command line.
const ActorCLI = "cli"

// AuditStore keeps the audit trails. Engines also append the events of
// actions they carry out in one transaction (key creation and
// revocation, radar creation and deletion, erasures) inside it.
type AuditStore interface {
	// AppendAudit records e, filling its ID and CreatedAt (when zero).
	AppendAudit(ctx context.Context, e *AuditEvent) error
	// AuditEvents returns the trail of a workspace ("" for the
	// deployment's) from since on, oldest first, at most limit events.
	AuditEvents(ctx context.Context, workspaceID string, since time.Time, limit int) ([]*AuditEvent, error)
}

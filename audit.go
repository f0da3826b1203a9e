package prospector

import (
	"context"
	"encoding/json"
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

type actorKey struct{}

// WithActor returns ctx carrying who acts (ActorCLI, or an API key's
// prefix), for the audit events the store writes inside its
// transactions.
func WithActor(ctx context.Context, actor string) context.Context {
	return context.WithValue(ctx, actorKey{}, actor)
}

// ActorKey is the key WithActor stores the actor under, for a context of
// another package that carries the actor itself: the API's request
// context answers it from what authentication learned, sparing a context
// layer and a copy of the request on every call.
func ActorKey() any { return actorKey{} }

// ActorFrom returns the actor ctx carries; "system" when none does (a
// background job acting on its own).
func ActorFrom(ctx context.Context) string {
	if a, ok := ctx.Value(actorKey{}).(string); ok && a != "" {
		return a
	}
	return "system"
}

// KeyAudit is the audit event of a key's creation or revocation: the key
// is named by its id and prefix, never the secret.
func KeyAudit(ctx context.Context, action, workspaceID, keyID, prefix string, now time.Time) *AuditEvent {
	return &AuditEvent{WorkspaceID: workspaceID, Action: action, Actor: ActorFrom(ctx), Target: keyID,
		Detail: `{"prefix":"` + jsonSafe(prefix) + `"}`, CreatedAt: now}
}

// RadarAudit is the audit event of a radar's creation or deletion.
func RadarAudit(ctx context.Context, action, workspaceID, radarID, name string, now time.Time) *AuditEvent {
	return &AuditEvent{WorkspaceID: workspaceID, Action: action, Actor: ActorFrom(ctx), Target: radarID,
		Detail: `{"name":"` + jsonSafe(name) + `"}`, CreatedAt: now}
}

// jsonSafe escapes s for a JSON string literal.
func jsonSafe(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

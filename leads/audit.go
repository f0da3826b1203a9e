package leads

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/prospectorhq/prospector"
)

// audit appends to the workspace's trail which leads left it, where to,
// and by which key (the actor the API put in ctx). Export fails when the
// trail cannot be written, so no file leaves unrecorded; a push has
// already happened by then, so its caller logs the failure instead.
func (s *Service) audit(ctx context.Context, workspaceID, action, target string, leads []*prospector.Lead, extra map[string]any) error {
	ids := make([]string, len(leads))
	for i, l := range leads {
		ids[i] = l.ID
	}
	detail := map[string]any{"lead_ids": ids}
	for k, v := range extra {
		detail[k] = v
	}
	b, err := json.Marshal(detail)
	if err != nil {
		return fmt.Errorf("audit %s: %w", action, err)
	}
	e := &prospector.AuditEvent{WorkspaceID: workspaceID, Action: action, Actor: prospector.ActorFrom(ctx),
		Target: target, Detail: string(b), CreatedAt: s.now()}
	if err := s.Store.AppendAudit(ctx, e); err != nil {
		return fmt.Errorf("audit %s: %w", action, err)
	}
	return nil
}

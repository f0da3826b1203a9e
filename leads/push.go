package leads

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
	"github.com/prospectorhq/prospector/webhook"
	"github.com/prospectorhq/prospector/wire"
)

// PushDeadline bounds the sending part of a push, every request to the
// destination included; a front end gives a push's caller at least this
// long (the API's request deadline of a push is longer).
const PushDeadline = 45 * time.Second

// recordCampaignTimeout bounds recording the campaign of leads a tool
// took, which goes on after the caller left (pushOutreach).
const recordCampaignTimeout = 5 * time.Second

// noLeadsResponse is provider_response when none of the ids is the
// workspace's: nothing is sent.
const noLeadsResponse = "none of the requested leads exist in this workspace; nothing was sent"

// PushRequest is POST /leads/push's body.
type PushRequest struct {
	LeadIDs     []string `json:"lead_ids"`
	Destination *string  `json:"destination"`
	WebhookURL  *string  `json:"webhook_url"`
}

// PushResult is how a push went: every outcome of sending is a result,
// only a bad request is an error.
type PushResult struct {
	Status             string   `json:"status"`
	Destination        string   `json:"destination"`
	LeadCount          int      `json:"lead_count"`
	RequestedLeadCount int      `json:"requested_lead_count"`
	MissingLeadIDs     []string `json:"missing_lead_ids"`
	Dispatched         bool     `json:"dispatched"`
	ProviderStatusCode int      `json:"provider_status_code"`
	ProviderResponse   string   `json:"provider_response"`
}

// pushOutcome is how sending went: ok when the destination took every
// lead, sent the number it took (the first ones, in order), code its
// last answer's status (0 when none came) and response that answer or
// why there was none.
type pushOutcome struct {
	ok       bool
	sent     int
	code     int
	response string
}

// Push sends the workspace's leads among req's ids to req's destination:
// a webhook URL (one signed delivery shaped by the workspace's webhook
// settings) or an outreach tool the workspace has connected. A
// validation error names the field at fault; a destination that refuses,
// fails or cannot be reached is a result with status dispatch_failed.
func (s *Service) Push(ctx context.Context, ws *prospector.Workspace, req *PushRequest) (*PushResult, error) {
	ids, err := leadIDs(req.LeadIDs, maxPushLeads)
	if err != nil {
		return nil, err
	}
	dest, target := input.Str(req.Destination), input.Str(req.WebhookURL)
	switch {
	case dest == "":
		return nil, input.Errorf("destination", "required: webhook_url, outreach_tool_a or outreach_tool_b")
	case dest != prospector.DestinationWebhook && !prospector.ValidOutreachTool(dest):
		return nil, input.Errorf("destination", "%q is not supported: use webhook_url, outreach_tool_a or outreach_tool_b", input.Truncate(dest, 40))
	case dest == prospector.DestinationWebhook && target == "":
		return nil, input.Errorf("webhook_url", "required when destination is webhook_url")
	case dest != prospector.DestinationWebhook && target != "":
		return nil, input.Errorf("webhook_url", "only with destination webhook_url (%s uses the workspace's integration)", dest)
	}
	if err := input.Len("webhook_url", target, input.MaxURLText); err != nil {
		return nil, err
	}
	if target != "" {
		if err := prospector.ValidateOutboundURL(target); err != nil {
			return nil, input.Errorf("webhook_url", "%s: give an absolute http or https URL", err.Message)
		}
	}
	workspaceID := ws.ID
	found, _, err := s.workspaceLeads(ctx, workspaceID, ids)
	if err != nil {
		return nil, err
	}
	out := pushOutcome{response: noLeadsResponse}
	switch {
	case len(found) == 0:
	case dest == prospector.DestinationWebhook:
		out, err = s.pushWebhook(ctx, workspaceID, target, found)
	default:
		out, err = s.pushOutreach(ctx, workspaceID, dest, found)
	}
	if err != nil {
		return nil, err
	}
	res := pushResult(dest, ids, found, out)
	if len(found) > 0 {
		where := dest
		if target != "" {
			where = target
		}
		if err := s.audit(ctx, workspaceID, prospector.AuditLeadsPush, where, found[:out.sent],
			map[string]any{"destination": dest, "status": res.Status}); err != nil {
			s.logger().Error("leads pushed but not audited", "workspace_id", workspaceID, "error", err.Error())
		}
	}
	return &res, nil
}

// pushResult is the answer: missing_lead_ids holds, in request order,
// the ids without a lead and the leads that were not dispatched, so that
// lead_count and missing_lead_ids always add up to requested_lead_count.
func pushResult(dest string, ids []string, found []*prospector.Lead, out pushOutcome) PushResult {
	sent := make(map[string]bool, out.sent)
	for _, l := range found[:out.sent] {
		sent[l.ID] = true
	}
	res := PushResult{Status: "dispatch_failed", Destination: dest, LeadCount: out.sent,
		RequestedLeadCount: len(ids), MissingLeadIDs: make([]string, 0, len(ids)-out.sent), Dispatched: out.ok,
		ProviderStatusCode: out.code, ProviderResponse: out.response}
	if out.ok {
		res.Status = "dispatched"
	}
	for _, id := range ids {
		if !sent[id] {
			res.MissingLeadIDs = append(res.MissingLeadIDs, id)
		}
	}
	return res
}

// pushWebhook POSTs the leads in one delivery shaped by the workspace's
// webhook settings (docs/webhooks.md), signed with its secret.
func (s *Service) pushWebhook(ctx context.Context, workspaceID, target string, found []*prospector.Lead) (pushOutcome, error) {
	settings, err := s.webhookSettings(ctx, workspaceID)
	if err != nil {
		return pushOutcome{}, err
	}
	p := &webhook.Payload{Source: webhook.SourcePush, WorkspaceID: workspaceID, Leads: wire.NewLeads(found),
		DispatchedAt: s.now().UTC()}
	sctx, cancel := context.WithTimeout(ctx, PushDeadline)
	defer cancel()
	res, err := s.Webhooks.Send(sctx, settings, target, prospector.NewDeliveryID(), p)
	if err != nil {
		return failedSend(ctx, sctx, err, "webhook settings", 0, len(found))
	}
	if !res.OK() {
		return pushOutcome{code: res.StatusCode, response: res.Response}, nil
	}
	return pushOutcome{ok: true, sent: len(found), code: res.StatusCode, response: res.Response}, nil
}

// webhookSettings returns the workspace's webhook settings, creating
// them (no auto-sync URL, the default shape, a fresh signing secret) for
// a workspace that has none, so every push is signed. That secret is
// shown to no one: `prospector integrations webhook --rotate-secret`
// makes one the owner sees.
func (s *Service) webhookSettings(ctx context.Context, workspaceID string) (*prospector.WebhookSettings, error) {
	settings, err := s.Store.WebhookSettings(ctx, workspaceID)
	if !errors.Is(err, prospector.ErrNotFound) {
		return settings, err
	}
	settings = &prospector.WebhookSettings{WorkspaceID: workspaceID, SigningSecret: prospector.NewWebhookSecret()}
	err = s.Store.CreateWebhookSettings(ctx, settings)
	if errors.Is(err, prospector.ErrAlreadyExists) { // a concurrent push created them
		return s.Store.WebhookSettings(ctx, workspaceID)
	}
	if err != nil {
		return nil, err
	}
	s.logger().LogAttrs(ctx, slog.LevelInfo, "created webhook settings for a push", slog.String("workspace", workspaceID))
	return settings, nil
}

// pushOutreach adds the leads to the workspace's campaign (tool A) or
// list (tool B) and records it as the campaign_id of those it took.
func (s *Service) pushOutreach(ctx context.Context, workspaceID, tool string, found []*prospector.Lead) (pushOutcome, error) {
	t, err := s.Webhooks.Outreach(ctx, s.Store, workspaceID, tool, webhook.OutreachOptions{})
	var notConfigured *webhook.NotConfiguredError
	switch {
	case errors.As(err, &notConfigured):
		return pushOutcome{response: notConfigured.Message()}, nil
	case prospector.ErrorCode(err) == prospector.EINVALID:
		return pushOutcome{response: tool + " integration: " + prospector.ErrorMessage(err)}, nil
	case err != nil:
		return pushOutcome{}, err
	}
	sctx, cancel := context.WithTimeout(ctx, PushDeadline)
	defer cancel()
	res, err := t.AddLeads(sctx, wire.NewLeads(found))
	out := pushOutcome{ok: err == nil && res.OK, sent: res.Dispatched, code: res.StatusCode, response: res.Response}
	if err != nil {
		if out, err = failedSend(ctx, sctx, err, tool+" integration", res.Dispatched, len(found)); err != nil {
			return out, err
		}
	}
	if out.sent > 0 {
		ids := make([]string, out.sent)
		for i, l := range found[:out.sent] {
			ids[i] = l.ID
		}
		// The tool has the leads now: failing the push would invite a
		// retry that adds them twice, so a failure here is only logged.
		// It is recorded even if the caller left or ran out of time, but
		// within a bound of its own: a stalled database must not hold the
		// request past the server's write timeout.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordCampaignTimeout)
		defer cancel()
		if err := s.Store.SetLeadCampaign(rctx, workspaceID, ids, t.Target()); err != nil {
			s.logger().LogAttrs(ctx, slog.LevelError, "record pushed leads' campaign",
				slog.String("workspace", workspaceID), slog.String("error", err.Error()))
		}
	}
	return out, nil
}

// failedSend is the outcome of a send that got no answer: refused,
// timed out, unreachable, or a configuration (named by what) that cannot
// be used. sent leads of total went out before it. A request whose
// caller went away is an error: nobody reads the answer.
func failedSend(ctx, sctx context.Context, err error, what string, sent, total int) (pushOutcome, error) {
	if ctx.Err() != nil {
		return pushOutcome{}, fmt.Errorf("push leads: %w", ctx.Err())
	}
	msg := err.Error()
	switch {
	case errors.Is(sctx.Err(), context.DeadlineExceeded):
		msg = fmt.Sprintf("stopped after %s: the destination was too slow; %d of %d leads were dispatched",
			PushDeadline, sent, total)
	case prospector.ErrorCode(err) != prospector.EINTERNAL:
		msg = what + ": " + prospector.ErrorMessage(err)
	}
	return pushOutcome{sent: sent, response: msg}, nil
}

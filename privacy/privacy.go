// Package privacy answers subject requests (find, delete), keeps the
// suppression list and reads audit trails: the workflows behind
// `prospector privacy` and `prospector audit` (docs/privacy.md).
package privacy

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

// Store is what Service reads and writes.
type Store interface {
	prospector.SettingStore
	prospector.SuppressionStore
	prospector.PrivacyStore
	prospector.AuditStore
	WorkspaceByName(ctx context.Context, name string) (*prospector.Workspace, error)
}

// Service runs the privacy workflows. Now defaults to time.Now.
type Service struct {
	Store Store
	Now   func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Find returns everything held about the subject (a profile URL, an
// e-mail address, "Full Name@domain" or a domain).
func (s *Service) Find(ctx context.Context, subject string) (*prospector.SubjectRecord, error) {
	sub, err := prospector.ParseSubject(subject)
	if err != nil {
		return nil, err
	}
	secret, err := prospector.SuppressionSecret(ctx, s.Store)
	if err != nil {
		return nil, err
	}
	rec, err := s.Store.FindSubject(ctx, sub, secret)
	if err != nil {
		return nil, fmt.Errorf("privacy find: %w", err)
	}
	return rec, nil
}

// Delete erases what is held about the subject; with suppress, it also
// puts the subject on the suppression list, in the same transaction, so
// it never comes back.
func (s *Service) Delete(ctx context.Context, subject string, suppress bool, reason string) (*prospector.Erased, error) {
	sub, err := prospector.ParseSubject(subject)
	if err != nil {
		return nil, err
	}
	secret, err := prospector.SuppressionSecret(ctx, s.Store)
	if err != nil {
		return nil, err
	}
	now := s.now().UTC()
	entry := &prospector.Suppression{Hash: sub.Hash(secret), Kind: sub.Kind, Reason: reason, CreatedAt: now}
	req := prospector.EraseRequest{Subject: sub, Actor: prospector.ActorFrom(ctx), SubjectID: entry.ID()}
	if suppress {
		if req.Suppress, err = s.entries(ctx, sub, secret, entry); err != nil {
			return nil, err
		}
	}
	res, err := s.Store.EraseSubject(ctx, req, now)
	if err != nil {
		return nil, fmt.Errorf("privacy delete: %w", err)
	}
	return res, nil
}

// Unsuppress takes an entry off the list: by the id `privacy list`
// shows, or by the subject itself.
func (s *Service) Unsuppress(ctx context.Context, idOrSubject string) error {
	id := strings.TrimSpace(idOrSubject)
	if !isHex(id) {
		sub, err := prospector.ParseSubject(id)
		if err != nil {
			return err
		}
		secret, err := prospector.SuppressionSecret(ctx, s.Store)
		if err != nil {
			return err
		}
		id = sub.Hash(secret)
	}
	a := &prospector.AuditEvent{Action: prospector.AuditPrivacyUnsupp, Actor: prospector.ActorFrom(ctx), CreatedAt: s.now()}
	if err := s.Store.Unsuppress(ctx, id, a); err != nil {
		return fmt.Errorf("privacy unsuppress: %w", err)
	}
	return nil
}

func isHex(s string) bool {
	if len(s) < 8 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// List returns the suppression list, newest first: kinds, reasons and
// times, never the subjects.
func (s *Service) List(ctx context.Context) ([]*prospector.Suppression, error) {
	return s.Store.ListSuppressions(ctx)
}

// Audit returns a workspace's trail from since on ("" for the
// deployment's own), oldest first.
func (s *Service) Audit(ctx context.Context, workspace string, since time.Time, limit int) ([]*prospector.AuditEvent, error) {
	id := ""
	if workspace != "" {
		w, err := s.Store.WorkspaceByName(ctx, workspace)
		if err != nil {
			return nil, fmt.Errorf("workspace %q: %w", workspace, err)
		}
		id = w.ID
	}
	return s.Store.AuditEvents(ctx, id, since, limit)
}

// entries are the list entries that suppress sub: its own, and for a
// person every other identifier the store holds for them, so that a
// lookup by name or address cannot bring back someone suppressed by
// profile URL.
func (s *Service) entries(ctx context.Context, sub prospector.Subject, secret string, own *prospector.Suppression) ([]*prospector.Suppression, error) {
	out := []*prospector.Suppression{own}
	if sub.Kind == prospector.SubjectDomain {
		return out, nil
	}
	rec, err := s.Store.FindSubject(ctx, sub, "")
	if err != nil {
		return nil, fmt.Errorf("privacy suppress: %w", err)
	}
	seen := map[string]bool{own.Hash: true}
	add := func(kind prospector.SubjectKind, value string) {
		if value == "" {
			return
		}
		h := prospector.SuppressionHash(secret, kind, value)
		if !seen[h] {
			seen[h] = true
			out = append(out, &prospector.Suppression{Hash: h, Kind: kind, Reason: own.Reason, CreatedAt: own.CreatedAt})
		}
	}
	for _, p := range rec.People {
		add(prospector.SubjectProfileURL, p.NetworkURL)
		email := strings.ToLower(p.Email)
		add(prospector.SubjectEmail, email)
		name := prospector.NormalizeSubjectName(p.FullName)
		if name != "" && p.CompanyDomain != "" {
			add(prospector.SubjectName, name+"@"+p.CompanyDomain)
		}
		if d := prospector.NormalizeDomain(email); name != "" && d != "" && d != p.CompanyDomain {
			add(prospector.SubjectName, name+"@"+d)
		}
	}
	return out, nil
}

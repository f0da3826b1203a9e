package webhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/wire"
)

// Sources of a delivery, the envelope's source member.
const (
	SourceAutoSync = "auto_sync"
	SourcePush     = "manual_push"
)

// Payload is what one delivery carries before it is shaped. Its leads
// are the leads' one shape, wire.Lead, whose contract lead entry (the
// members of LeadFields) deliveries carry.
type Payload struct {
	Source       string
	WorkspaceID  string
	Leads        []wire.Lead
	DispatchedAt time.Time
}

// leadFields are the members of a lead entry, in the contract's order.
var leadFields = []string{"id", "full_name", "first_name", "last_name", "title", "company", "network_url",
	"email", "phone", "location", "score", "status", "radar_id", "campaign_id", "created_at"}

// envelopeFields are the members of the default envelope, in order.
var envelopeFields = []string{"source", "workspace_id", "lead_count", "leads", "dispatched_at"}

// LeadFields returns the members of a lead entry, in the contract's
// order: a copy, which callers may change.
func LeadFields() []string { return slices.Clone(leadFields) }

// EnvelopeFields returns the members of the default envelope, in order:
// a copy, which callers may change.
func EnvelopeFields() []string { return slices.Clone(envelopeFields) }

// leadField returns one member of l's entry: unknown values are nil or
// a nil *string, which JSON renders as null.
func leadField(l *wire.Lead, name string) any {
	switch name {
	case "id":
		return l.ID
	case "full_name":
		return l.FullName
	case "first_name":
		return wire.OrNull(l.FirstName)
	case "last_name":
		return wire.OrNull(l.LastName)
	case "title":
		return wire.OrNull(l.Title)
	case "company":
		return wire.OrNull(l.Company)
	case "network_url":
		return wire.OrNull(l.NetworkURL)
	case "email":
		return wire.OrNull(l.Email)
	case "phone":
		return wire.OrNull(l.Phone)
	case "location":
		return wire.OrNull(l.Location)
	case "score":
		if l.Score == nil {
			return nil
		}
		return *l.Score
	case "status":
		return wire.OrNull(l.Status)
	case "radar_id":
		return wire.OrNull(l.RadarID)
	case "campaign_id":
		return wire.OrNull(l.CampaignID)
	case "created_at":
		if l.CreatedAt.IsZero() {
			return nil
		}
		return wire.Timestamp(l.CreatedAt)
	}
	return nil
}

// member and object make JSON objects whose members keep their order.
type member struct {
	key string
	val any
}

type object []member

// MarshalJSON writes the members in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(m.val)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.key, err)
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Shape turns payloads into bodies as a workspace's settings say: the
// default envelope less its disabled fields plus its custom ones, or the
// workspace's template. Build it with NewShape.
type Shape struct {
	disabled     map[string]bool
	custom       []member // envelope custom fields, by name
	leadCustom   []member // "lead." custom fields, by name without the prefix
	customByName map[string]json.RawMessage
	tmpl         node
}

var customName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`)

// NewShape checks s's fields, custom fields and template and returns
// the shape they describe; a validation error names what is wrong.
func NewShape(s *prospector.WebhookSettings) (*Shape, error) {
	sh := &Shape{disabled: map[string]bool{}, customByName: map[string]json.RawMessage{}}
	for _, f := range s.DisabledFields {
		switch {
		case f == "id" || f == "leads":
			return nil, prospector.Errorf(prospector.EINVALID, "field %s: cannot be disabled", f)
		case !slices.Contains(leadFields, f) && !slices.Contains(envelopeFields, f):
			return nil, prospector.Errorf(prospector.EINVALID, "field %s: unknown (fields: %s, %s)", f,
				strings.Join(envelopeFields, ", "), strings.Join(leadFields, ", "))
		}
		sh.disabled[f] = true
	}
	names := make([]string, 0, len(s.CustomFields))
	for k := range s.CustomFields {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := s.CustomFields[k]
		if !json.Valid(v) {
			return nil, prospector.Errorf(prospector.EINVALID, "custom field %s: value is not JSON", k)
		}
		if name, ok := strings.CutPrefix(k, "lead."); ok {
			if !customName.MatchString(name) || slices.Contains(leadFields, name) {
				return nil, prospector.Errorf(prospector.EINVALID, "custom field %s: must be lead.NAME with NAME a letter or _ then up to 63 letters, digits, _ or -, and not a lead field", k)
			}
			sh.leadCustom = append(sh.leadCustom, member{name, json.RawMessage(v)})
		} else {
			if !customName.MatchString(k) || slices.Contains(envelopeFields, k) {
				return nil, prospector.Errorf(prospector.EINVALID, "custom field %s: must be a letter or _ then up to 63 letters, digits, _ or -, and not an envelope field", k)
			}
			sh.custom = append(sh.custom, member{k, json.RawMessage(v)})
		}
		sh.customByName[k] = v
	}
	if s.Template != "" {
		t, err := parseTemplate(s.Template, sh.customByName)
		if err != nil {
			return nil, prospector.Errorf(prospector.EINVALID, "template: %s", err.Error())
		}
		sh.tmpl = t
	}
	return sh, nil
}

// CheckSettings validates everything about s that a delivery depends on.
func CheckSettings(s *prospector.WebhookSettings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	_, err := NewShape(s)
	return err
}

// leadObject is l's default entry: the enabled fields, then the "lead."
// custom fields.
func (sh *Shape) leadObject(l *wire.Lead) object {
	o := make(object, 0, len(leadFields)+len(sh.leadCustom))
	for _, f := range leadFields {
		if !sh.disabled[f] {
			o = append(o, member{f, leadField(l, f)})
		}
	}
	return append(o, sh.leadCustom...)
}

func (sh *Shape) leadObjects(p *Payload) []any {
	out := make([]any, len(p.Leads))
	for i := range p.Leads {
		out[i] = sh.leadObject(&p.Leads[i])
	}
	return out
}

// envelopeValue is one member of the envelope.
func envelopeValue(p *Payload, name string) any {
	switch name {
	case "source":
		return p.Source
	case "workspace_id":
		return p.WorkspaceID
	case "lead_count":
		return len(p.Leads)
	case "dispatched_at":
		return wire.Timestamp(p.DispatchedAt)
	}
	return nil
}

// Body returns the JSON body of p.
func (sh *Shape) Body(p *Payload) ([]byte, error) {
	if sh.tmpl != nil {
		v, err := sh.render(sh.tmpl, p, nil)
		if err != nil {
			return nil, err
		}
		return json.Marshal(v)
	}
	o := make(object, 0, len(envelopeFields)+len(sh.custom))
	for _, f := range envelopeFields {
		if sh.disabled[f] {
			continue
		}
		if f == "leads" {
			o = append(o, member{f, sh.leadObjects(p)})
			continue
		}
		o = append(o, member{f, envelopeValue(p, f)})
	}
	o = append(o, sh.custom...)
	return json.Marshal(o)
}

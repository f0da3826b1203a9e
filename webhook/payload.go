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
)

// Lead is a lead as deliveries carry it: the contract's lead entry. It is
// the package's own type so that deliveries do not depend on how leads
// are stored; callers convert. Empty strings and a zero CreatedAt are
// sent as null. Its JSON form is what the outbox keeps per delivery.
type Lead struct {
	ID         string    `json:"id"`
	FullName   string    `json:"full_name"`
	FirstName  string    `json:"first_name,omitempty"`
	LastName   string    `json:"last_name,omitempty"`
	Title      string    `json:"title,omitempty"`
	Company    string    `json:"company,omitempty"`
	NetworkURL string    `json:"network_url,omitempty"`
	Email      string    `json:"email,omitempty"`
	Phone      string    `json:"phone,omitempty"`
	Location   string    `json:"location,omitempty"`
	Score      *float64  `json:"score,omitempty"`
	Status     string    `json:"status,omitempty"`
	RadarID    string    `json:"radar_id,omitempty"`
	CampaignID string    `json:"campaign_id,omitempty"`
	CreatedAt  time.Time `json:"created_at,omitzero"`
}

// Sources of a delivery, the envelope's source member.
const (
	SourceAutoSync = "auto_sync"
	SourcePush     = "manual_push"
)

// Payload is what one delivery carries before it is shaped.
type Payload struct {
	Source       string
	WorkspaceID  string
	Leads        []Lead
	DispatchedAt time.Time
}

// LeadFields are the members of a lead entry, in the contract's order.
var LeadFields = []string{"id", "full_name", "first_name", "last_name", "title", "company", "network_url",
	"email", "phone", "location", "score", "status", "radar_id", "campaign_id", "created_at"}

// EnvelopeFields are the members of the default envelope, in order.
var EnvelopeFields = []string{"source", "workspace_id", "lead_count", "leads", "dispatched_at"}

// timeLayout is the API's timestamp format: UTC with milliseconds.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// field returns one member of l's entry.
func (l *Lead) field(name string) any {
	switch name {
	case "id":
		return l.ID
	case "full_name":
		return l.FullName
	case "first_name":
		return nullable(l.FirstName)
	case "last_name":
		return nullable(l.LastName)
	case "title":
		return nullable(l.Title)
	case "company":
		return nullable(l.Company)
	case "network_url":
		return nullable(l.NetworkURL)
	case "email":
		return nullable(l.Email)
	case "phone":
		return nullable(l.Phone)
	case "location":
		return nullable(l.Location)
	case "score":
		if l.Score == nil {
			return nil
		}
		return *l.Score
	case "status":
		return nullable(l.Status)
	case "radar_id":
		return nullable(l.RadarID)
	case "campaign_id":
		return nullable(l.CampaignID)
	case "created_at":
		if l.CreatedAt.IsZero() {
			return nil
		}
		return l.CreatedAt.UTC().Format(timeLayout)
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
		case !slices.Contains(LeadFields, f) && !slices.Contains(EnvelopeFields, f):
			return nil, prospector.Errorf(prospector.EINVALID, "field %s: unknown (fields: %s, %s)", f,
				strings.Join(EnvelopeFields, ", "), strings.Join(LeadFields, ", "))
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
			if !customName.MatchString(name) || slices.Contains(LeadFields, name) {
				return nil, prospector.Errorf(prospector.EINVALID, "custom field %s: must be lead.NAME with NAME a letter or _ then up to 63 letters, digits, _ or -, and not a lead field", k)
			}
			sh.leadCustom = append(sh.leadCustom, member{name, json.RawMessage(v)})
		} else {
			if !customName.MatchString(k) || slices.Contains(EnvelopeFields, k) {
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
func (sh *Shape) leadObject(l *Lead) object {
	o := make(object, 0, len(LeadFields)+len(sh.leadCustom))
	for _, f := range LeadFields {
		if !sh.disabled[f] {
			o = append(o, member{f, l.field(f)})
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
		return p.DispatchedAt.UTC().Format(timeLayout)
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
	o := make(object, 0, len(EnvelopeFields)+len(sh.custom))
	for _, f := range EnvelopeFields {
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

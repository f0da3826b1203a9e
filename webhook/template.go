package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/prospectorhq/prospector/wire"
)

// Templates. A template is a JSON document in the shape the receiver
// wants, with placeholders in its strings (docs/webhooks.md):
//
//   - a string that is exactly one placeholder becomes that value with its
//     type: "{{lead_count}}" is a number, "{{lead.email}}" a string or null,
//     "{{leads}}" the array of default lead entries, "{{lead}}" one entry;
//   - placeholders inside a longer string are written as text, null as "";
//   - an object whose only member is named "{{#leads}}" becomes an array
//     with that member's value rendered once per lead, where
//     "{{lead.FIELD}}" and "{{lead}}" name the current lead.
//
// Placeholders: source, workspace_id, lead_count, dispatched_at, leads,
// custom.NAME (a custom field's value), and inside {{#leads}} lead and
// lead.FIELD. Anything else between {{ and }} is an error, found when the
// template is saved, not when a lead is delivered.

// MaxTemplate bounds a template's size in bytes.
const MaxTemplate = 64 << 10

const maxTemplateDepth = 32

type node any

type (
	tObject []tMember
	tMember struct {
		key string
		val node
	}
	tArray   []node
	tLiteral json.RawMessage // numbers, booleans, null and strings without placeholders
	tString  []part          // text with placeholders
	tEach    struct{ body node }
)

// part is literal text (name "") or a placeholder.
type part struct {
	text string
	name string
}

type parser struct {
	dec    *json.Decoder
	custom map[string]json.RawMessage
}

func parseTemplate(src string, custom map[string]json.RawMessage) (node, error) {
	if len(src) > MaxTemplate {
		return nil, fmt.Errorf("larger than %d bytes", MaxTemplate)
	}
	dec := json.NewDecoder(strings.NewReader(src))
	dec.UseNumber()
	p := &parser{dec: dec, custom: custom}
	n, err := p.value(0, false)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after the JSON document")
	}
	return n, nil
}

func (p *parser) value(depth int, inLeads bool) (node, error) {
	if depth > maxTemplateDepth {
		return nil, fmt.Errorf("nested deeper than %d levels", maxTemplateDepth)
	}
	tok, err := p.dec.Token()
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			return p.object(depth, inLeads)
		case '[':
			var arr tArray
			for p.dec.More() {
				v, err := p.value(depth+1, inLeads)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := p.dec.Token(); err != nil {
				return nil, fmt.Errorf("not valid JSON: %w", err)
			}
			return arr, nil
		}
		return nil, fmt.Errorf("not valid JSON: unexpected %v", t)
	case string:
		return p.str(t, inLeads)
	default:
		raw, err := json.Marshal(t)
		if err != nil {
			return nil, err
		}
		return tLiteral(raw), nil
	}
}

func (p *parser) object(depth int, inLeads bool) (node, error) {
	var obj tObject
	seen := map[string]bool{}
	for p.dec.More() {
		tok, err := p.dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not valid JSON: %w", err)
		}
		key := tok.(string)
		if seen[key] {
			return nil, fmt.Errorf("member %q appears twice", key)
		}
		seen[key] = true
		if key == "{{#leads}}" {
			if inLeads {
				return nil, errors.New("{{#leads}} inside {{#leads}}")
			}
			body, err := p.value(depth+1, true)
			if err != nil {
				return nil, err
			}
			obj = append(obj, tMember{key, tEach{body}})
			continue
		}
		if strings.Contains(key, "{{") {
			return nil, fmt.Errorf("member name %q: placeholders go in values, and {{#leads}} must be written exactly", key)
		}
		v, err := p.value(depth+1, inLeads)
		if err != nil {
			return nil, err
		}
		obj = append(obj, tMember{key, v})
	}
	if _, err := p.dec.Token(); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	for _, m := range obj {
		if each, ok := m.val.(tEach); ok && m.key == "{{#leads}}" {
			if len(obj) != 1 {
				return nil, errors.New("an object with a {{#leads}} member must have no other member")
			}
			return each, nil
		}
	}
	return obj, nil
}

// str splits s into text and placeholders, checking each name.
func (p *parser) str(s string, inLeads bool) (node, error) {
	var parts []part
	rest := s
	for {
		i := strings.Index(rest, "{{")
		if i < 0 { // a stray "}}" is text: only "{{" opens a placeholder
			break
		}
		j := strings.Index(rest[i:], "}}")
		if j < 0 {
			return nil, fmt.Errorf("%q: {{ without }}", s)
		}
		if i > 0 {
			parts = append(parts, part{text: rest[:i]})
		}
		name := strings.TrimSpace(rest[i+2 : i+j])
		if err := p.checkName(name, inLeads); err != nil {
			return nil, fmt.Errorf("%q: %w", s, err)
		}
		parts = append(parts, part{name: name})
		rest = rest[i+j+2:]
	}
	if len(parts) == 0 {
		raw, _ := json.Marshal(s)
		return tLiteral(raw), nil
	}
	if rest != "" {
		parts = append(parts, part{text: rest})
	}
	if len(parts) > 1 {
		for _, pt := range parts {
			if pt.name == "leads" || pt.name == "lead" {
				return nil, fmt.Errorf("%q: {{%s}} must be the whole string", s, pt.name)
			}
		}
	}
	return tString(parts), nil
}

func (p *parser) checkName(name string, inLeads bool) error {
	switch {
	case slices.Contains(envelopeFields, name):
		return nil
	case name == "lead":
		if !inLeads {
			return errors.New("{{lead}} outside {{#leads}}")
		}
		return nil
	case strings.HasPrefix(name, "lead."):
		if !inLeads {
			return fmt.Errorf("{{%s}} outside {{#leads}}", name)
		}
		if !slices.Contains(leadFields, strings.TrimPrefix(name, "lead.")) {
			return fmt.Errorf("unknown lead field in {{%s}}", name)
		}
		return nil
	case strings.HasPrefix(name, "custom."):
		if _, ok := p.custom[strings.TrimPrefix(name, "custom.")]; !ok {
			return fmt.Errorf("{{%s}}: no such custom field", name)
		}
		return nil
	}
	return fmt.Errorf("unknown placeholder {{%s}}", name)
}

// render evaluates n for p; l is the current lead inside {{#leads}}.
func (sh *Shape) render(n node, p *Payload, l *wire.Lead) (any, error) {
	switch t := n.(type) {
	case tLiteral:
		return json.RawMessage(t), nil
	case tObject:
		o := make(object, len(t))
		for i, m := range t {
			v, err := sh.render(m.val, p, l)
			if err != nil {
				return nil, err
			}
			o[i] = member{m.key, v}
		}
		return o, nil
	case tArray:
		out := make([]any, len(t))
		for i, e := range t {
			v, err := sh.render(e, p, l)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case tEach:
		out := make([]any, len(p.Leads))
		for i := range p.Leads {
			v, err := sh.render(t.body, p, &p.Leads[i])
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case tString:
		if len(t) == 1 && t[0].name != "" {
			return sh.placeholder(t[0].name, p, l), nil
		}
		var b strings.Builder
		for _, pt := range t {
			if pt.name == "" {
				b.WriteString(pt.text)
				continue
			}
			b.WriteString(asText(sh.placeholder(pt.name, p, l)))
		}
		return b.String(), nil
	}
	return nil, fmt.Errorf("webhook: template node %T", n)
}

func (sh *Shape) placeholder(name string, p *Payload, l *wire.Lead) any {
	switch {
	case name == "leads":
		return sh.leadObjects(p)
	case name == "lead":
		return sh.leadObject(l)
	case strings.HasPrefix(name, "lead."):
		return leadField(l, strings.TrimPrefix(name, "lead."))
	case strings.HasPrefix(name, "custom."):
		return json.RawMessage(sh.customByName[strings.TrimPrefix(name, "custom.")])
	}
	return envelopeValue(p, name)
}

// asText is a value as it reads inside a longer string.
func asText(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case *string: // a lead's text member, nil when unknown
		if t == nil {
			return ""
		}
		return *t
	case string:
		return t
	case int:
		return strconv.Itoa(t)
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case json.RawMessage:
		var s string
		if json.Unmarshal(t, &s) == nil {
			return s
		}
		var c bytes.Buffer
		if json.Compact(&c, t) == nil {
			return c.String()
		}
		return string(t)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

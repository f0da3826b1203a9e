package mcpserver

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tool's input schema has two sources and no copy of either. Its shape
// (members, types, nesting) is inferred from the workflow's request type,
// so it cannot drift from what the tool decodes; its descriptions,
// required members and bounds (maxItems, maxLength, minimum, maximum,
// enum, default) are those the API's OpenAPI document states for the
// same member of the operation the tool mirrors, which the API's tests
// check against the routes and the answers. A member the document does not
// describe fails New (and so the tests).

// document is the OpenAPI document, parsed.
type document struct {
	paths   map[string]any
	schemas map[string]any
}

func parseDocument(b []byte) (*document, error) {
	var raw struct {
		Paths      map[string]any `json:"paths"`
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("mcpserver: OpenAPI document: %w", err)
	}
	if len(raw.Paths) == 0 {
		return nil, fmt.Errorf("mcpserver: OpenAPI document: no paths")
	}
	return &document{paths: raw.Paths, schemas: raw.Components.Schemas}, nil
}

// resolve follows a $ref to a component schema.
func (d *document) resolve(s map[string]any) map[string]any {
	for range 8 {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		next, _ := d.schemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
		if next == nil {
			return s
		}
		s = next
	}
	return s
}

// operation returns the operation of "METHOD /path".
func (d *document) operation(op string) (map[string]any, error) {
	method, path, _ := strings.Cut(op, " ")
	item, _ := d.paths[path].(map[string]any)
	o, _ := item[strings.ToLower(method)].(map[string]any)
	if o == nil {
		return nil, fmt.Errorf("the OpenAPI document has no operation %s", op)
	}
	return o, nil
}

// members are an operation's arguments as one object schema: its body's
// properties and its path and query parameters.
func (d *document) members(o map[string]any) (props map[string]any, required []string) {
	props = map[string]any{}
	if rb, ok := o["requestBody"].(map[string]any); ok {
		content, _ := rb["content"].(map[string]any)
		media, _ := content["application/json"].(map[string]any)
		schema, _ := media["schema"].(map[string]any)
		body := d.resolve(schema)
		if ps, ok := body["properties"].(map[string]any); ok {
			for k, v := range ps {
				props[k] = v
			}
		}
		required = strings.Fields(strings.Trim(fmt.Sprint(body["required"]), "[]"))
	}
	params, _ := o["parameters"].([]any)
	for _, p := range params {
		pm, _ := p.(map[string]any)
		if in := pm["in"]; in != "path" && in != "query" {
			continue
		}
		name, _ := pm["name"].(string)
		s, _ := pm["schema"].(map[string]any)
		merged := map[string]any{"description": pm["description"]}
		for k, v := range d.resolve(s) {
			merged[k] = v
		}
		props[name] = merged
		if pm["required"] == true {
			required = append(required, name)
		}
	}
	return props, required
}

// describe returns the MCP tool of t: its description from the
// operation, and its input schema inferred from t.in and completed from
// the operation's members.
func (t tool) describe(d *document) (*mcp.Tool, error) {
	o, err := d.operation(t.op)
	if err != nil {
		return nil, err
	}
	s, err := jsonschema.ForType(t.in, &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[json.RawMessage](): {}, // any JSON value (feedback metadata)
	}})
	if err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	props, required := d.members(o)
	for name, desc := range t.extra {
		props[name] = map[string]any{"description": desc}
	}
	if err := d.complete(s, props, ""); err != nil {
		return nil, err
	}
	s.Required = slices.DeleteFunc(required, func(n string) bool { _, ok := s.Properties[n]; return !ok })
	desc := strings.TrimSpace(fmt.Sprintf("%s. %s %s", str(o["summary"]), t.note, str(o["description"])))
	ann := t.annotations
	ann.Title = t.title
	return &mcp.Tool{Name: t.name, Title: t.title, Description: strings.ReplaceAll(desc, "  ", " "),
		InputSchema: s, Annotations: &ann}, nil
}

// complete gives each member of s the documentation of its namesake in
// props (recursively for objects and list items), and the document's
// bounds where both agree on the member's type (a query parameter the
// workflow reads as text keeps its text type and gets the description
// only); a member without a namesake is an error naming it.
func (d *document) complete(s *jsonschema.Schema, props map[string]any, path string) error {
	for name, ps := range s.Properties {
		raw, ok := props[name].(map[string]any)
		if !ok {
			return fmt.Errorf("member %s%s is not documented by the API operation", path, name)
		}
		doc := d.resolve(raw)
		if ps.Description = str(raw["description"]); ps.Description == "" {
			ps.Description = str(doc["description"])
		}
		if err := d.completeValue(ps, doc, path+name); err != nil {
			return err
		}
	}
	return nil
}

// completeValue completes one value's schema: bounds, list items and
// object members.
func (d *document) completeValue(s *jsonschema.Schema, doc map[string]any, path string) error {
	if !slices.Equal(kinds(s), docKinds(doc)) {
		return nil
	}
	bounds(s, doc)
	if s.Items != nil {
		items, _ := doc["items"].(map[string]any)
		if err := d.completeValue(s.Items, d.resolve(items), path+"[]"); err != nil {
			return err
		}
	}
	if len(s.Properties) > 0 {
		props, _ := doc["properties"].(map[string]any)
		if err := d.complete(s, props, path+"."); err != nil {
			return err
		}
		req := strings.Fields(strings.Trim(fmt.Sprint(doc["required"]), "[]"))
		s.Required = slices.DeleteFunc(req, func(n string) bool { _, ok := s.Properties[n]; return !ok })
	}
	return nil
}

// bounds copies the document's bounds of a value onto s.
func bounds(s *jsonschema.Schema, doc map[string]any) {
	ints := map[string]**int{"maxItems": &s.MaxItems, "minItems": &s.MinItems, "maxLength": &s.MaxLength,
		"minLength": &s.MinLength}
	for k, dst := range ints {
		if v, ok := doc[k].(float64); ok {
			n := int(v)
			*dst = &n
		}
	}
	floats := map[string]**float64{"minimum": &s.Minimum, "maximum": &s.Maximum}
	for k, dst := range floats {
		if v, ok := doc[k].(float64); ok {
			*dst = &v
		}
	}
	if e, ok := doc["enum"].([]any); ok {
		s.Enum = e
	}
	if v, ok := doc["default"]; ok {
		s.Default, _ = json.Marshal(v)
	}
	if f, ok := doc["format"].(string); ok && s.Type == "string" {
		s.Format = f
	}
}

// kinds are the types of s but null, sorted.
func kinds(s *jsonschema.Schema) []string {
	ts := slices.Clone(s.Types)
	if s.Type != "" {
		ts = []string{s.Type}
	}
	ts = slices.DeleteFunc(ts, func(t string) bool { return t == "null" })
	slices.Sort(ts)
	return ts
}

// docKinds are the types a document schema gives, but null, sorted.
func docKinds(doc map[string]any) []string {
	var ts []string
	switch t := doc["type"].(type) {
	case string:
		ts = []string{t}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && s != "null" {
				ts = append(ts, s)
			}
		}
	}
	slices.Sort(ts)
	return ts
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

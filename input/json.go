package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/prospectorhq/prospector"
)

// DecodeJSON reads a JSON object into dst strictly, as the API reads a
// request body and the MCP server a tool's arguments: one object with no
// trailing data, no unknown and no duplicate members, no text the store
// refuses, and every value of its field's type. Every failure is an
// EINVALID naming the member ("titles[2]: must be a string").
func DecodeJSON(body []byte, dst any) error {
	if err := checkMembers(body, reflect.TypeOf(dst)); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(err, reflect.TypeOf(dst))
	}
	if _, err := dec.Token(); err != io.EOF {
		return prospector.Errorf(prospector.EINVALID, "body: unexpected data after the JSON object")
	}
	return nil
}

func decodeError(err error, t reflect.Type) error {
	var (
		syntax  *json.SyntaxError
		typeErr *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &syntax):
		return prospector.Errorf(prospector.EINVALID, "body: malformed JSON at byte %d", syntax.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return prospector.Errorf(prospector.EINVALID, "body: malformed JSON: unexpected end of input")
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return prospector.Errorf(prospector.EINVALID, "body: must be a JSON object")
		}
		return prospector.Errorf(prospector.EINVALID, "%s: must be %s", jsonPath(t, typeErr.Field),
			jsonTypeName(typeErr.Type.Kind().String()))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return prospector.Errorf(prospector.EINVALID, "%s: unknown field", strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`))
	}
	return prospector.Errorf(prospector.EINVALID, "body: invalid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
}

// jsonPath is encoding/json's path of a member as the caller wrote it:
// encoding/json names an embedded struct (radar.UpdateRequest's
// CreateRequest) in the path, which the body never does.
func jsonPath(t reflect.Type, field string) string {
	var out []string
	for _, seg := range strings.Split(field, ".") {
		for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			t = t.Elem()
		}
		if t != nil && t.Kind() == reflect.Struct {
			if f, ok := t.FieldByName(seg); ok && f.Anonymous {
				t = f.Type
				continue
			}
			t = jsonFields(t)[seg]
		}
		out = append(out, seg)
	}
	return strings.Join(out, ".")
}

func jsonTypeName(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "map", "struct", "ptr":
		return "an object"
	case "float32", "float64":
		return "a number"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "an integer"
	}
	return "of another type"
}

// maxDepth bounds nesting, so a hostile body cannot drive the duplicate
// check into deep recursion.
const maxDepth = 64

var errSyntax = errors.New("syntax")

// checkMembers walks the token stream beside the destination type and
// rejects a member the type does not have (matching names exactly, where
// encoding/json would ignore case) or one named twice (where it would
// silently keep the last), naming the member by its full path. Syntax
// errors are left to the real decode, which reports their offset.
func checkMembers(body []byte, t reflect.Type) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := walkValue(dec, t, "", 0); err != nil && !errors.Is(err, errSyntax) {
		return err
	}
	return nil
}

// jsonFields maps the JSON member names of struct type t to their types,
// flattening embedded structs as encoding/json does.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for k, v := range jsonFields(f.Type) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// elem unwraps pointers; nil means "anything goes" (any, RawMessage).
func elem(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && (t.Kind() == reflect.Interface || t == reflect.TypeOf(json.RawMessage{})) {
		return nil
	}
	return t
}

func walkValue(dec *json.Decoder, t reflect.Type, path string, depth int) error {
	t = elem(t)
	if depth > maxDepth {
		return prospector.Errorf(prospector.EINVALID, "body: nested more than %d levels deep", maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return errSyntax
	}
	switch tok {
	case json.Delim('{'):
		var fields map[string]reflect.Type
		if t != nil && t.Kind() == reflect.Struct {
			fields = jsonFields(t)
		}
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return errSyntax
			}
			key, ok := kt.(string)
			if !ok {
				return errSyntax
			}
			if !prospector.ValidText(key) {
				return prospector.Errorf(prospector.EINVALID, "%s: member names must not contain the NUL character (U+0000)", or(path, "body"))
			}
			member := join(path, key)
			if seen[key] {
				return prospector.Errorf(prospector.EINVALID, "%s: duplicate member", member)
			}
			seen[key] = true
			var child reflect.Type
			switch {
			case fields != nil:
				ft, ok := fields[key]
				if !ok {
					return prospector.Errorf(prospector.EINVALID, "%s: unknown field", member)
				}
				child = ft
			case t != nil && t.Kind() == reflect.Map:
				child = t.Elem()
			}
			if err := walkValue(dec, child, member, depth+1); err != nil {
				return err
			}
		}
	case json.Delim('['):
		var child reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			child = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			if err := walkValue(dec, child, fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return err
			}
		}
	case nil:
		if depth == 0 { // encoding/json would decode null as {}
			return prospector.Errorf(prospector.EINVALID, "body: must be a JSON object, not null")
		}
		return nil
	default:
		// Every string of every body, metadata's included, before any
		// handler sees it: one rule for text that may reach storage.
		if v, ok := tok.(string); ok {
			return prospector.CheckText(or(path, "body"), v)
		}
		return nil
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return errSyntax
	}
	return nil
}

// or is s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func join(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

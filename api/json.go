package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"sync"

	"github.com/prospectorhq/prospector"
)

// MaxBodyBytes bounds every request body.
const MaxBodyBytes = 1 << 20

type envelope struct {
	Data any `json:"data"`
}

// bufPool recycles response buffers: encoding is on every request's path
// and growing a fresh buffer each time was a large share of its garbage.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// writeJSON encodes v before writing anything, so an encoding failure can
// still become a clean 500.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= 1<<20 { // do not keep huge buffers alive
			bufPool.Put(buf)
		}
	}()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":{"code":"service_error","message":"The service could not encode the response."}}` + "\n")
	}
	writeRawJSON(w, status, buf.Bytes())
}

// rawPool recycles the byte slices of responses rendered by hand.
var rawPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// putRaw returns a slice to rawPool unless it grew huge.
func putRaw(bp *[]byte) {
	if cap(*bp) <= 4<<20 {
		rawPool.Put(bp)
	}
}

// writeRawJSON writes a body already encoded as writeJSON would.
func writeRawJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header()["Content-Type"] = []string{"application/json"}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeData writes the 200 {"data": ...} envelope.
func writeData(w http.ResponseWriter, v any) { writeJSON(w, http.StatusOK, envelope{Data: v}) }

// decodeBody reads a JSON object body into dst strictly: the media type
// must be JSON, the body at most MaxBodyBytes, one object with no
// trailing data, no unknown and no duplicate members, and every value of
// its field's type. An empty body counts as {} so endpoints whose fields
// are all optional can be called without one. Every failure is a
// validation error naming the field.
func decodeBody(w http.ResponseWriter, r *http.Request, dst any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return prospector.Errorf(prospector.EINVALID, "body: request body exceeds %d bytes", MaxBodyBytes)
		}
		return prospector.Errorf(prospector.EINVALID, "body: could not read request body")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	} else if ct := r.Header.Get("Content-Type"); !isJSONMediaType(ct) {
		return prospector.Errorf(prospector.EINVALID, "Content-Type: must be application/json")
	}
	return decodeJSON(body, dst)
}

func isJSONMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

// decodeJSON is decodeBody without the HTTP parts, so it can be fuzzed.
func decodeJSON(body []byte, dst any) error {
	if err := checkMembers(body, reflect.TypeOf(dst)); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return prospector.Errorf(prospector.EINVALID, "body: unexpected data after the JSON object")
	}
	return nil
}

func decodeError(err error) error {
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
		return prospector.Errorf(prospector.EINVALID, "%s: must be %s", typeErr.Field, jsonTypeName(typeErr.Type.Kind().String()))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return prospector.Errorf(prospector.EINVALID, "%s: unknown field", strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`))
	}
	return prospector.Errorf(prospector.EINVALID, "body: invalid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
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
	default:
		return nil
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return errSyntax
	}
	return nil
}

func join(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

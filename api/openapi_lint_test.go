package api_test

import (
	"context"
	"encoding/json"
	"github.com/prospectorhq/prospector/api"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// openAPIPath is the document, relative to the test's working directory (api/).
const openAPIPath = "openapi.json"

// openAPIPublicOperations answer without an API key.
var openAPIPublicOperations = map[string]bool{
	"GET /api/v1/health":       true,
	"GET /api/v1/openapi.json": true,
}

// openAPIWantOperations is the whole /api/v1 surface of the contract,
// as key-info advertises it, plus the document itself.
func openAPIWantOperations() []string {
	return append(api.Endpoints(), "GET /api/v1/openapi.json")
}

// openAPIInformationalHeaders are attached to every response object.
var openAPIInformationalHeaders = []string{"x-request-id", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"}

func loadOpenAPIForLint(t *testing.T) (*openapi3.T, map[string]any) {
	t.Helper()
	raw, err := os.ReadFile(openAPIPath)
	if err != nil {
		t.Fatalf("read %s: %v", openAPIPath, err)
	}
	var tree map[string]any
	if err := json.Unmarshal(raw, &tree); err != nil {
		t.Fatalf("%s is not JSON: %v", openAPIPath, err)
	}
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromData(raw)
	if err != nil {
		t.Fatalf("load %s: %v", openAPIPath, err)
	}
	return doc, tree
}

func TestOpenAPIDocumentIsValid(t *testing.T) {
	doc, tree := loadOpenAPIForLint(t)

	if doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	if !doc.IsOpenAPI31OrLater() {
		t.Fatal("document is not treated as OpenAPI 3.1")
	}

	// Structural validation with JSON Schema 2020-12 semantics (IsOpenAPI31OrLater),
	// unknown formats rejected, and defaults, examples and patterns checked.
	ctx := context.Background()
	if err := doc.Validate(ctx,
		openapi3.IsOpenAPI31OrLater(),
		openapi3.EnableSchemaFormatValidation(),
		openapi3.EnableSchemaDefaultsValidation(),
		openapi3.EnableSchemaPatternValidation(),
		openapi3.EnableExamplesValidation(),
		openapi3.ProhibitExtensionsWithRef(),
	); err != nil {
		t.Fatalf("OpenAPI validation: %v", err)
	}

	t.Run("info", func(t *testing.T) {
		if doc.Info == nil || doc.Info.Title != "Prospector API" || doc.Info.Version != "1.0.0" || doc.Info.Description == "" {
			t.Errorf("info = %+v", doc.Info)
		}
		if len(doc.Servers) != 1 || doc.Servers[0].URL != "/" {
			t.Errorf("servers = %+v, want [{url: /}]", doc.Servers)
		}
	})

	t.Run("refs resolve", func(t *testing.T) {
		refs := map[string]bool{}
		collectOpenAPIRefs(tree, refs)
		if len(refs) == 0 {
			t.Fatal("no $ref found")
		}
		for ref := range refs {
			if !strings.HasPrefix(ref, "#/") {
				t.Errorf("$ref %q is not a local JSON pointer", ref)
				continue
			}
			if _, ok := resolveOpenAPIPointer(tree, ref); !ok {
				t.Errorf("$ref %q does not resolve", ref)
			}
		}
	})

	t.Run("operations", func(t *testing.T) {
		var got []string
		ids := map[string]string{}
		camel := regexp.MustCompile(`^[a-z][a-zA-Z0-9]*$`)
		for path, item := range doc.Paths.Map() {
			if !strings.HasPrefix(path, "/api/v1/") {
				t.Errorf("path %q does not begin with /api/v1/", path)
			}
			for method, op := range item.Operations() {
				key := method + " " + path
				got = append(got, key)
				switch {
				case op.OperationID == "":
					t.Errorf("%s: no operationId", key)
				case !camel.MatchString(op.OperationID):
					t.Errorf("%s: operationId %q is not camelCase", key, op.OperationID)
				case ids[op.OperationID] != "":
					t.Errorf("%s: operationId %q already used by %s", key, op.OperationID, ids[op.OperationID])
				default:
					ids[op.OperationID] = key
				}
				if op.Summary == "" {
					t.Errorf("%s: no summary", key)
				}
				if len(op.Tags) == 0 {
					t.Errorf("%s: no tags", key)
				}
			}
		}
		sort.Strings(got)
		want := slices.Clone(openAPIWantOperations())
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("operations differ from the contract:\n got %v\nwant %v", got, want)
		}
	})

	t.Run("security", func(t *testing.T) {
		scheme := doc.Components.SecuritySchemes["apiKey"]
		if scheme == nil || scheme.Value == nil {
			t.Fatal("components.securitySchemes.apiKey missing")
		}
		if s := scheme.Value; s.Type != "apiKey" || s.In != "header" || s.Name != "X-Service-API-Key" {
			t.Errorf("apiKey scheme = %+v", s)
		}
		if len(doc.Security) != 1 || len(doc.Security[0]) != 1 {
			t.Fatalf("global security = %v, want [{apiKey: []}]", doc.Security)
		}
		if scopes, ok := doc.Security[0]["apiKey"]; !ok || len(scopes) != 0 {
			t.Errorf("global security = %v, want [{apiKey: []}]", doc.Security)
		}
		forEachOpenAPIOperation(doc, func(key string, op *openapi3.Operation) {
			if openAPIPublicOperations[key] {
				if op.Security == nil || len(*op.Security) != 0 {
					t.Errorf("%s: want security: [] (answers without a key)", key)
				}
				return
			}
			if op.Security != nil {
				t.Errorf("%s: overrides security (%v); it must inherit the global apiKey requirement", key, *op.Security)
			}
		})
	})

	t.Run("responses", func(t *testing.T) {
		forEachOpenAPIOperation(doc, func(key string, op *openapi3.Operation) {
			codes := openAPIResponseCodes(op)
			var want []string
			switch key {
			case "GET /api/v1/health":
				want = []string{"200", "500"}
			case "GET /api/v1/openapi.json":
				want = []string{"200"}
			default:
				want = []string{"200", "401", "429", "500"}
			}
			for _, code := range want {
				if !slices.Contains(codes, code) {
					t.Errorf("%s: response %s missing (have %v)", key, code, codes)
				}
			}
			if openAPIPublicOperations[key] && len(codes) != len(want) {
				t.Errorf("%s: responses %v, want exactly %v", key, codes, want)
			}
			for _, code := range codes {
				if code != "200" && code != "400" && code != "401" && code != "404" && code != "429" && code != "500" {
					t.Errorf("%s: unexpected response %s", key, code)
				}
			}
			if r := op.Responses.Value("404"); r != nil {
				wantRef := "#/components/responses/NotFound"
				if key == "POST /api/v1/feedback/events" {
					wantRef = "#/components/responses/LeadNotFound"
				}
				if r.Ref != wantRef {
					t.Errorf("%s: 404 is %q, want %q", key, r.Ref, wantRef)
				}
			}
			if !openAPIPublicOperations[key] {
				for code, name := range map[string]string{"400": "BadRequest", "401": "Unauthorized", "429": "RateLimited", "500": "ServiceError"} {
					if r := op.Responses.Value(code); r != nil && r.Ref != "#/components/responses/"+name {
						t.Errorf("%s: %s is %q, want the reusable %s response", key, code, r.Ref, name)
					}
				}
			}
			ok := op.Responses.Value("200")
			if ok == nil || ok.Value == nil {
				return
			}
			mt := ok.Value.Content.Get("application/json")
			if mt == nil || mt.Schema == nil {
				t.Errorf("%s: 200 has no application/json schema", key)
			} else if key != "GET /api/v1/openapi.json" {
				s := mt.Schema.Value
				if !slices.Equal(s.Required, []string{"data"}) || s.Properties["data"] == nil {
					t.Errorf("%s: 200 body is not a {data: ...} envelope", key)
				}
			}
			checkOpenAPIHeaders(t, key+" 200", ok.Value)
		})
		for name, r := range doc.Components.Responses {
			if r.Value == nil {
				t.Errorf("components.responses.%s unresolved", name)
				continue
			}
			checkOpenAPIHeaders(t, "components.responses."+name, r.Value)
			mt := r.Value.Content.Get("application/json")
			if mt == nil || mt.Schema == nil || mt.Schema.Ref != "#/components/schemas/Error" {
				t.Errorf("components.responses.%s does not reference the Error schema", name)
			}
		}
		if r := doc.Components.Responses["RateLimited"]; r == nil || r.Value.Headers["Retry-After"] == nil {
			t.Error("429 response does not document Retry-After")
		}
	})

	t.Run("request bodies reject unknown members", func(t *testing.T) {
		forEachOpenAPIOperation(doc, func(key string, op *openapi3.Operation) {
			if op.RequestBody == nil {
				if strings.HasPrefix(key, "POST ") {
					t.Errorf("%s: no request body", key)
				}
				return
			}
			mt := op.RequestBody.Value.Content.Get("application/json")
			if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
				t.Errorf("%s: request body has no application/json schema", key)
				return
			}
			if s := mt.Schema.Value; s.AdditionalProperties.Has == nil || *s.AdditionalProperties.Has {
				t.Errorf("%s: request body schema must set additionalProperties: false", key)
			}
		})
	})

	t.Run("error schema", func(t *testing.T) {
		s := doc.Components.Schemas["Error"]
		if s == nil || s.Value == nil {
			t.Fatal("components.schemas.Error missing")
		}
		errProp := s.Value.Properties["error"]
		if errProp == nil || errProp.Value.Properties["code"] == nil {
			t.Fatal("Error.error.code missing")
		}
		var codes []string
		for _, v := range errProp.Value.Properties["code"].Value.Enum {
			codes = append(codes, v.(string))
		}
		want := []string{"validation_error", "unauthorized", "not_found", "lead_not_found", "rate_limit_exceeded", "service_error"}
		if !slices.Equal(codes, want) {
			t.Errorf("error codes = %v, want %v", codes, want)
		}
	})
}

func forEachOpenAPIOperation(doc *openapi3.T, fn func(key string, op *openapi3.Operation)) {
	paths := doc.Paths.InMatchingOrder()
	sort.Strings(paths)
	for _, path := range paths {
		ops := doc.Paths.Value(path).Operations()
		methods := make([]string, 0, len(ops))
		for m := range ops {
			methods = append(methods, m)
		}
		sort.Strings(methods)
		for _, m := range methods {
			fn(m+" "+path, ops[m])
		}
	}
}

func openAPIResponseCodes(op *openapi3.Operation) []string {
	var codes []string
	for code := range op.Responses.Map() {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	return codes
}

func checkOpenAPIHeaders(t *testing.T, where string, r *openapi3.Response) {
	t.Helper()
	for _, h := range openAPIInformationalHeaders {
		ref := r.Headers[h]
		if ref == nil || ref.Value == nil {
			t.Errorf("%s: header %s missing", where, h)
		}
	}
}

// collectOpenAPIRefs gathers every "$ref" string in a decoded JSON tree.
func collectOpenAPIRefs(node any, refs map[string]bool) {
	switch v := node.(type) {
	case map[string]any:
		for k, child := range v {
			if s, ok := child.(string); ok && k == "$ref" {
				refs[s] = true
				continue
			}
			collectOpenAPIRefs(child, refs)
		}
	case []any:
		for _, child := range v {
			collectOpenAPIRefs(child, refs)
		}
	}
}

// resolveOpenAPIPointer follows a local JSON pointer such as "#/components/schemas/Error".
func resolveOpenAPIPointer(root any, ref string) (any, bool) {
	frag, err := url.PathUnescape(strings.TrimPrefix(ref, "#"))
	if err != nil {
		return nil, false
	}
	node := root
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := node.(map[string]any)
		if !ok {
			return nil, false
		}
		if node, ok = m[tok]; !ok {
			return nil, false
		}
	}
	return node, true
}

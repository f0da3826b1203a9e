package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
)

// A tool whose arguments have a member the API operation does not
// document, or that mirrors no operation, cannot be built: the schema
// and the document cannot drift apart unnoticed.
func TestSchemaDrift(t *testing.T) {
	doc, err := parseDocument(api.OpenAPIDocument())
	if err != nil {
		t.Fatal(err)
	}
	type extra struct {
		Titles []string `json:"titles"`
		Color  *string  `json:"color"`
	}
	type nested struct {
		People *struct {
			Shoe *string `json:"shoe_size"`
		} `json:"people"`
	}
	run := func(context.Context, *prospector.Principal, *extra) (any, error) { return nil, nil }
	for _, c := range []struct {
		t    tool
		want string
	}{
		{def("x", "X", "POST /api/v1/search/people", readOnly, run), "member color is not documented"},
		{def("x", "X", "POST /api/v1/search/nothing", readOnly, run), "no operation POST /api/v1/search/nothing"},
		{def("x", "X", "POST /api/v1/search/people", readOnly,
			func(context.Context, *prospector.Principal, *nested) (any, error) { return nil, nil }),
			"member people.shoe_size is not documented"},
	} {
		if _, err := c.t.describe(doc); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.t.op, err, c.want)
		}
	}
	// A described member keeps its inferred type and takes the document's
	// bounds only where the types agree.
	tl, err := def("x", "X", "GET /api/v1/radar", readOnly,
		func(context.Context, *prospector.Principal, *struct {
			Page string `json:"page"`
		}) (any, error) {
			return nil, nil
		}).describe(doc)
	if err != nil {
		t.Fatal(err)
	}
	page := tl.InputSchema.(*jsonschema.Schema).Properties["page"]
	if page.Type != "string" || page.Maximum != nil || !strings.HasPrefix(page.Description, "Page number") {
		t.Fatalf("a text member documented as an integer: %+v", page)
	}
}

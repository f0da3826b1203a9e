package api_test

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector/api"
)

// notYetRouted are the contract's endpoints the document describes and
// later issues implement. Each must leave this list when it is routed.
var notYetRouted = map[string]string{}

// notREST are routes the OpenAPI document does not describe, and where
// they are documented instead.
var notREST = map[string]string{"POST /mcp": "docs/mcp.md: the MCP transport speaks JSON-RPC"}

func documentedOperations(t *testing.T) map[string]bool {
	t.Helper()
	raw, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	ops := map[string]bool{}
	for path, item := range doc.Paths {
		for method := range item {
			switch method {
			case "get", "post", "put", "patch", "delete":
				ops[strings.ToUpper(method)+" "+path] = true
			}
		}
	}
	return ops
}

func TestRoutesMatchOpenAPIDocument(t *testing.T) {
	routes := newEnv(t).server.Routes()
	doc := documentedOperations(t)
	routed := map[string]bool{}
	for _, r := range routes {
		routed[r] = true
		if _, elsewhere := notREST[r]; !doc[r] && !elsewhere {
			t.Errorf("route %s is missing from api/openapi.json", r)
		}
		if issue, pending := notYetRouted[r]; pending {
			t.Errorf("route %s is routed: remove it from notYetRouted (%s)", r, issue)
		}
	}
	var missing []string
	for op := range doc {
		if !routed[op] {
			if _, pending := notYetRouted[op]; !pending {
				missing = append(missing, op)
			}
		}
	}
	sort.Strings(missing)
	for _, op := range missing {
		t.Errorf("documented operation %s has no route", op)
	}
	// Everything key-info advertises is documented.
	for _, ep := range api.Endpoints() {
		if !doc[ep] {
			t.Errorf("allowed endpoint %s is not in the document", ep)
		}
	}
}

func TestOpenAPIServedWithoutKey(t *testing.T) {
	e := newEnv(t)
	r := e.do("GET", "/api/v1/openapi.json", "", nil)
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, content type %q", r.status, r.header.Get("Content-Type"))
	}
	var doc map[string]any
	if err := json.Unmarshal(r.body, &doc); err != nil || doc["openapi"] != "3.1.0" {
		t.Fatalf("served document: %v %v", err, doc["openapi"])
	}
	wantRateHeaders(t, r)
}

package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
)

type sample struct {
	Name       string   `json:"name"`
	MaxResults *int     `json:"max_results"`
	Keywords   []string `json:"keywords"`
	Cascade    []struct {
		Role string `json:"role"`
	} `json:"cascade"`
	Company struct {
		Industry struct {
			Include []string `json:"include"`
		} `json:"industry"`
	} `json:"company"`
}

func TestDecodeJSON(t *testing.T) {
	for _, tc := range []struct {
		name, body, wantErr string
	}{
		{"ok", `{"name":"a","max_results":5,"keywords":["x"],"cascade":[{"role":"r"}],"company":{"industry":{"include":["y"]}}}`, ""},
		{"empty object", `{}`, ""},
		{"malformed", `{"name":`, "body: malformed JSON"},
		{"not json", `name=a`, "body: malformed JSON at byte"},
		{"array body", `[1,2]`, "body: must be a JSON object"},
		{"string body", `"x"`, "body: must be a JSON object"},
		{"trailing data", `{"name":"a"} {"name":"b"}`, "body: unexpected data after the JSON object"},
		{"trailing garbage", `{"name":"a"}x`, "body: unexpected data after the JSON object"},
		{"wrong type string", `{"name":5}`, "name: must be a string"},
		{"wrong type number", `{"max_results":"10"}`, "max_results: must be an integer"},
		{"fraction for integer", `{"max_results":1.5}`, "max_results: must be an integer"},
		{"wrong type array", `{"keywords":"x"}`, "keywords: must be an array"},
		{"wrong type in array", `{"keywords":[1]}`, "keywords: must be a string"},
		{"nested wrong type", `{"cascade":[{"role":7}]}`, "cascade.role: must be a string"},
		{"deep wrong type", `{"company":{"industry":{"include":"x"}}}`, "company.industry.include: must be an array"},
		{"unknown member", `{"nmae":"a"}`, "nmae: unknown field"},
		{"nested unknown member", `{"company":{"industy":{}}}`, "company.industy: unknown field"},
		{"unknown member in array item", `{"cascade":[{"role":"a","rank":1}]}`, "cascade[0].rank: unknown field"},
		{"member names are case-sensitive", `{"Name":"a"}`, "Name: unknown field"},
		{"duplicate member", `{"name":"a","name":"b"}`, "name: duplicate member"},
		{"nested duplicate", `{"company":{"industry":{"include":[],"include":[]}}}`, "company.industry.include: duplicate member"},
		{"duplicate in array item", `{"cascade":[{"role":"a"},{"role":"a","role":"b"}]}`, "cascade[1].role: duplicate member"},
		{"null body", `null`, "body: must be a JSON object, not null"},
		{"null body with spaces", " null\n", "body: must be a JSON object, not null"},
		{"null member is absent", `{"name":null}`, ""},
		{"NUL in a value", `{"name":"a\u0000b"}`, "name: must not contain the NUL character"},
		{"NUL in a list", `{"keywords":["x","\u0000"]}`, "keywords[1]: must not contain the NUL character"},
		{"NUL escape as text", `{"company":{"industry":{"include":["a\\u0000"]}}}`, "company.industry.include[0]: must not contain"},
		{"escaped backslash is fine", `{"name":"a\\\\u0000"}`, ""},
		{"NUL in a member name", `{"company":{"a\u0000":1}}`, "company: member names must not contain the NUL character"},
		{"too deep", `{"company":` + strings.Repeat(`[`, 100) + strings.Repeat(`]`, 100) + `}`, "nested more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dst sample
			err := decodeJSON([]byte(tc.body), &dst)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if prospector.ErrorCode(err) != prospector.EINVALID || !strings.Contains(prospector.ErrorMessage(err), tc.wantErr) {
				t.Fatalf("error %v, want validation_error containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestDecodeBody(t *testing.T) {
	for _, tc := range []struct {
		name, contentType, body, wantErr string
	}{
		{"json", "application/json", `{"name":"a"}`, ""},
		{"json with charset", "application/json; charset=utf-8", `{"name":"a"}`, ""},
		{"empty body is {}", "", ``, ""},
		{"whitespace body is {}", "", "  \n", ""},
		{"form body", "application/x-www-form-urlencoded", `name=a`, "Content-Type: must be application/json"},
		{"no content type", "", `{"name":"a"}`, "Content-Type: must be application/json"},
		{"too large", "application/json", `{"name":"` + strings.Repeat("a", MaxBodyBytes) + `"}`, "body: request body exceeds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tc.body))
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			var dst sample
			err := decodeBody(httptest.NewRecorder(), req, &dst)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if prospector.ErrorCode(err) != prospector.EINVALID || !strings.Contains(prospector.ErrorMessage(err), tc.wantErr) {
				t.Fatalf("error %v, want validation_error containing %q", err, tc.wantErr)
			}
		})
	}
}

// FuzzDecodeJSON: any input either decodes or yields a validation error;
// it never panics and never produces another kind of error.
func FuzzDecodeJSON(f *testing.F) {
	for _, seed := range []string{`{}`, `{"name":"a","name":"b"}`, `{"cascade":[{"role":"x"}]}`, `[`, `{"a":`,
		`{"max_results":1e400}`, `{"company":{"industry":{"include":["\u0000"]}}}`, `null`, `{"keywords":null}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var dst sample
		err := decodeJSON(body, &dst)
		if err != nil && prospector.ErrorCode(err) != prospector.EINVALID {
			t.Fatalf("input %q: error %v is not a validation error", body, err)
		}
		if err != nil {
			return
		}
		// What decodes may reach storage: no NUL, valid UTF-8.
		texts := append([]string{dst.Name}, dst.Keywords...)
		texts = append(texts, dst.Company.Industry.Include...)
		for _, c := range dst.Cascade {
			texts = append(texts, c.Role)
		}
		for _, s := range texts {
			if !prospector.ValidText(s) {
				t.Fatalf("input %q decoded %q, which no store accepts", body, s)
			}
		}
	})
}

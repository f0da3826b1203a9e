package importer

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// stdDecode is what the import did before decodeFlat, and still does
// for lines it declines.
func stdDecode(b []byte) (map[string]any, bool) {
	var raw map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil || dec.More() || raw == nil {
		return nil, false
	}
	return raw, true
}

var flatLines = []string{
	`{"city":"Bengaluru","title":"Co-founder \u0026 COO","score":71.5,"email":"","phone":null,"verified":true,"x":false}`,
	`{}`,
	` { "a" : [ ] , "b":["x", 1, -2.5e+3, null, true] } `,
	`{"n":0,"m":-0.5,"e":1E9,"f":12e-2}`,
	`{"esc":"quote \" back \\ slash \/ \b\f\n\r\t end"}`,
	`{"u":"caf\u00e9 \ud83d\ude00 lone \ud800 x \udc00"}`,
	`{"utf8":"Zoë – 東京"}`,
	`{"dup":"first","dup":"second"}`,
	`{"Company Domain":"acme.example"}`,
}

func TestDecodeFlatMatchesEncodingJSON(t *testing.T) {
	for _, line := range flatLines {
		got, ok := decodeFlat([]byte(line))
		if !ok {
			t.Errorf("%s: declined a flat line", line)
			continue
		}
		want, _ := stdDecode([]byte(line))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", line, got, want)
		}
	}
}

// Lines decodeFlat must leave to encoding/json: nested objects, and
// everything encoding/json rejects or would repair.
func TestDecodeFlatDeclines(t *testing.T) {
	for _, line := range []string{
		`{"company":{"domain":"acme.example"}}`,
		`{"a":[{"b":1}]}`,
		`{"a":[[1]]}`,
		`[1,2]`,
		`"text"`,
		`{"a":1} {"b":2}`,
		`{"a":1,}`,
		`{"a" 1}`,
		`{"a":01}`,
		`{"a":1.}`,
		`{"a":-}`,
		`{"a":1e}`,
		`{"a":tru}`,
		`{"a":nul}`,
		`{"a":"tab	inside"}`,
		`{"a":"bad \x escape"}`,
		`{"a":"short \u12"}`,
		"{\"a\":\"latin1 \xe9\"}",
		`{"a":"unterminated}`,
		`{"a":1`,
		``,
	} {
		if got, ok := decodeFlat([]byte(line)); ok {
			t.Errorf("%s: decoded as %#v, want it declined", line, got)
		}
	}
}

// A line decodeFlat accepts decodes exactly as encoding/json decodes it.
func FuzzDecodeFlat(f *testing.F) {
	for _, line := range flatLines {
		f.Add([]byte(line))
	}
	f.Add([]byte(`{"a":{"b":1}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := decodeFlat(b)
		if !ok {
			return
		}
		want, stdOK := stdDecode(b)
		if !stdOK {
			t.Fatalf("%q: accepted a line encoding/json rejects", b)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %#v\nwant %#v", b, got, want)
		}
	})
}

func BenchmarkDecodePersonLine(b *testing.B) {
	line := []byte(`{"city":"Bengaluru","company":"Cinderyard Infotech","company_domain":"cinderyard-infotech.example","country":"IN","email":"","first_name":"Ling","full_name":"Ling Wu","id":"demo-person-1","last_name":"Wu","network_url":"https://network.example/in/ling-wu-d25b73e6","phone":"","region":"Karnataka","title":"Co-founder \u0026 COO"}`)
	b.Run("flat", func(b *testing.B) {
		for b.Loop() {
			decodeFlat(line)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			stdDecode(line)
		}
	})
}

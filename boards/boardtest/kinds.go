package boardtest

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// kind is what the server knows of one vendor format.
type kind struct {
	name        string // the fixture file's base name: "greenhouse", ...
	file        string
	contentType string
	titleField  string // the JSON field holding a posting's title
	idField     string // the JSON field holding a posting's id
	itemsField  string // the envelope field holding the postings; "" for a bare array
	nameField   func(item map[string]json.RawMessage) string
}

// kindOf maps an endpoint name (as the boards package and --source-base-url
// name them) to its format; the -eu and -com endpoints share their
// vendor's.
func kindOf(endpoint string) (*kind, bool) {
	switch endpoint {
	case "greenhouse":
		return &kind{name: "greenhouse", file: "greenhouse.json", contentType: "application/json", titleField: "title",
			idField: "id", itemsField: "jobs", nameField: stringField("company_name")}, true
	case "lever", "lever-eu":
		return &kind{name: "lever", file: "lever.json", contentType: "application/json", titleField: "text", idField: "id"}, true
	case "ashby":
		return &kind{name: "ashby", file: "ashby.json", contentType: "application/json", titleField: "title", idField: "id",
			itemsField: "jobs"}, true
	case "workable":
		return &kind{name: "workable", file: "workable.json", contentType: "application/json", titleField: "title",
			idField: "shortcode", itemsField: "jobs"}, true
	case "smartrecruiters":
		return &kind{name: "smartrecruiters", file: "smartrecruiters.json", contentType: "application/json", titleField: "name",
			idField: "id", itemsField: "content", nameField: func(m map[string]json.RawMessage) string {
				var c struct{ Name string }
				_ = json.Unmarshal(m["company"], &c)
				return c.Name
			}}, true
	case "recruitee":
		return &kind{name: "recruitee", file: "recruitee.json", contentType: "application/json", titleField: "title", idField: "id",
			itemsField: "offers", nameField: stringField("company_name")}, true
	case "personio", "personio-com":
		return &kind{name: "personio", file: "personio.xml", contentType: "application/xml; charset=utf-8"}, true
	}
	return nil, false
}

func stringField(f string) func(map[string]json.RawMessage) string {
	return func(m map[string]json.RawMessage) string {
		var s string
		_ = json.Unmarshal(m[f], &s)
		return s
	}
}

// split cuts a document in the vendor's format into its postings, and
// reads the company name it carries (Workable's account name, the first
// posting's company for Greenhouse, SmartRecruiters and Recruitee).
func (k *kind) split(doc []byte) (company string, items [][]byte, err error) {
	if k.name == "personio" {
		var feed struct {
			Positions []struct {
				Inner []byte `xml:",innerxml"`
			} `xml:"position"`
		}
		if err := xml.Unmarshal(doc, &feed); err != nil {
			return "", nil, err
		}
		for _, p := range feed.Positions {
			items = append(items, append(append([]byte("<position>"), p.Inner...), "</position>"...))
		}
		return "", items, nil
	}
	var raw []json.RawMessage
	if k.itemsField == "" {
		err = json.Unmarshal(doc, &raw)
	} else {
		var env map[string]json.RawMessage
		if err = json.Unmarshal(doc, &env); err == nil {
			_ = json.Unmarshal(env["name"], &company)
			err = json.Unmarshal(env[k.itemsField], &raw)
		}
	}
	if err != nil {
		return "", nil, err
	}
	for _, it := range raw {
		items = append(items, []byte(it))
		if company == "" && k.nameField != nil {
			var m map[string]json.RawMessage
			if json.Unmarshal(it, &m) == nil {
				company = k.nameField(m)
			}
		}
	}
	return company, items, nil
}

// id reads a posting's id.
func (k *kind) id(item []byte) string {
	if k.name == "personio" {
		var p struct {
			ID string `xml:"id"`
		}
		_ = xml.Unmarshal(item, &p)
		return strings.TrimSpace(p.ID)
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(item, &m) != nil {
		return ""
	}
	v := bytes.TrimSpace(m[k.idField])
	if s, err := strconv.Unquote(string(v)); err == nil {
		return s
	}
	return string(v)
}

// setTitle rewrites a posting's title.
func (k *kind) setTitle(item []byte, title string) ([]byte, error) {
	if k.name == "personio" {
		var p personioPosition
		if err := xml.Unmarshal(item, &p); err != nil {
			return nil, err
		}
		p.Name = title
		return xml.Marshal(p)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(item, &m); err != nil {
		return nil, err
	}
	t, _ := json.Marshal(title)
	m[k.titleField] = t
	return json.Marshal(m)
}

// render writes the answer to a listing request of board b: the envelope
// around its postings. For SmartRecruiters it is the page offset/limit of
// the request asks for.
func (k *kind) render(b *board, r *http.Request) []byte {
	var buf bytes.Buffer
	items := b.items
	switch k.name {
	case "personio":
		buf.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<workzag-jobs>\n")
		for _, it := range items {
			buf.Write(it)
			buf.WriteByte('\n')
		}
		buf.WriteString("</workzag-jobs>\n")
		return buf.Bytes()
	case "smartrecruiters":
		offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
		limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
		if err != nil || limit <= 0 || limit > 100 {
			limit = 10
		}
		offset = max(0, min(offset, len(items)))
		end := min(offset+limit, len(items))
		fmt.Fprintf(&buf, `{"offset":%d,"limit":%d,"totalFound":%d,"content":`, offset, limit, len(items))
		writeArray(&buf, items[offset:end])
		buf.WriteByte('}')
		return buf.Bytes()
	case "lever":
		writeArray(&buf, items)
		return buf.Bytes()
	case "workable":
		name, _ := json.Marshal(b.company)
		fmt.Fprintf(&buf, `{"name":%s,"description":"<p>Generated fixture account.</p>","jobs":`, name)
	case "ashby":
		buf.WriteString(`{"apiVersion":"1","jobs":`)
	default:
		fmt.Fprintf(&buf, `{%q:`, k.itemsField)
	}
	writeArray(&buf, items)
	if k.name == "greenhouse" {
		fmt.Fprintf(&buf, `,"meta":{"total":%d}`, len(items))
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

func writeArray(buf *bytes.Buffer, items [][]byte) {
	buf.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(it)
	}
	buf.WriteByte(']')
}

// unknownBoard answers a request for a board the server does not hold, as
// the vendor does: a 404 with the vendor's error body, an empty page for
// SmartRecruiters, a redirect to an empty-looking page for Personio.
func (k *kind) unknownBoard(w http.ResponseWriter, r *http.Request, emptyPage string) {
	switch k.name {
	case "smartrecruiters":
		w.Header().Set("Content-Type", k.contentType)
		_, _ = w.Write([]byte(`{"offset":0,"limit":10,"totalFound":0,"content":[]}`))
	case "personio":
		http.Redirect(w, r, emptyPage, http.StatusFound)
	case "lever":
		w.Header().Set("Content-Type", k.contentType)
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"ok":false,"error":"Document not found"}`))
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"status":404,"error":"Not found"}`))
	}
}

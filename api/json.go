package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"sync"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
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

// decodeJSON is decodeBody without the HTTP parts, so it can be fuzzed:
// input.DecodeJSON, which every front end decodes arguments with.
func decodeJSON(body []byte, dst any) error { return input.DecodeJSON(body, dst) }

package importer

import (
	"bytes"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/prospectorhq/prospector"
)

// A line whose text no store accepts (prospector.ValidText: not UTF-8, or
// holding U+0000 raw or as the JSON escape \u0000) is rejected by its
// number, as any bad line is, so the rest of the file lands on both
// engines. Left to the store, it would fail the whole batch it is in.

// escapedNUL is how U+0000, or the literal text \u0000, appears in JSON.
var escapedNUL = []byte(`\u0000`)

// checkJSONLine rejects a JSONL line that is not UTF-8 (encoding/json
// would quietly replace the bytes with U+FFFD); rec is the line decoded,
// walked only when the line could hold a NUL.
func checkJSONLine(line []byte, rec record) error {
	if !utf8.Valid(line) {
		return badLine("not valid UTF-8: save the file as UTF-8")
	}
	if !bytes.Contains(line, escapedNUL) {
		return nil
	}
	return checkRecordText(rec)
}

// checkRecordText returns a line error naming the first member (in name
// order) whose text, or that of anything nested in it, is not
// prospector.ValidText; nil when every text is.
func checkRecordText(rec record) error {
	bad := false
	for _, v := range rec {
		if validText("", v) != nil {
			bad = true
			break
		}
	}
	if !bad {
		return nil
	}
	names := make([]string, 0, len(rec))
	for k := range rec {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if err := validText(k, rec[k]); err != nil {
			return badLine("%s", prospector.ErrorMessage(err))
		}
	}
	return nil
}

// validText checks v, named name, and what it holds: strings, arrays and
// objects (whose member names are stored too when the object is).
func validText(name string, v any) error {
	switch x := v.(type) {
	case string:
		return prospector.CheckText(name, x)
	case []any:
		for i, e := range x {
			if err := validText(fmt.Sprintf("%s[%d]", name, i), e); err != nil {
				return err
			}
		}
	case map[string]any:
		for k, e := range x {
			if !prospector.ValidText(k) {
				return prospector.Errorf(prospector.EINVALID, "%s: member names must not contain the NUL character (U+0000)", name)
			}
			if err := validText(name+"."+k, e); err != nil {
				return err
			}
		}
	}
	return nil
}

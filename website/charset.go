package website

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/transform"
)

// decode returns body as UTF-8 and the name of the encoding it was read
// as: a byte-order mark first, then the Content-Type charset, then a
// <meta charset> in the first 1024 bytes (the browsers' prescan), then
// UTF-8 if the bytes are valid UTF-8, else windows-1252 (what browsers
// assume for an unlabelled Western page).
func decode(body []byte, header http.Header) (string, string) {
	enc, name, _ := charset.DetermineEncoding(body, header.Get("Content-Type"))
	if name == "utf-8" || isASCII(body) && asciiCompatible(name) {
		return toValidUTF8(body), "utf-8"
	}
	out, _, err := transform.Bytes(enc.NewDecoder(), body)
	if err != nil {
		// A decoder fails only on input its encoding cannot hold; what was
		// decoded is still better than nothing, and the rest is read as
		// UTF-8 with invalid bytes replaced.
		return toValidUTF8(body), "utf-8"
	}
	return string(out), name
}

// toValidUTF8 keeps valid UTF-8 as it is (one copy) and replaces invalid
// bytes, so regular expressions and JSON see well-formed text.
func toValidUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// asciiCompatible reports whether ASCII bytes mean the same in the named
// encoding, so a pure-ASCII body needs no decoding. UTF-16 and the
// ISO-2022 family are the exceptions that matter.
func asciiCompatible(name string) bool {
	switch name {
	case "utf-16be", "utf-16le", "iso-2022-jp", "replacement":
		return false
	}
	return true
}

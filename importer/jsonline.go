package importer

import (
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeFlat decodes a JSONL line holding one object whose members are
// strings, numbers, booleans, nulls or arrays of those: the shape of every
// line the exports and vendor layouts write. It gives what encoding/json
// with UseNumber would, at a fraction of the cost (reflection into a map
// was a third of an import's parsing time), and all strings share one
// copy of the line. Anything else (a nested object, a syntax error, bytes
// that are not UTF-8) returns ok false, and the caller decodes the line
// with encoding/json, which also words the error.
func decodeFlat(b []byte) (rec map[string]any, ok bool) {
	d := flatDecoder{s: string(b)}
	d.space()
	if !d.consume('{') {
		return nil, false
	}
	rec = make(map[string]any, 16)
	d.space()
	if d.consume('}') {
		return rec, d.end()
	}
	for {
		d.space()
		key, ok := d.str()
		if !ok {
			return nil, false
		}
		d.space()
		if !d.consume(':') {
			return nil, false
		}
		d.space()
		var v any
		if d.peek() == '[' {
			v, ok = d.array()
		} else {
			v, ok = d.scalar()
		}
		if !ok {
			return nil, false
		}
		rec[key] = v
		d.space()
		if d.consume('}') {
			return rec, d.end()
		}
		if !d.consume(',') {
			return nil, false
		}
	}
}

type flatDecoder struct {
	s string
	i int
}

func (d *flatDecoder) peek() byte {
	if d.i < len(d.s) {
		return d.s[d.i]
	}
	return 0
}

// consume takes c if it comes next (c is never 0, peek's "no more").
func (d *flatDecoder) consume(c byte) bool {
	if d.peek() == c {
		d.i++
		return true
	}
	return false
}

func (d *flatDecoder) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\r', '\n':
			d.i++
		default:
			return
		}
	}
}

// end reports whether only white space follows.
func (d *flatDecoder) end() bool {
	d.space()
	return d.i == len(d.s)
}

func (d *flatDecoder) array() ([]any, bool) {
	d.i++ // '['
	out := []any{}
	d.space()
	if d.consume(']') {
		return out, true
	}
	for {
		d.space()
		v, ok := d.scalar()
		if !ok {
			return nil, false
		}
		out = append(out, v)
		d.space()
		if d.consume(']') {
			return out, true
		}
		if !d.consume(',') {
			return nil, false
		}
	}
}

func (d *flatDecoder) scalar() (any, bool) {
	switch c := d.peek(); {
	case c == '"':
		return d.str()
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	for _, lit := range [...]struct {
		text string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(d.s)-d.i >= len(lit.text) && d.s[d.i:d.i+len(lit.text)] == lit.text {
			d.i += len(lit.text)
			return lit.v, true
		}
	}
	return nil, false
}

// number accepts exactly JSON's number grammar.
func (d *flatDecoder) number() (json.Number, bool) {
	start := d.i
	d.consume('-')
	switch c := d.peek(); {
	case c == '0':
		d.i++
	case c >= '1' && c <= '9':
		d.digits()
	default:
		return "", false
	}
	if d.consume('.') && !d.digits() {
		return "", false
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.i++
		if c := d.peek(); c == '+' || c == '-' {
			d.i++
		}
		if !d.digits() {
			return "", false
		}
	}
	return json.Number(d.s[start:d.i]), true
}

func (d *flatDecoder) digits() bool {
	start := d.i
	for d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
		d.i++
	}
	return d.i > start
}

// str reads a string; without escapes it is a slice of the line.
func (d *flatDecoder) str() (string, bool) {
	if !d.consume('"') {
		return "", false
	}
	start, plain := d.i, true
	for ; d.i < len(d.s); d.i++ {
		switch c := d.s[d.i]; {
		case c == '"':
			raw := d.s[start:d.i]
			d.i++
			if plain {
				return raw, true
			}
			return unescape(raw)
		case c == '\\':
			plain = false
			d.i++ // whatever follows cannot end the string
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(d.s[d.i:])
			if r == utf8.RuneError && size == 1 {
				return "", false // encoding/json would replace it: let it
			}
			d.i += size - 1
		}
	}
	return "", false
}

// unescape decodes a string body holding backslash escapes, as
// encoding/json does (a lone surrogate becomes U+FFFD).
func unescape(raw string) (string, bool) {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(raw) {
			return "", false
		}
		switch e := raw[i+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(raw[i+2:])
			if !ok {
				return "", false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if r2, ok := hex4(raw[min(i+2, len(raw)):]); ok && i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						out = utf8.AppendRune(out, dec)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return "", false
		}
		i += 2
	}
	return string(out), true
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

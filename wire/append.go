package wire

import (
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// The append functions write what encoding/json writes with HTML escaping
// off (the API's settings), for the records that render themselves: hot
// paths render hundreds per call without reflection (signals/bulk).
// Tests check them against encoding/json byte for byte. A record's
// MarshalJSON returns them to an encoder that escapes HTML, which then
// escapes them (json.Marshal compacts a Marshaler's output with its own
// settings).

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string: invalid UTF-8 becomes
// U+FFFD, control characters and U+2028/U+2029 are escaped.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendFloat appends f as encoding/json does: the shortest
// representation, in exponent form only below 1e-6 or from 1e21, with a
// two-digit exponent cleaned of its padding (1e-07 becomes 1e-7). NaN and
// infinities have no JSON form; they become null here, where
// encoding/json would fail the whole response.
func AppendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// AppendMember appends ,"name": and s, or null when s is empty.
func AppendMember(b []byte, name, s string) []byte {
	b = appendName(b, name)
	if s == "" {
		return append(b, "null"...)
	}
	return AppendString(b, s)
}

// AppendFloatMember appends ,"name": and *f, or null when f is nil.
func AppendFloatMember(b []byte, name string, f *float64) []byte {
	b = appendName(b, name)
	if f == nil {
		return append(b, "null"...)
	}
	return AppendFloat(b, *f)
}

// AppendTimeMember appends ,"name": and t in TimestampLayout, or null
// when t is zero.
func AppendTimeMember(b []byte, name string, t time.Time) []byte {
	b = appendName(b, name)
	if t.IsZero() {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, TimestampLayout)
	return append(b, '"')
}

// appendName appends ,"name": for a name that needs no escaping.
func appendName(b []byte, name string) []byte {
	return append(append(append(b, ',', '"'), name...), '"', ':')
}

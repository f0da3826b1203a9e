package search

import (
	"encoding/binary"
	"hash/maphash"
	"strings"
	"unsafe"
)

// strtab keeps each distinct value of the repetitive fields of cards and
// signals once (titles, company names, places, industries, the part of a
// URL before its last slash), so a record holds a small id where it held
// the text: a person's card went from about 145 to about 65 bytes. Like
// the arenas, it holds no pointers for the garbage collector: the values
// live in a recordArena and the lookup map is keyed by a hash. A value
// whose hash another value already has stays inline instead.
type strtab struct {
	vals recordArena       // id -> value; ids from 1
	ids  map[uint64]uint32 // hash of a value -> its id
	seed maphash.Seed
	n    uint32
	// recent holds the last hashes looked up, by their low bits, with
	// the id the map gave: at millions of values the map's lookups miss
	// the CPU cache (half of packing cards in a cold build), while a
	// batch's titles, places and company names repeat.
	recent []strtabHit
}

type strtabHit struct {
	h  uint64
	id uint32
}

const strtabRecent = 1 << 12

func newStrtab() strtab {
	return strtab{ids: map[uint64]uint32{}, seed: maphash.MakeSeed()}
}

// intern returns the id of s, adding it; ok is false when s must stay
// inline (its hash is another value's).
func (t *strtab) intern(s []byte) (id uint32, ok bool) {
	h := maphash.Bytes(t.seed, s)
	if t.recent == nil {
		t.recent = make([]strtabHit, strtabRecent)
	}
	hit := &t.recent[h%strtabRecent]
	if hit.h == h && hit.id != 0 {
		return hit.id, string(t.vals.get(int64(hit.id))) == string(s)
	}
	if id, found := t.ids[h]; found {
		*hit = strtabHit{h, id}
		return id, string(t.vals.get(int64(id))) == string(s)
	}
	t.n++
	t.vals.put(t.n, s)
	t.ids[h] = t.n
	*hit = strtabHit{h, t.n}
	return t.n, true
}

// reindex rebuilds the lookup map from the values (after a snapshot is
// loaded: hashes are seeded per process).
func (t *strtab) reindex() {
	for id := uint32(1); id <= t.n; id++ {
		h := maphash.Bytes(t.seed, t.vals.get(int64(id)))
		if _, dup := t.ids[h]; !dup {
			t.ids[h] = id
		}
	}
}

// How a record's string field is kept (packing modes).
const (
	keepInline = iota // rare or unique values: names, ids, free text
	keepShared        // repetitive values, kept once in the strtab
	keepPrefix        // URLs: the part up to the last slash shared, the rest inline
)

// Tags of a packed field: the low two bits say how it is kept.
const (
	tagInline = 0 // len<<2, then the bytes
	tagShared = 1 // id<<2
	tagPrefix = 2 // id<<2, then len and bytes of the rest
)

// pack rewrites a record made by appendStrings (after skip leading bytes
// of its own) so that its string fields are kept as modes say; bytes
// after those fields are copied as they are.
func (t *strtab) pack(rec []byte, skip int, modes []uint8) []byte {
	return t.packInto(make([]byte, 0, len(rec)), rec, skip, modes)
}

// packInto is pack appending to out, for callers that copy the result
// (into an arena) and reuse out.
func (t *strtab) packInto(out, rec []byte, skip int, modes []uint8) []byte {
	out = append(out, rec[:skip]...)
	b := rec[skip:]
	for _, mode := range modes {
		n, w := binary.Uvarint(b)
		s := b[w : w+int(n)]
		b = b[w+int(n):]
		out = t.appendField(out, s, mode)
	}
	return append(out, b...)
}

func (t *strtab) appendField(out, s []byte, mode uint8) []byte {
	switch {
	case mode == keepShared && len(s) > 1:
		if id, ok := t.intern(s); ok {
			return binary.AppendUvarint(out, uint64(id)<<2|tagShared)
		}
	case mode == keepPrefix && len(s) > 1:
		// The last slash before the final byte: a URL ending in a slash
		// keeps its last segment out of the shared prefix too.
		if cut := strings.LastIndexByte(unsafe.String(unsafe.SliceData(s), len(s)-1), '/'); cut > 0 {
			if id, ok := t.intern(s[:cut+1]); ok {
				out = binary.AppendUvarint(out, uint64(id)<<2|tagPrefix)
				out = binary.AppendUvarint(out, uint64(len(s)-cut-1))
				return append(out, s[cut+1:]...)
			}
		}
	}
	out = binary.AppendUvarint(out, uint64(len(s))<<2|tagInline)
	return append(out, s...)
}

// unpack appends to dst the record pack made from packed, as
// appendStrings wrote it: n string fields after skip bytes, then the
// rest.
func (t *strtab) unpack(dst, packed []byte, skip, n int) []byte {
	dst = append(dst, packed[:skip]...)
	b := packed[skip:]
	for range n {
		var head, tail []byte
		head, tail, b = t.field(b)
		dst = binary.AppendUvarint(dst, uint64(len(head)+len(tail)))
		dst = append(append(dst, head...), tail...)
	}
	return append(dst, b...)
}

// strings reads the string fields of a packed record after skip bytes
// into out, aliasing the record or the table, with no copy; a value kept
// as a shared prefix and its rest is joined into *join, which the caller
// keeps for the page (appending to it never moves bytes a string already
// aliases). It returns the bytes after the fields.
func (t *strtab) strings(packed []byte, skip int, out []string, join *[]byte) []byte {
	b := packed[skip:]
	for i := range out {
		var head, tail []byte
		head, tail, b = t.field(b)
		switch {
		case len(tail) > 0:
			at := len(*join)
			*join = append(append(*join, head...), tail...)
			out[i] = unsafe.String(&(*join)[at], len(head)+len(tail))
		case len(head) > 0:
			out[i] = unsafe.String(&head[0], len(head))
		default:
			out[i] = ""
		}
	}
	return b
}

// field reads one packed field: its value is head then tail (tail is
// empty but for prefix-kept values); both alias the record or the
// strtab.
func (t *strtab) field(b []byte) (head, tail, rest []byte) {
	v, w := binary.Uvarint(b)
	b = b[w:]
	switch v & 3 {
	case tagShared:
		return t.vals.get(int64(v >> 2)), nil, b
	case tagPrefix:
		n, w := binary.Uvarint(b)
		return t.vals.get(int64(v >> 2)), b[w : w+int(n)], b[w+int(n):]
	default:
		n := int(v >> 2)
		return b[:n], nil, b[n:]
	}
}

// string returns field i (from 0) of a packed record, after skip bytes,
// as a string aliasing the record or the strtab; i must not be a
// prefix-kept field.
func (t *strtab) string(packed []byte, skip, i int) string {
	b := packed[skip:]
	var s []byte
	for range i + 1 {
		s, _, b = t.field(b)
	}
	if len(s) == 0 {
		return ""
	}
	return unsafe.String(&s[0], len(s))
}

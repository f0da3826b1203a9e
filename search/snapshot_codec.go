package search

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"

	"github.com/RoaringBitmap/roaring/v2"
)

// snapWriter writes the snapshot's primitives, remembering the first
// error so the encoder reads as a list of fields. Every byte also goes
// into sum, the checksum the file ends with.
type snapWriter struct {
	w   *bufio.Writer
	sum hash.Hash32
	err error
	buf []byte
}

func (s *snapWriter) write(b []byte) {
	if s.err != nil {
		return
	}
	s.sum.Write(b)
	_, s.err = s.w.Write(b)
}

func (s *snapWriter) uvarint(v uint64) {
	s.buf = binary.AppendUvarint(s.buf[:0], v)
	s.write(s.buf)
}

func (s *snapWriter) varint(v int64) {
	s.buf = binary.AppendVarint(s.buf[:0], v)
	s.write(s.buf)
}

func (s *snapWriter) bytes(b []byte) {
	s.uvarint(uint64(len(b)))
	s.write(b)
}

func (s *snapWriter) str(v string) { s.bytes([]byte(v)) }

// snapBlock is how many slice elements are encoded per write.
const snapBlock = 1 << 14

func (s *snapWriter) u32s(v []uint32) {
	s.uvarint(uint64(len(v)))
	for len(v) > 0 {
		n := min(len(v), snapBlock)
		s.buf = s.buf[:0]
		for _, x := range v[:n] {
			s.buf = binary.LittleEndian.AppendUint32(s.buf, x)
		}
		s.write(s.buf)
		v = v[n:]
	}
}

func (s *snapWriter) u16s(v []uint16) {
	s.uvarint(uint64(len(v)))
	for len(v) > 0 {
		n := min(len(v), snapBlock)
		s.buf = s.buf[:0]
		for _, x := range v[:n] {
			s.buf = binary.LittleEndian.AppendUint16(s.buf, x)
		}
		s.write(s.buf)
		v = v[n:]
	}
}

func (s *snapWriter) i64s(v []int64) {
	s.uvarint(uint64(len(v)))
	for len(v) > 0 {
		n := min(len(v), snapBlock)
		s.buf = s.buf[:0]
		for _, x := range v[:n] {
			s.buf = binary.LittleEndian.AppendUint64(s.buf, uint64(x))
		}
		s.write(s.buf)
		v = v[n:]
	}
}

func (s *snapWriter) bitmap(b *roaring.Bitmap) {
	data, err := b.ToBytes()
	if err != nil && s.err == nil {
		s.err = err
	}
	s.bytes(data)
}

// errCorrupt marks a snapshot whose bytes do not decode.
var errCorrupt = errors.New("snapshot is truncated or corrupt")

// snapReader reads what snapWriter wrote. left is how many bytes the
// file still holds: a length beyond it is corruption, caught before it
// allocates.
type snapReader struct {
	r    *bufio.Reader
	sum  hash.Hash32
	left int64
	err  error
	buf  []byte
}

func (s *snapReader) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

func (s *snapReader) read(n int) []byte {
	if s.err != nil {
		return nil
	}
	if int64(n) > s.left {
		s.fail(errCorrupt)
		return nil
	}
	if cap(s.buf) < n {
		s.buf = make([]byte, n)
	}
	b := s.buf[:n]
	if _, err := io.ReadFull(s.r, b); err != nil {
		s.fail(fmt.Errorf("%w: %w", errCorrupt, err))
		return nil
	}
	s.left -= int64(n)
	s.sum.Write(b)
	return b
}

func (s *snapReader) byte() byte {
	b := s.read(1)
	if b == nil {
		return 0
	}
	return b[0]
}

func (s *snapReader) uvarint() uint64 {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		c := s.byte()
		if s.err != nil {
			return 0
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	s.fail(errCorrupt)
	return 0
}

func (s *snapReader) varint() int64 {
	u := s.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

// length reads a count of elements of size bytes each.
func (s *snapReader) length(size int) int {
	n := s.uvarint()
	if s.err == nil && n > uint64(s.left)/uint64(size) {
		s.fail(errCorrupt)
	}
	if s.err != nil {
		return 0
	}
	return int(n)
}

func (s *snapReader) str() string {
	n := s.length(1)
	return string(s.read(n))
}

func (s *snapReader) u32s() []uint32 {
	n := s.length(4)
	out := make([]uint32, 0, n)
	for len(out) < n {
		b := s.read(4 * min(n-len(out), snapBlock))
		if b == nil {
			return nil
		}
		for i := 0; i < len(b); i += 4 {
			out = append(out, binary.LittleEndian.Uint32(b[i:]))
		}
	}
	return out
}

func (s *snapReader) u16s() []uint16 {
	n := s.length(2)
	out := make([]uint16, 0, n)
	for len(out) < n {
		b := s.read(2 * min(n-len(out), snapBlock))
		if b == nil {
			return nil
		}
		for i := 0; i < len(b); i += 2 {
			out = append(out, binary.LittleEndian.Uint16(b[i:]))
		}
	}
	return out
}

func (s *snapReader) i64s() []int64 {
	n := s.length(8)
	out := make([]int64, 0, n)
	for len(out) < n {
		b := s.read(8 * min(n-len(out), snapBlock))
		if b == nil {
			return nil
		}
		for i := 0; i < len(b); i += 8 {
			out = append(out, int64(binary.LittleEndian.Uint64(b[i:])))
		}
	}
	return out
}

func (s *snapReader) bitmap() *roaring.Bitmap {
	n := s.length(1)
	b := s.read(n)
	bm := roaring.New()
	if b == nil {
		return bm
	}
	if err := bm.UnmarshalBinary(b); err != nil {
		s.fail(fmt.Errorf("%w: %w", errCorrupt, err))
	}
	return bm
}

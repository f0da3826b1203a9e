package search

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/prospectorhq/prospector"
)

// recordArena keeps one small record per row id in byte chunks: hundreds
// of thousands of structs of strings would add millions of pointers for
// the garbage collector to scan on every cycle, slowing every request;
// bytes it skips. Chunks of a fixed size (never one slice that doubles)
// keep a bulk build from holding two copies of everything at once. Each
// record is its length, then its fields.
type recordArena struct {
	chunks [][]byte
	off    []uint32 // row id -> chunk<<chunkBits | offset, +1 (0: none)
}

const (
	chunkBits = 22 // 4 MiB chunks
	chunkSize = 1 << chunkBits
)

// put stores the record of id. A replaced record's bytes are not reused:
// updates are rare next to the rows an index holds.
func (a *recordArena) put(id uint32, record []byte) {
	a.off = grow(a.off, id)
	need := binary.MaxVarintLen64 + len(record)
	if need > chunkSize {
		record, need = record[:chunkSize-binary.MaxVarintLen64], chunkSize
	}
	if len(a.chunks) == 0 || len(a.chunks[len(a.chunks)-1])+need > chunkSize {
		a.chunks = append(a.chunks, make([]byte, 0, chunkSize))
	}
	c := len(a.chunks) - 1
	a.off[id] = uint32(c)<<chunkBits | uint32(len(a.chunks[c])) + 1
	a.chunks[c] = binary.AppendUvarint(a.chunks[c], uint64(len(record)))
	a.chunks[c] = append(a.chunks[c], record...)
}

// drop forgets the record of id (its bytes stay until the arena goes).
func (a *recordArena) drop(id uint32) {
	if int(id) < len(a.off) {
		a.off[id] = 0
	}
}

func (a *recordArena) get(id int64) []byte {
	if id <= 0 || int(id) >= len(a.off) || a.off[id] == 0 {
		return nil
	}
	o := a.off[id] - 1
	chunk := a.chunks[o>>chunkBits][o&(chunkSize-1):]
	n, w := binary.Uvarint(chunk)
	return chunk[w : w+int(n)]
}

func appendStrings(b []byte, ss ...string) []byte {
	for _, s := range ss {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

// readStrings reads the strings of a record. They alias the arena rather
// than copy it, which saves most of what a result page allocates: an
// arena's bytes are never written twice (put only appends, within a
// chunk's capacity, and never reuses a replaced record's bytes), so the
// strings stay as immutable as Go strings must be.
func readStrings(b []byte, out []string) []byte {
	for i := range out {
		n, w := binary.Uvarint(b)
		if n == 0 {
			out[i] = ""
		} else {
			out[i] = unsafe.String(&b[w], int(n))
		}
		b = b[w+int(n):]
	}
	return b
}

// How the index keeps each string field of a company card (see strtab):
// Name, Domain, Website, Industry, City, Region, CountryCode,
// EmployeeRange, NetworkURL. Names are shared with people's company
// names.
var companyModes = []uint8{keepShared, keepInline, keepInline, keepShared, keepShared, keepShared, keepShared, keepShared, keepPrefix}

// How the index keeps each string field of a person card: ExternalID,
// FullName, Title, CompanyName, NetworkURL, City, Region, CountryCode.
var personModes = []uint8{keepInline, keepInline, keepShared, keepShared, keepPrefix, keepShared, keepShared, keepShared}

// companyCard encodes the list-item fields of a company.
func companyCard(c *prospector.Company) []byte { return appendCompanyCard(nil, c) }

func appendCompanyCard(b []byte, c *prospector.Company) []byte {
	b = appendStrings(b, c.Name, c.Domain, c.Website, c.Industry, c.City, c.Region, c.CountryCode, c.EmployeeRange, c.NetworkURL)
	if c.EmployeeCount == nil {
		return append(b, 0)
	}
	return binary.AppendVarint(append(b, 1), *c.EmployeeCount)
}

// decodeCompanyCard fills c from its card; count is where its
// EmployeeCount points, so callers can decode a batch into slabs.
func decodeCompanyCard(c *prospector.Company, id int64, b []byte, count *int64) {
	var f [9]string
	b = readStrings(b, f[:])
	fillCompany(c, id, &f, b, count)
}

// fillCompany fills c from a card's strings and the bytes after them.
func fillCompany(c *prospector.Company, id int64, f *[9]string, b []byte, count *int64) {
	*c = prospector.Company{ID: id, Name: f[0], Domain: f[1], Website: f[2], Industry: f[3], City: f[4],
		Region: f[5], CountryCode: f[6], EmployeeRange: f[7], NetworkURL: f[8]}
	if b[0] == 1 {
		*count, _ = binary.Varint(b[1:])
		c.EmployeeCount = count
	}
}

// personCard encodes the list-item fields of a person.
func personCard(p *prospector.Person) []byte { return appendPersonCard(nil, p) }

// appendPersonCard appends p's card to b: a cold build reuses one buffer
// (growing a new one per person was 4% of its CPU at 10M people).
func appendPersonCard(b []byte, p *prospector.Person) []byte {
	b = appendStrings(b, p.ExternalID, p.FullName, p.Title, p.CompanyName, p.NetworkURL, p.City, p.Region, p.CountryCode)
	if p.Score == nil {
		return append(b, 0)
	}
	return binary.LittleEndian.AppendUint64(append(b, 1), math.Float64bits(*p.Score))
}

// decodePersonCard fills p from its card; score is where its Score
// points.
func decodePersonCard(p *prospector.Person, id int64, b []byte, score *float64) {
	var f [8]string
	b = readStrings(b, f[:])
	fillPerson(p, id, &f, b, score)
}

// fillPerson fills p from a card's strings and the bytes after them.
func fillPerson(p *prospector.Person, id int64, f *[8]string, b []byte, score *float64) {
	*p = prospector.Person{ID: id, ExternalID: f[0], FullName: f[1], Title: f[2], CompanyName: f[3], NetworkURL: f[4],
		City: f[5], Region: f[6], CountryCode: f[7]}
	if b[0] == 1 {
		*score = math.Float64frombits(binary.LittleEndian.Uint64(b[1:]))
		p.Score = score
	}
}

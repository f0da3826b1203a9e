package prospector

import (
	"math"
	"strconv"
)

// contentHasher computes the content hash stores keep beside each
// imported row, so re-importing an unchanged row is recognised without
// comparing every column: 64-bit FNV-1a over the fields, each followed by
// a 0 byte so "ab","c" and "a","bc" differ. It hashes as it goes, without
// gathering the fields in a buffer first: an import hashes every row.
type contentHasher struct{ h uint64 }

const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

func newContentHasher() *contentHasher { return &contentHasher{h: fnvOffset64} }

func (h *contentHasher) write(s string) {
	x := h.h
	for i := 0; i < len(s); i++ {
		x ^= uint64(s[i])
		x *= fnvPrime64
	}
	h.h = x
}

func (h *contentHasher) writeBytes(b []byte) {
	x := h.h
	for _, c := range b {
		x ^= uint64(c)
		x *= fnvPrime64
	}
	h.h = x
}

func (h *contentHasher) str(ss ...string) *contentHasher {
	for _, s := range ss {
		h.write(s)
		h.write("\x00")
	}
	return h
}

func (h *contentHasher) int(p *int64) *contentHasher {
	if p == nil {
		h.write("\x01")
	} else {
		var b [24]byte
		h.writeBytes(strconv.AppendInt(b[:0], *p, 10))
	}
	h.write("\x00")
	return h
}

func (h *contentHasher) float(p *float64) *contentHasher {
	if p == nil {
		h.write("\x01")
	} else {
		var b [24]byte
		h.writeBytes(strconv.AppendUint(b[:0], math.Float64bits(*p), 16))
	}
	h.write("\x00")
	return h
}

func (h *contentHasher) sum() int64 { return int64(h.h) }

// ContentHash covers every stored field but the id and timestamps.
func (c *Company) ContentHash() int64 {
	h := newContentHasher()
	h.str(c.Name, c.Domain, c.Website, c.Industry, c.Description, c.City, c.Region, c.CountryCode,
		c.EmployeeRange, c.NetworkURL, c.Ticker)
	h.str(c.Keywords...).str("\x01")
	return h.int(c.EmployeeCount).int(c.Founded).int(c.RevenueUSD).sum()
}

// ContentHash covers every stored field but the id and timestamps.
func (p *Person) ContentHash() int64 {
	h := newContentHasher()
	h.str(p.NaturalKey(), p.ExternalID, p.FullName, p.FirstName, p.LastName, p.Title, p.JobLevel, p.JobFunction,
		p.CompanyName, p.CompanyDomain, p.NetworkURL, p.Email, p.Phone, p.City, p.Region, p.CountryCode)
	return h.int(p.CompanyID).float(p.Score).sum()
}

// ContentHash covers every stored field but the id and timestamps.
func (s *Signal) ContentHash() int64 {
	h := newContentHasher()
	h.str(s.ExternalID, s.Type, s.CompanyDomain, s.Title, s.Detail, s.SourceURL, s.DetectedAt.UTC().Format("2006-01-02T15:04:05.000000Z"))
	return h.int(s.CompanyID).int(s.PersonID).float(s.Score).sum()
}

// ContentHash covers every stored field but the id. attributes is the
// event's encoded attributes.
func (e *NewsEvent) ContentHash(attributes []byte) int64 {
	h := newContentHasher()
	h.str(e.ExternalID, e.EventType, e.EffectiveDate, e.FoundAt.UTC().Format("2006-01-02T15:04:05.000000Z"), string(attributes))
	h.str(e.Categories...)
	id := e.CompanyID
	return h.int(&id).sum()
}

// ContentHash covers every stored field but the id. investors is the
// event's encoded investors.
func (e *FinancingEvent) ContentHash(investors []byte) int64 {
	h := newContentHasher()
	h.str(e.ExternalID, e.EventType, e.FinancingType, e.FinancingTypeNormalized, e.Amount, e.EffectiveDate,
		e.FoundAt.UTC().Format("2006-01-02T15:04:05.000000Z"), string(investors))
	h.str(e.Categories...).str("\x01").str(e.SourceURLs...)
	id := e.CompanyID
	return h.int(&id).float(e.AmountNormalized).sum()
}

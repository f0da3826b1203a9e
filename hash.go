package prospector

import (
	"hash/fnv"
	"math"
	"strconv"
)

// contentHasher builds the content hash stores keep beside each imported
// row, so re-importing an unchanged row is recognised without comparing
// every column. Fields are separated so "ab","c" and "a","bc" differ.
type contentHasher struct{ buf []byte }

func (h *contentHasher) str(ss ...string) *contentHasher {
	for _, s := range ss {
		h.buf = append(h.buf, s...)
		h.buf = append(h.buf, 0)
	}
	return h
}

func (h *contentHasher) int(p *int64) *contentHasher {
	if p == nil {
		h.buf = append(h.buf, 1)
	} else {
		h.buf = strconv.AppendInt(h.buf, *p, 10)
	}
	h.buf = append(h.buf, 0)
	return h
}

func (h *contentHasher) float(p *float64) *contentHasher {
	if p == nil {
		h.buf = append(h.buf, 1)
	} else {
		h.buf = strconv.AppendUint(h.buf, math.Float64bits(*p), 16)
	}
	h.buf = append(h.buf, 0)
	return h
}

func (h *contentHasher) sum() int64 {
	f := fnv.New64a()
	f.Write(h.buf)
	return int64(f.Sum64())
}

// ContentHash covers every stored field but the id and timestamps.
func (c *Company) ContentHash() int64 {
	h := &contentHasher{}
	h.str(c.Name, c.Domain, c.Website, c.Industry, c.Description, c.City, c.Region, c.CountryCode,
		c.EmployeeRange, c.NetworkURL, c.Ticker)
	h.str(c.Keywords...).str("\x01")
	return h.int(c.EmployeeCount).int(c.Founded).int(c.RevenueUSD).sum()
}

// ContentHash covers every stored field but the id and timestamps.
func (p *Person) ContentHash() int64 {
	h := &contentHasher{}
	h.str(p.NaturalKey(), p.ExternalID, p.FullName, p.FirstName, p.LastName, p.Title, p.JobLevel, p.JobFunction,
		p.CompanyName, p.CompanyDomain, p.NetworkURL, p.Email, p.Phone, p.City, p.Region, p.CountryCode)
	return h.int(p.CompanyID).float(p.Score).sum()
}

// ContentHash covers every stored field but the id and timestamps.
func (s *Signal) ContentHash() int64 {
	h := &contentHasher{}
	h.str(s.ExternalID, s.Type, s.CompanyDomain, s.Title, s.Detail, s.SourceURL, s.DetectedAt.UTC().Format("2006-01-02T15:04:05.000000Z"))
	return h.int(s.CompanyID).int(s.PersonID).float(s.Score).sum()
}

// ContentHash covers every stored field but the id. attributes is the
// event's encoded attributes.
func (e *NewsEvent) ContentHash(attributes []byte) int64 {
	h := &contentHasher{}
	h.str(e.ExternalID, e.EventType, e.EffectiveDate, e.FoundAt.UTC().Format("2006-01-02T15:04:05.000000Z"), string(attributes))
	h.str(e.Categories...)
	id := e.CompanyID
	return h.int(&id).sum()
}

// ContentHash covers every stored field but the id. investors is the
// event's encoded investors.
func (e *FinancingEvent) ContentHash(investors []byte) int64 {
	h := &contentHasher{}
	h.str(e.ExternalID, e.EventType, e.FinancingType, e.FinancingTypeNormalized, e.Amount, e.EffectiveDate,
		e.FoundAt.UTC().Format("2006-01-02T15:04:05.000000Z"), string(investors))
	h.str(e.Categories...).str("\x01").str(e.SourceURLs...)
	id := e.CompanyID
	return h.int(&id).float(e.AmountNormalized).sum()
}

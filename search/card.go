package search

import (
	"encoding/binary"

	"github.com/prospectorhq/prospector"
)

// cardArena keeps each company's list-item fields encoded back to back in
// one byte slice: 200,000 structs of strings would add millions of
// pointers for the garbage collector to scan on every cycle, slowing every
// request; bytes it skips.
type cardArena struct {
	data []byte
	off  []uint32 // company id -> offset+1 in data (0: none)
	dead int      // bytes of cards replaced since the last compaction
}

func (a *cardArena) put(id uint32, c *prospector.Company) {
	for int(id) >= len(a.off) {
		a.off = append(a.off, 0)
	}
	if old := a.off[id]; old != 0 {
		a.dead += a.size(old - 1)
	}
	a.off[id] = uint32(len(a.data)) + 1
	for _, s := range []string{c.Name, c.Domain, c.Website, c.Industry, c.City, c.Region, c.CountryCode, c.EmployeeRange, c.NetworkURL} {
		a.data = binary.AppendUvarint(a.data, uint64(len(s)))
		a.data = append(a.data, s...)
	}
	if c.EmployeeCount == nil {
		a.data = append(a.data, 0)
	} else {
		a.data = append(a.data, 1)
		a.data = binary.AppendVarint(a.data, *c.EmployeeCount)
	}
	if a.dead > len(a.data)/2 && a.dead > 1<<20 {
		a.compact()
	}
}

// decode reads the card at offset p, returning it and its size.
func (a *cardArena) decode(p int) (*prospector.Company, int) {
	start := p
	var fields [9]string
	for i := range fields {
		n, w := binary.Uvarint(a.data[p:])
		p += w
		fields[i] = string(a.data[p : p+int(n)])
		p += int(n)
	}
	c := &prospector.Company{Name: fields[0], Domain: fields[1], Website: fields[2], Industry: fields[3],
		City: fields[4], Region: fields[5], CountryCode: fields[6], EmployeeRange: fields[7], NetworkURL: fields[8]}
	has := a.data[p]
	p++
	if has == 1 {
		v, w := binary.Varint(a.data[p:])
		p += w
		c.EmployeeCount = &v
	}
	return c, p - start
}

func (a *cardArena) size(p uint32) int {
	_, n := a.decode(int(p))
	return n
}

func (a *cardArena) get(id int64) *prospector.Company {
	if id <= 0 || int(id) >= len(a.off) || a.off[id] == 0 {
		return nil
	}
	c, _ := a.decode(int(a.off[id] - 1))
	c.ID = id
	return c
}

func (a *cardArena) compact() {
	data := make([]byte, 0, len(a.data)-a.dead)
	for id, o := range a.off {
		if o == 0 {
			continue
		}
		n := a.size(o - 1)
		a.off[id] = uint32(len(data)) + 1
		data = append(data, a.data[o-1:int(o-1)+n]...)
	}
	a.data, a.dead = data, 0
}

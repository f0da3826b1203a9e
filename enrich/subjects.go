package enrich

import (
	"sync"

	"github.com/prospectorhq/prospector"
)

// maxSubjects bounds the subject cache: at about 150 bytes an entry,
// 3 MB.
const maxSubjects = 20_000

// subjectCache keeps the people Email looked up by profile URL,
// trimmed to what a lookup uses, so that a repeated lookup answered from
// the finder's caches reads nothing from the database but its charge.
// The entries hold while the index's PeopleVersion stands: a person
// changed in the store is read again once the index has taken the change
// in, as fresh as search results on every node.
type subjectCache struct {
	mu      sync.RWMutex
	version uint64
	m       map[string]*prospector.Person
}

func newSubjectCache() *subjectCache {
	return &subjectCache{m: map[string]*prospector.Person{}}
}

// get returns the person under url if it was stored at version.
func (c *subjectCache) get(url string, version uint64) (*prospector.Person, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.version != version {
		return nil, false
	}
	p, ok := c.m[url]
	return p, ok
}

// put stores p, read from the store after version was taken. A newer
// version empties the cache; a put under an older one is dropped.
func (c *subjectCache) put(url string, p *prospector.Person, version uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case version < c.version:
		return
	case version > c.version || len(c.m) >= maxSubjects:
		// Filling up empties it too: simpler than evicting, and a full
		// cache of 20,000 people refills from the store at its own pace.
		c.m, c.version = map[string]*prospector.Person{}, version
	}
	c.m[url] = &prospector.Person{FirstName: p.FirstName, LastName: p.LastName, FullName: p.FullName,
		Email: p.Email, CompanyDomain: p.CompanyDomain, CompanyID: p.CompanyID}
}

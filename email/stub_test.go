package email

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
)

// stubResolver answers every MX lookup the same way and counts them.
type stubResolver struct {
	mu    sync.Mutex
	calls int
	mx    []*net.MX
	err   error
}

var _ Resolver = (*stubResolver)(nil)

func (r *stubResolver) LookupMX(ctx context.Context, name string) ([]*net.MX, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	return r.mx, r.err
}

func (r *stubResolver) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls
}

// loopbackMX is the resolver for a domain whose mail goes to the test
// server.
func loopbackMX() *stubResolver {
	return &stubResolver{mx: []*net.MX{{Host: "127.0.0.1.", Pref: 10}}}
}

var (
	errNXDomain = &net.DNSError{Err: "no such host", Name: "example.test", IsNotFound: true}
	errTempDNS  = &net.DNSError{Err: "server misbehaving", Name: "example.test", IsTemporary: true}
)

// memPeople is an in-memory People that counts calls.
type memPeople struct {
	mu        sync.Mutex
	calls     int
	byCompany map[int64][]*prospector.Person
	err       error
}

var _ People = (*memPeople)(nil)

func (m *memPeople) PeopleAtCompany(ctx context.Context, companyID int64) ([]*prospector.Person, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	return m.byCompany[companyID], m.err
}

func (m *memPeople) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls
}

// Obviously fake names for generated colleagues and queries.
var (
	fakeFirst = []string{"Bea", "Cal", "Dot", "Eli", "Fay", "Gil", "Hal", "Ivy", "Jon", "Kay", "Lou", "Max"}
	fakeLast  = []string{"Sampleton", "Fakeley", "Mockwell", "Stubbs", "Dummyson", "Fixture", "Placeholder", "Testwood", "Exampleby", "Specimen", "Protoman", "Draftly"}
)

// colleagues returns n fake people at example.test whose addresses
// follow p.
func colleagues(p Pattern, n int) []*prospector.Person {
	ps := make([]*prospector.Person, n)
	for i := range ps {
		first, last := fakeFirst[i%len(fakeFirst)], fakeLast[(i+i/len(fakeFirst))%len(fakeLast)]
		ps[i] = &prospector.Person{
			ID: int64(i + 1), FirstName: first, LastName: last,
			FullName: first + " " + last,
			Email:    p.Local(foldName(first), foldName(last)) + "@example.test",
		}
	}
	return ps
}

// testClock is a settable clock.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fakeQuery is the query for an nth fake person at example.test.
func fakeQuery(n int) prospector.EmailQuery {
	return prospector.EmailQuery{
		FirstName: fmt.Sprintf("Ada%c", 'a'+rune(n)),
		LastName:  "Testperson",
		Domain:    "example.test",
		CompanyID: 1,
	}
}

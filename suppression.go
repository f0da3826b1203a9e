package prospector

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"strings"
	"sync"
	"time"
)

// SubjectKind says what a suppression entry or a privacy request names.
type SubjectKind string

// The kinds of subject. A person is named by one of the first three; a
// domain stands for a company and everyone at it.
const (
	SubjectProfileURL SubjectKind = "profile_url"
	SubjectEmail      SubjectKind = "email"
	SubjectName       SubjectKind = "name_at_domain" // "Full Name@domain"
	SubjectDomain     SubjectKind = "domain"
)

// Subject is a person or a domain as a privacy request names it, with
// its value normalised so that every spelling of it hashes alike.
type Subject struct {
	Kind  SubjectKind
	Value string
	// Name and Domain split a SubjectName value.
	Name, Domain string
}

// ParseSubject reads a subject: a profile URL (http(s)://...), an e-mail
// address, "Full Name@domain" (a name at a company's domain, told from an
// address by the space in it) or a bare domain. ErrInvalid when it is
// none of those.
func ParseSubject(s string) (Subject, error) {
	s = strings.TrimSpace(s)
	at := strings.LastIndexByte(s, '@')
	switch {
	case at == 0:
		return Subject{}, Errorf(EINVALID, "subject %q: an address needs its local part; give a bare domain for a whole domain", s)
	case strings.Contains(s, "://"):
		u := NormalizeProfileURL(s)
		if u == "" {
			return Subject{}, Errorf(EINVALID, "subject %q: not a profile URL", s)
		}
		return Subject{Kind: SubjectProfileURL, Value: u}, nil
	case at > 0 && strings.ContainsAny(s[:at], " \t"):
		name, domain := NormalizeSubjectName(s[:at]), NormalizeDomain(s[at+1:])
		if name == "" || domain == "" {
			return Subject{}, Errorf(EINVALID, "subject %q: want \"Full Name@domain\"", s)
		}
		return Subject{Kind: SubjectName, Value: name + "@" + domain, Name: name, Domain: domain}, nil
	case at > 0:
		email := strings.ToLower(s)
		if NormalizeDomain(email) == "" {
			return Subject{}, Errorf(EINVALID, "subject %q: not an e-mail address", s)
		}
		return Subject{Kind: SubjectEmail, Value: email}, nil
	default:
		d := NormalizeDomain(s)
		if d == "" {
			return Subject{}, Errorf(EINVALID, "subject %q: want a profile URL, an e-mail address, \"Full Name@domain\" or a domain", s)
		}
		return Subject{Kind: SubjectDomain, Value: d}, nil
	}
}

// NormalizeSubjectName folds a person's name for matching: lowercase,
// single spaces.
func NormalizeSubjectName(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// Suppression is one entry of the deployment's suppression list. Only
// the keyed hash of the subject is kept (see SuppressionKey), so the list
// does not itself become a list of the people who asked to be forgotten.
type Suppression struct {
	Hash      string // hex HMAC-SHA256 of the kind and value
	Kind      SubjectKind
	Reason    string
	CreatedAt time.Time
}

// ID is the short form of the entry's hash that listings show.
func (s *Suppression) ID() string { return s.Hash[:min(12, len(s.Hash))] }

// SettingSuppressionKey is the deployment setting holding the secret the
// suppression hashes are keyed with, made on first use: without it, a
// list of hashes of e-mail addresses could be reversed by hashing
// guesses.
const SettingSuppressionKey = "suppression_key"

// NewSuppressionSecret returns a fresh random secret, hex-encoded.
func NewSuppressionSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// SuppressionHash is the keyed hash of a subject of kind with the
// normalised value.
func SuppressionHash(secret string, kind SubjectKind, value string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(kind))
	m.Write([]byte{0})
	m.Write([]byte(value))
	return hex.EncodeToString(m.Sum(nil))
}

// Hash is the keyed hash of s.
func (s Subject) Hash(secret string) string { return SuppressionHash(secret, s.Kind, s.Value) }

// SuppressionSet is the suppression list loaded for checking writes and
// answers. A nil or empty set suppresses nothing, without hashing. Safe
// for concurrent use.
type SuppressionSet struct {
	hashes map[[sha256.Size]byte]struct{}
	// macs hold HMACs keyed with the secret, reset between uses: keying
	// one costs two SHA-256 blocks and an allocation per check otherwise
	// (a third of an import's time with a non-empty list).
	macs sync.Pool
}

// NewSuppressionSet returns the set of hashes (hex, as stored) keyed with
// secret; malformed hashes are ignored.
func NewSuppressionSet(secret string, hashes []string) *SuppressionSet {
	s := &SuppressionSet{hashes: make(map[[sha256.Size]byte]struct{}, len(hashes))}
	s.macs.New = func() any { return hmac.New(sha256.New, []byte(secret)) }
	for _, h := range hashes {
		var k [sha256.Size]byte
		if b, err := hex.DecodeString(h); err == nil && len(b) == len(k) {
			copy(k[:], b)
			s.hashes[k] = struct{}{}
		}
	}
	return s
}

// Empty reports whether the set suppresses nothing.
func (s *SuppressionSet) Empty() bool { return s == nil || len(s.hashes) == 0 }

func (s *SuppressionSet) has(kind SubjectKind, value string) bool {
	if value == "" {
		return false
	}
	m := s.macs.Get().(hash.Hash)
	m.Reset()
	m.Write([]byte(kind))
	m.Write([]byte{0})
	m.Write([]byte(value))
	var k [sha256.Size]byte
	m.Sum(k[:0])
	s.macs.Put(m)
	_, ok := s.hashes[k]
	return ok
}

// Domain reports whether the normalised domain d is suppressed.
func (s *SuppressionSet) Domain(d string) bool {
	return !s.Empty() && s.has(SubjectDomain, d)
}

// Company reports whether c's domain is suppressed.
func (s *SuppressionSet) Company(c *Company) bool { return s.Domain(c.Domain) }

// Person reports whether p is suppressed: by profile URL, e-mail
// address, name at its company's domain, or either domain.
func (s *SuppressionSet) Person(p *Person) bool {
	if s.Empty() {
		return false
	}
	email := strings.ToLower(p.Email)
	name := NormalizeSubjectName(p.FullName)
	if s.has(SubjectProfileURL, p.NetworkURL) || s.has(SubjectEmail, email) ||
		(p.CompanyDomain != "" && name != "" && s.has(SubjectName, name+"@"+p.CompanyDomain)) ||
		s.has(SubjectDomain, p.CompanyDomain) {
		return true
	}
	// The address's domain, when it is not the company's (checked above).
	if d := NormalizeDomain(email); d != "" && d != p.CompanyDomain {
		return s.has(SubjectDomain, d) || (name != "" && s.has(SubjectName, name+"@"+d))
	}
	return false
}

// Lookup reports whether a person about to be looked up (enrich/email) is
// suppressed: by name at domain, by the domain, or by an address.
func (s *SuppressionSet) Lookup(name, domain, email string) bool {
	if s.Empty() {
		return false
	}
	name = NormalizeSubjectName(name)
	email = strings.ToLower(email)
	return s.has(SubjectDomain, domain) || (name != "" && s.has(SubjectName, name+"@"+domain)) ||
		s.has(SubjectEmail, email) || (email != "" && s.has(SubjectDomain, NormalizeDomain(email)))
}

// Signal reports whether a signal names a suppressed company domain.
func (s *SuppressionSet) Signal(sg *Signal) bool { return s.Domain(sg.CompanyDomain) }

// FilterSuppressed returns the items the set does not suppress (in
// place) and how many it left out.
func FilterSuppressed[T any](s *SuppressionSet, items []T, hit func(*SuppressionSet, T) bool) ([]T, int) {
	if s.Empty() || hit == nil {
		return items, 0
	}
	kept := items[:0:0]
	for _, it := range items {
		if !hit(s, it) {
			kept = append(kept, it)
		}
	}
	return kept, len(items) - len(kept)
}

// SuppressionStore keeps the deployment's suppression list. Every engine
// also leaves suppressed subjects out of its company, person and signal
// upserts (counting them in UpsertResult.Suppressed), so no writer can
// bring one back.
type SuppressionStore interface {
	// SuppressionSet returns the list as a set, ready to check rows
	// against.
	SuppressionSet(ctx context.Context) (*SuppressionSet, error)
	// ListSuppressions returns every entry, newest first.
	ListSuppressions(ctx context.Context) ([]*Suppression, error)
	// Unsuppress removes the entry with the hash (or a unique prefix of
	// at least 8 characters of it); ErrNotFound when none matches. It
	// records a for the deployment in the same transaction.
	Unsuppress(ctx context.Context, hash string, a *AuditEvent) error
}

// SuppressionSecret returns the deployment's suppression secret, making it
// on first use.
func SuppressionSecret(ctx context.Context, st SettingStore) (string, error) {
	v, err := st.Setting(ctx, SettingSuppressionKey, NewSuppressionSecret())
	if err != nil {
		return "", fmt.Errorf("suppression secret: %w", err)
	}
	return v, nil
}

// SuppressionCache keeps the suppression list in memory for checks on hot
// paths (enrich/email), reading it again once it is older than TTL
// (default 2s): a subject suppressed on another node is refused here
// within TTL. Safe for concurrent use.
type SuppressionCache struct {
	Store interface {
		SuppressionSet(ctx context.Context) (*SuppressionSet, error)
	}
	TTL time.Duration
	Now func() time.Time // default time.Now

	mu  sync.Mutex
	set *SuppressionSet
	at  time.Time
}

// Set returns the list, fresh within TTL. It fails only when the store
// does.
func (c *SuppressionCache) Set(ctx context.Context) (*SuppressionSet, error) {
	now := time.Now()
	if c.Now != nil {
		now = c.Now()
	}
	ttl := c.TTL
	if ttl <= 0 {
		ttl = 2 * time.Second
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && now.Sub(c.at) < ttl {
		return c.set, nil
	}
	set, err := c.Store.SuppressionSet(ctx)
	if err != nil {
		return nil, fmt.Errorf("suppression list: %w", err)
	}
	c.set, c.at = set, now
	return set, nil
}

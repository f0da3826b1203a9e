package email

import (
	"context"
	"errors"
	"net"
	"slices"
	"strings"
	"time"
)

// mailState says whether a domain receives mail, by its MX records.
type mailState uint8

const (
	mailUnknown mailState = iota // temporary DNS failure
	mailYes
	mailNo // NXDOMAIN, no MX records, or a null MX (RFC 7505)
)

// tempDNSTTL bounds how long a temporary DNS failure is remembered: long
// enough not to hammer a struggling resolver, short enough to recover.
const tempDNSTTL = time.Minute

// mxAnswer is a domain's MX lookup: hosts by preference when mailYes.
type mxAnswer struct {
	state mailState
	hosts []string
}

// domainCheck is what is known about a domain for one FindEmail call.
// verdicts is nil when the domain was not probed.
type domainCheck struct {
	mail     mailState
	catchAll tri
	verdicts map[string]verdict
}

// lookupMX answers from the cache, else asks the resolver and caches the
// answer, negative ones included. An answer cut short by ctx is not
// cached.
func (f *Finder) lookupMX(ctx context.Context, domain string) mxAnswer {
	if a, ok := f.mx.get(domain, f.now()); ok {
		return a
	}
	recs, err := f.cfg.Resolver.LookupMX(ctx, domain)
	if ctx.Err() != nil {
		return mxAnswer{}
	}
	a := mxAnswerOf(recs, err)
	ttl := f.cfg.DomainTTL
	if a.state == mailUnknown {
		ttl = min(ttl, tempDNSTTL)
	}
	f.mx.set(domain, a, f.now(), ttl)
	return a
}

// mxAnswerOf reads a LookupMX result. Records returned beside an error
// are used: net.Resolver returns the valid ones with an error about the
// others.
func mxAnswerOf(recs []*net.MX, err error) mxAnswer {
	if len(recs) == 0 && err != nil {
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
			return mxAnswer{state: mailNo}
		}
		return mxAnswer{state: mailUnknown}
	}
	recs = slices.Clone(recs)
	slices.SortStableFunc(recs, func(a, b *net.MX) int { return int(a.Pref) - int(b.Pref) })
	a := mxAnswer{state: mailNo}
	for _, r := range recs {
		if h := strings.TrimSuffix(r.Host, "."); h != "" {
			a.hosts = append(a.hosts, h)
		}
	}
	if len(a.hosts) > 0 {
		a.state = mailYes
	}
	return a
}

// checkDomain finds out whether domain takes mail and, when probing is
// on, whether it is catch-all and what its server says about addrs
// (candidates in rank order). A synthetic domain (Config.Synthetic) takes
// mail and is never asked. Cached facts are used first; a session is
// opened only when the catch-all flag is not cached, or when an address
// before the first accepted one has no cached verdict.
func (f *Finder) checkDomain(ctx context.Context, domain string, addrs []string) domainCheck {
	if f.cfg.Synthetic != nil && f.cfg.Synthetic(domain) {
		return domainCheck{mail: mailYes} // as probing off: see Config.Synthetic
	}
	mx := f.lookupMX(ctx, domain)
	dc := domainCheck{mail: mx.state}
	if mx.state != mailYes || !f.cfg.SMTP.Enabled {
		return dc
	}
	now := f.now()
	catchAll, cached := f.catchAll.get(domain, now)
	dc.catchAll = catchAll
	if catchAll == triYes {
		return dc
	}
	dc.verdicts = make(map[string]verdict, len(addrs))
	var ask []string
	for _, a := range addrs {
		v, ok := f.verdicts.get(a, now)
		if !ok {
			ask = append(ask, a)
			continue
		}
		dc.verdicts[a] = v
		if v == verdictAccepted {
			break
		}
	}
	if cached && len(ask) == 0 {
		return dc
	}
	askCatchAll := catchAll != triNo
	res := f.prober.probe(ctx, domain, mx.hosts, askCatchAll, ask)
	if ctx.Err() != nil {
		return dc
	}
	now = f.now()
	if askCatchAll {
		dc.catchAll = res.catchAll
		ttl := f.cfg.DomainTTL
		if res.catchAll == triUnknown {
			ttl = min(ttl, unknownTTL)
		}
		f.catchAll.set(domain, res.catchAll, now, ttl)
	}
	for a, v := range res.verdicts {
		dc.verdicts[a] = v
		ttl := f.cfg.AddressTTL
		if v == verdictUnknown {
			ttl = min(ttl, unknownTTL)
		}
		f.verdicts.set(a, v, now, ttl)
	}
	return dc
}

// Package netguard keeps outgoing connections away from internal
// addresses: the service's own host, its private network, its cloud's
// metadata service. Every client that connects where someone else chose
// (webhook destinations, public sources) dials through a Guard.
//
// The check happens at dial time: a name is resolved once, every address
// it resolves to is checked, and the connection goes to one of those
// exact addresses, so a DNS answer that changes between check and connect
// (rebinding) cannot slip through. The socket's Control hook checks the
// address once more just before the packet leaves.
package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// Resolver looks host names up; *net.Resolver satisfies it.
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// Guard applies the address policy to connections. Its zero value refuses
// internal addresses, resolves with net.DefaultResolver and labels
// refusals "destination". A Guard is safe for concurrent use once set up.
type Guard struct {
	// Label names destinations in refusals: "webhook target",
	// "source URL".
	Label string
	// AllowPrivate lets connections reach loopback, private, link-local
	// and other internal addresses: for local development and tests.
	AllowPrivate bool
	// Resolver resolves destination names; nil means net.DefaultResolver.
	Resolver Resolver
	// Dial connects to an address the guard has checked ("ip:port"); nil
	// means a net.Dialer whose Control hook is the guard's.
	Dial func(ctx context.Context, network, address string) (net.Conn, error)
}

// RefusedError is a destination a guard will not contact. Its message
// names what was refused and why, and is safe to show to whoever chose
// the destination.
type RefusedError struct {
	Label  string // "webhook target"
	Target string // the address, name or URL part refused
	Reason string // "a loopback address"
}

func (e *RefusedError) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("refused: %s %s", e.Label, e.Target)
	}
	return fmt.Sprintf("refused: %s %s is %s", e.Label, e.Target, e.Reason)
}

// IsRefused reports whether err is, or wraps, a *RefusedError.
func IsRefused(err error) bool {
	var r *RefusedError
	return errors.As(err, &r)
}

// Refuse returns a refusal of target for reason under the guard's label.
func (g *Guard) Refuse(target, reason string) *RefusedError {
	label := g.Label
	if label == "" {
		label = "destination"
	}
	return &RefusedError{Label: label, Target: target, Reason: reason}
}

// CheckHost checks what can be known of a URL's host (u.Hostname())
// without resolving it: an address literal must not be internal, a name
// must not be one the policy refuses by convention. It returns nil when
// the guard allows private addresses, and a *RefusedError otherwise.
func (g *Guard) CheckHost(host string) error {
	if g.AllowPrivate {
		return nil
	}
	if addr, err := netip.ParseAddr(host); err == nil {
		if why := Blocked(addr); why != "" {
			return g.Refuse(addr.String(), why)
		}
		return nil
	}
	if why := BlockedName(host); why != "" {
		return g.Refuse(host, why)
	}
	return nil
}

// Lookup returns the addresses host stands for, all of them checked: an
// address literal is itself, a name is resolved once. A name with any
// refused address is refused as a whole (*RefusedError); a failed or
// empty lookup is an error naming host.
func (g *Guard) Lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else {
		if !g.AllowPrivate {
			if why := BlockedName(host); why != "" {
				return nil, g.Refuse(host, why)
			}
		}
		r := g.Resolver
		if r == nil {
			r = net.DefaultResolver
		}
		answers, err := r.LookupIPAddr(ctx, host)
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", host, err)
		}
		for _, a := range answers {
			ip, ok := netip.AddrFromSlice(a.IP)
			if !ok {
				continue
			}
			ip = ip.Unmap() // net.IP keeps IPv4 in 16 bytes
			if a.Zone != "" {
				ip = ip.WithZone(a.Zone)
			}
			ips = append(ips, ip)
		}
		if len(ips) == 0 {
			return nil, fmt.Errorf("resolve %s: no addresses", host)
		}
	}
	if !g.AllowPrivate {
		for _, ip := range ips {
			if why := Blocked(ip); why != "" {
				target := ip.String()
				if target != host {
					target = host + " (" + ip.String() + ")"
				}
				return nil, g.Refuse(target, why)
			}
		}
	}
	return ips, nil
}

// DialContext is a net.Dialer-style dial function for http.Transport: it
// looks addr's host up (Lookup) and connects to the first checked address
// that answers, never to the name itself, so nothing resolves it again
// behind the check. Errors are Lookup's, or the first connection error.
func (g *Guard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	ips, err := g.Lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	dial := g.Dial
	if dial == nil {
		dial = (&net.Dialer{Control: g.Control}).DialContext
	}
	var firstErr error
	for _, ip := range ips {
		conn, err := dial(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return conn, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, firstErr
}

// Control checks the address a socket is about to connect to, the last
// moment before the packet leaves: a second line behind DialContext, for
// a net.Dialer's Control field. It returns a *RefusedError for an
// internal address unless the guard allows them.
func (g *Guard) Control(_, address string, _ syscall.RawConn) error {
	if g.AllowPrivate {
		return nil
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return g.Refuse(address, "not an address")
	}
	if why := Blocked(ap.Addr()); why != "" {
		return g.Refuse(ap.Addr().String(), why)
	}
	return nil
}

package netguard

import (
	"net/netip"
	"strings"
)

// The address policy. A destination is refused when any address its name
// resolves to is one of these: they reach the service's own host, its
// private network or its cloud's metadata, or nowhere useful.

type blockedRange struct {
	prefix netip.Prefix
	what   string
}

func ranges(what string, cidrs ...string) []blockedRange {
	out := make([]blockedRange, len(cidrs))
	for i, c := range cidrs {
		out[i] = blockedRange{netip.MustParsePrefix(c), what}
	}
	return out
}

// blockedV4 is checked in order: the first match names the reason, so the
// narrower ranges come first.
var blockedV4 = concat(
	ranges("a cloud metadata address", "169.254.169.254/32", "169.254.170.2/32", "100.100.100.200/32"),
	ranges("the broadcast address", "255.255.255.255/32"),
	ranges("a loopback address", "127.0.0.0/8"),
	ranges("an unspecified (this-network) address", "0.0.0.0/8"),
	ranges("a private address", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"),
	ranges("a carrier-grade NAT (shared) address", "100.64.0.0/10"),
	ranges("a link-local address", "169.254.0.0/16"),
	ranges("an IETF protocol assignment address", "192.0.0.0/24"),
	ranges("a documentation address", "192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24"),
	ranges("a 6to4 relay anycast address", "192.88.99.0/24"),
	ranges("a benchmarking address", "198.18.0.0/15"),
	ranges("a multicast address", "224.0.0.0/4"),
	ranges("a reserved address", "240.0.0.0/4"),
)

var blockedV6 = concat(
	ranges("a cloud metadata address", "fd00:ec2::254/128"),
	ranges("a loopback address", "::1/128"),
	ranges("an unspecified address", "::/128"),
	ranges("a unique local (private) address", "fc00::/7"),
	ranges("a link-local address", "fe80::/10"),
	ranges("a site-local address", "fec0::/10"),
	ranges("a multicast address", "ff00::/8"),
	ranges("a documentation address", "2001:db8::/32", "3fff::/20"),
	ranges("a discard-only address", "100::/64"),
	ranges("a benchmarking address", "2001:2::/48"),
	ranges("an ORCHID address", "2001:10::/28", "2001:20::/28"),
	ranges("a local-use NAT64 address", "64:ff9b:1::/48"),
	ranges("an IPv4-compatible IPv6 address", "::/96"),
)

func concat(lists ...[]blockedRange) []blockedRange {
	var out []blockedRange
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

var (
	nat64    = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4   = netip.MustParsePrefix("2002::/16")
	teredo   = netip.MustParsePrefix("2001::/32")
	v4compat = netip.MustParsePrefix("::/96")
)

// Blocked returns why addr may not be dialled, or "" when it may. IPv6
// forms that embed an IPv4 address (IPv4-mapped ::ffff:a.b.c.d,
// IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16 and
// Teredo's client address) are judged by that address too; an address
// with a zone is always link-scoped.
func Blocked(addr netip.Addr) string {
	if !addr.IsValid() {
		return "not a valid address"
	}
	if addr.Zone() != "" {
		return "a scoped (zoned) address"
	}
	if addr.Is4In6() {
		if why := blockedIPv4(addr.Unmap()); why != "" {
			return why + " (IPv4-mapped)"
		}
		return ""
	}
	if addr.Is4() {
		return blockedIPv4(addr)
	}
	b := addr.As16()
	var embedded netip.Addr
	switch {
	case nat64.Contains(addr):
		embedded = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	case v4compat.Contains(addr) && addr != netip.IPv6Unspecified() && addr != netip.IPv6Loopback():
		embedded = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	case sixTo4.Contains(addr):
		embedded = netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
	case teredo.Contains(addr):
		// The client's address is stored inverted in the last 32 bits.
		embedded = netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]})
	}
	if embedded.IsValid() {
		if why := blockedIPv4(embedded); why != "" {
			return why + " (embedded in IPv6 " + addr.String() + ")"
		}
	}
	for _, r := range blockedV6 {
		if r.prefix.Contains(addr) {
			return r.what
		}
	}
	return ""
}

func blockedIPv4(addr netip.Addr) string {
	for _, r := range blockedV4 {
		if r.prefix.Contains(addr) {
			return r.what
		}
	}
	return ""
}

// BlockedName returns why host may not be resolved and dialled, or ""
// when it may. It refuses, before any resolution, names that stand for
// the local machine or a private network by convention: localhost and
// its subdomains, mDNS .local, .internal (cloud metadata names),
// .home.arpa, and numeric forms a resolver might read as an IPv4 address
// (2130706433, 0x7f.1, 0177.0.0.1, 127.1) whatever they resolve to.
func BlockedName(host string) string {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	switch {
	case h == "":
		return "an empty host name"
	case h == "localhost" || strings.HasSuffix(h, ".localhost") || h == "localhost.localdomain" ||
		h == "ip6-localhost" || h == "ip6-loopback":
		return "a loopback name"
	case strings.HasSuffix(h, ".local") || strings.HasSuffix(h, ".internal") || h == "metadata" ||
		strings.HasSuffix(h, ".home.arpa") || strings.HasSuffix(h, ".localdomain") || strings.HasSuffix(h, ".lan"):
		return "a local network name"
	case numericHost(h):
		return "a non-canonical numeric IP address"
	}
	return ""
}

// numericHost reports whether h is made of numbers only (decimal, octal
// or hex parts joined by dots): inet_aton reads such a name as an IPv4
// address, and no registered domain has an all-numeric top-level label.
func numericHost(h string) bool {
	labels := strings.Split(h, ".")
	last := labels[len(labels)-1]
	if last == "" {
		return false
	}
	if strings.HasPrefix(last, "0x") {
		last = last[2:]
		if last == "" {
			return true
		}
		return strings.Trim(last, "0123456789abcdef") == ""
	}
	return strings.Trim(last, "0123456789") == ""
}

package netguard

import (
	"net/netip"
	"testing"
)

// TestPublicAddressesAllowed (moved from webhook's TestAddressPolicy):
// the policy must not refuse public addresses, including IPv6 forms that
// embed a public IPv4 address, nor names that merely contain a refused
// word.
func TestPublicAddressesAllowed(t *testing.T) {
	for _, ok := range []string{"93.184.216.34", "8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "192.169.0.1",
		"2606:4700:4700::1111", "2a00:1450:4001:82b::200e", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1",
		"169.253.255.255", "11.0.0.1"} {
		if why := Blocked(netip.MustParseAddr(ok)); why != "" {
			t.Errorf("%s refused as %s", ok, why)
		}
	}
	for _, name := range []string{"example.com", "hooks.example.co.uk", "localhost-api.example.com", "my.local.example.com", "1password.com", "a.b.123abc"} {
		if why := BlockedName(name); why != "" {
			t.Errorf("name %s refused as %s", name, why)
		}
	}
}

func TestInternalAddressesRefused(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1":                            "a loopback address",
		"10.1.2.3":                             "a private address",
		"169.254.169.254":                      "a cloud metadata address",
		"fd00:ec2::254":                        "a cloud metadata address",
		"::ffff:192.168.1.1":                   "a private address (IPv4-mapped)",
		"64:ff9b::a00:1":                       "a private address (embedded in IPv6 64:ff9b::a00:1)",
		"2001:0:4136:e378:8000:63bf:80ff:fffe": "a loopback address (embedded in IPv6 2001:0:4136:e378:8000:63bf:80ff:fffe)",
		"fe80::1%eth0":                         "a scoped (zoned) address",
		"100.64.0.1":                           "a carrier-grade NAT (shared) address",
	} {
		if got := Blocked(netip.MustParseAddr(addr)); got != want {
			t.Errorf("%s: %q, want %q", addr, got, want)
		}
	}
	for name, want := range map[string]string{
		"localhost":                "a loopback name",
		"api.LOCALHOST.":           "a loopback name",
		"metadata.google.internal": "a local network name",
		"printer.local":            "a local network name",
		"0x7f.1":                   "a non-canonical numeric IP address",
		"2130706433":               "a non-canonical numeric IP address",
	} {
		if got := BlockedName(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

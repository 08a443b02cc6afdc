package tools

import (
	"context"
	"fmt"
	"net/netip"
	"sync"
	"syscall"
)

// LocalAccessError is returned by a tool's Run when it would reach a local
// network address the person has not allowed for this call.
type LocalAccessError struct {
	URL     string // what was being fetched when the address came up
	Address string // ip:port, as Env.AllowLocal lists it
}

func (e *LocalAccessError) Error() string {
	return fmt.Sprintf("fetch_url wants to reach a local network address %s (%s)", e.Address, e.URL)
}

// localNets are the addresses a web page has no business reaching without
// the person knowing: this machine and the networks around it. The rest of
// the list (loopback, RFC 1918 and fc00::/7, link-local, unspecified) is
// what netip classifies itself.
var localNets = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),     // "this network"; 0.0.0.0 is this machine
	netip.MustParsePrefix("100.64.0.0/10"), // carrier-grade NAT, shared address space
	netip.MustParsePrefix("fec0::/10"),     // the deprecated site-local unicast
}

// nat64 is the well-known NAT64 prefix: an IPv4 address rides in its last
// 32 bits.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// isLocal reports whether connecting to a would reach this machine or a
// private or link-local network.
func isLocal(a netip.Addr) bool {
	a = a.Unmap() // ::ffff:127.0.0.1 is 127.0.0.1
	if nat64.Contains(a) {
		b := a.As16()
		a = netip.AddrFrom4([4]byte(b[12:]))
	}
	if a.IsLoopback() || a.IsPrivate() || a.IsUnspecified() ||
		a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast() {
		return true
	}
	for _, p := range localNets {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// canonicalAddr writes an ip:port the way LocalAccessError.Address does:
// IPv4-mapped IPv6 as plain IPv4, IPv6 in brackets. Anything that does not
// parse is kept as it is.
func canonicalAddr(s string) string {
	ap, err := netip.ParseAddrPort(s)
	if err != nil {
		return s
	}
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()).String()
}

// localGuard decides, for one call, each connection a fetch makes: it sees
// the address actually dialled, after name resolution and on every
// redirect, so neither a name that resolves to 127.0.0.1 nor a redirect to
// it goes by unnoticed.
type localGuard struct {
	allowed map[string]bool

	mu      sync.Mutex
	refused []string // local addresses turned away, oldest first
}

func newLocalGuard(allow []string) *localGuard {
	g := &localGuard{allowed: make(map[string]bool, len(allow))}
	for _, a := range allow {
		g.allowed[canonicalAddr(a)] = true
	}
	return g
}

// control is a net.Dialer's ControlContext: it runs once the socket exists
// and before it connects.
func (g *localGuard) control(_ context.Context, _, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("unexpected address %q", address)
	}
	if !isLocal(ap.Addr()) {
		return nil
	}
	addr := canonicalAddr(address)
	if g.allowed[addr] {
		return nil
	}
	g.mu.Lock()
	g.refused = append(g.refused, addr)
	g.mu.Unlock()
	return &LocalAccessError{Address: addr}
}

// reset forgets what was turned away, before a redirect's request.
func (g *localGuard) reset() {
	g.mu.Lock()
	g.refused = nil
	g.mu.Unlock()
}

// lastRefused is the last local address turned away, if any. A dial that
// tries several addresses reports only the first one's error, which may be
// a refused connection rather than the address that needs approval.
func (g *localGuard) lastRefused() (string, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.refused) == 0 {
		return "", false
	}
	return g.refused[len(g.refused)-1], true
}

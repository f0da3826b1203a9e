// Package proxytest is a TCP proxy for fault-injection tests: put it
// between a client and a real server (PostgreSQL, Redis), then freeze it
// (bytes stop moving both ways, as with a hung server or a stalled
// network) or cut it (every connection is reset and new ones are refused,
// as with a server that died).
package proxytest

import (
	"errors"
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy forwards every connection made to Addr to its target.
type Proxy struct {
	addr   string
	target string
	t      testing.TB

	mu     sync.Mutex
	ln     net.Listener  // nil while cut
	thawed chan struct{} // closed while bytes flow; open while frozen
	cut    bool
	closed bool
	conns  map[net.Conn]struct{} // both ends of every live pair
	wg     sync.WaitGroup
}

// New starts a proxy on a loopback port in front of target (host:port)
// and stops it when the test ends. It fails the test when it cannot
// listen.
func New(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("proxytest: listen: %v", err)
	}
	thawed := make(chan struct{})
	close(thawed)
	p := &Proxy{addr: ln.Addr().String(), target: target, t: t, ln: ln, thawed: thawed, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.accept(ln)
	t.Cleanup(p.Close)
	return p
}

// Addr is the proxy's host:port; clients dial it instead of the target.
func (p *Proxy) Addr() string { return p.addr }

// Freeze stops forwarding: bytes already read wait in the proxy and the
// rest in the kernel's buffers, new connections are accepted but not
// served. Nothing is lost: Thaw delivers it all, in order, as a server
// that resumes after a stall would read it.
func (p *Proxy) Freeze() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.thawed:
		p.thawed = make(chan struct{})
	default: // already frozen
	}
}

// Thaw resumes forwarding after Freeze.
func (p *Proxy) Thaw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.thawed:
	default:
		close(p.thawed)
	}
}

// Cut stops listening, so new connections are refused, and resets every
// live one (both ends get a TCP RST), as when the server process dies.
func (p *Proxy) Cut() {
	p.mu.Lock()
	p.cut = true
	ln := p.ln
	p.ln = nil
	conns := p.conns
	p.conns = map[net.Conn]struct{}{}
	p.mu.Unlock()
	if ln != nil {
		ln.Close()
	}
	for c := range conns {
		reset(c)
	}
}

// Restore listens on the same address again after Cut. It fails the test
// when the port was taken meanwhile.
func (p *Proxy) Restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.cut || p.closed {
		return
	}
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Errorf("proxytest: listen again on %s: %v", p.addr, err)
		return
	}
	p.cut, p.ln = false, ln
	p.wg.Add(1)
	go p.accept(ln)
}

// Close stops the proxy and closes every connection.
func (p *Proxy) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	ln := p.ln
	p.ln = nil
	conns := p.conns
	p.conns = map[net.Conn]struct{}{}
	select {
	case <-p.thawed:
	default:
		close(p.thawed) // let blocked pumps see the closed connections
	}
	p.mu.Unlock()
	if ln != nil {
		ln.Close()
	}
	for c := range conns {
		c.Close()
	}
	p.wg.Wait()
}

// reset closes c with an RST rather than a FIN, so the peer sees
// "connection reset" at once, as when a server process dies.
func reset(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	c.Close()
}

func (p *Proxy) accept(ln net.Listener) {
	defer p.wg.Done()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		p.wg.Add(1)
		go p.serve(c)
	}
}

// gate returns a channel that is closed when bytes may flow.
func (p *Proxy) gate() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.thawed
}

// track records c as live, or reports false (and resets c) when the
// proxy is cut or closed.
func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cut || p.closed {
		reset(c)
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) untrack(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		delete(p.conns, c)
	}
}

func (p *Proxy) serve(client net.Conn) {
	defer p.wg.Done()
	if !p.track(client) {
		return
	}
	<-p.gate() // a frozen server does not answer a new connection either
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		p.untrack(client)
		reset(client)
		return
	}
	if !p.track(up) {
		p.untrack(client)
		reset(client)
		return
	}
	var pumps sync.WaitGroup
	pumps.Add(2)
	go func() { defer pumps.Done(); p.pump(up, client) }()
	go func() { defer pumps.Done(); p.pump(client, up) }()
	pumps.Wait()
	p.untrack(client, up)
	client.Close()
	up.Close()
}

// pump copies src to dst, waiting at the gate before each read and each
// write, until src ends; then it half-closes dst so the other side sees
// the end too.
func (p *Proxy) pump(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		<-p.gate()
		n, err := src.Read(buf)
		if n > 0 {
			<-p.gate()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				src.Close()
				return
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				if tc, ok := dst.(*net.TCPConn); ok {
					_ = tc.CloseWrite()
					return
				}
			}
			dst.Close()
			return
		}
	}
}

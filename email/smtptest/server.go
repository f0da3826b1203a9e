// Package smtptest is a loopback SMTP server for tests of email
// verification: it speaks greeting, EHLO/HELO, MAIL, RCPT, RSET and QUIT,
// accepts the recipients it is told to (or all of them, or none), can
// greylist, refuse by policy or stall, and records every command. It
// fails the test if a client ever sends DATA.
package smtptest

import (
	"net"
	"net/textproto"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is a loopback SMTP server speaking just enough of the
// protocol for a prober: greeting, EHLO/HELO, MAIL, RCPT, RSET, QUIT.
// Its behaviour is set by the options given to NewServer.
type Server struct {
	// Port is the loopback port the server listens on.
	Port int

	accept     map[string]bool // recipients taking mail
	catchAll   bool            // accept every recipient
	greylist   bool            // 451 to every RCPT
	policy     bool            // 550 5.7.1 to every RCPT: the client is blocked
	rejectEHLO bool            // 502 to EHLO, so HELO must follow
	delay      time.Duration   // sleep before every reply

	ln    net.Listener
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns []net.Conn
	lines []string // commands received, all sessions, in order
	// sessions counts connections; active and maxActive count those open
	// at once.
	sessions, active, maxActive int
}

// NewServer starts a server set up by opts, which by default rejects
// every recipient. When the test ends it stops and fails the test if
// DATA was ever sent.
func NewServer(t testing.TB, opts ...func(*Server)) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{ln: ln, Port: ln.Addr().(*net.TCPAddr).Port, accept: make(map[string]bool)}
	for _, o := range opts {
		o(s)
	}
	s.wg.Add(1)
	go s.run()
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		for _, c := range s.conns {
			c.Close()
		}
		s.mu.Unlock()
		s.wg.Wait()
		for _, l := range s.Commands() {
			if strings.HasPrefix(strings.ToUpper(l), "DATA") {
				t.Errorf("the server received %q", l)
			}
		}
	})
	return s
}

// Accepting makes the server take mail for addrs.
func Accepting(addrs ...string) func(*Server) {
	return func(s *Server) {
		for _, a := range addrs {
			s.accept[a] = true
		}
	}
}

// CatchAll makes the server accept every recipient.
func CatchAll(s *Server) { s.catchAll = true }

// Greylist makes the server answer 451 to every recipient.
func Greylist(s *Server) { s.greylist = true }

// Policy makes the server refuse every recipient with 550 5.7.1.
func Policy(s *Server) { s.policy = true }

// RejectEHLO makes the server refuse EHLO, so clients fall back to HELO.
func RejectEHLO(s *Server) { s.rejectEHLO = true }

// Slow makes the server wait d before every reply.
func Slow(d time.Duration) func(*Server) {
	return func(s *Server) { s.delay = d }
}

func (s *Server) run() {
	defer s.wg.Done()
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conns = append(s.conns, conn)
		s.sessions++
		s.active++
		s.maxActive = max(s.maxActive, s.active)
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.serve(conn, sync.OnceFunc(func() {
				s.mu.Lock()
				s.active--
				s.mu.Unlock()
			}))
		}()
	}
}

// serve runs one session and calls end when it is over: on QUIT, before
// the reply, so a client that has its reply sees the session counted out.
func (s *Server) serve(conn net.Conn, end func()) {
	defer end()
	defer conn.Close()
	tc := textproto.NewConn(conn)
	reply := func(lines ...string) bool {
		time.Sleep(s.delay)
		for _, l := range lines {
			if tc.PrintfLine("%s", l) != nil {
				return false
			}
		}
		return true
	}
	if !reply("220 mx.example.test ESMTP test server") {
		return
	}
	for {
		line, err := tc.ReadLine()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.lines = append(s.lines, line)
		s.mu.Unlock()
		verb, arg, _ := strings.Cut(line, " ")
		var ok bool
		switch strings.ToUpper(verb) {
		case "EHLO":
			if s.rejectEHLO {
				ok = reply("502 5.5.1 EHLO not implemented")
			} else {
				ok = reply("250-mx.example.test greets "+arg, "250 PIPELINING")
			}
		case "HELO":
			ok = reply("250 mx.example.test")
		case "MAIL", "RSET":
			ok = reply("250 2.1.0 OK")
		case "RCPT":
			ok = reply(s.rcptReply(arg))
		case "DATA":
			ok = reply("554 5.5.1 no DATA for verifiers")
		case "QUIT":
			end()
			reply("221 2.0.0 bye")
			return
		default:
			ok = reply("500 5.5.2 unknown command")
		}
		if !ok {
			return
		}
	}
}

func (s *Server) rcptReply(arg string) string {
	addr := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(arg, "TO:<"), ">"))
	switch {
	case s.greylist:
		return "451 4.7.1 greylisted, try again later"
	case s.policy:
		return "550 5.7.1 client host blocked"
	case s.catchAll || s.accept[addr]:
		return "250 2.1.5 OK"
	default:
		return "550 5.1.1 no such user"
	}
}

// Commands returns the command lines received so far.
func (s *Server) Commands() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...)
}

// Recipients returns the RCPT addresses received so far, in order.
func (s *Server) Recipients() []string {
	var rs []string
	for _, l := range s.Commands() {
		if arg, ok := strings.CutPrefix(l, "RCPT TO:<"); ok {
			rs = append(rs, strings.TrimSuffix(arg, ">"))
		}
	}
	return rs
}

// Stats returns the number of sessions and the most open at once.
func (s *Server) Stats() (sessions, maxActive int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions, s.maxActive
}

package email

import (
	"context"
	"math/rand/v2"
	"net"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"time"
)

// SMTPConfig sets up mailbox probing over SMTP. The zero value leaves
// probing off.
type SMTPConfig struct {
	Enabled        bool          // probing off by default: most networks block port 25
	HeloName       string        // EHLO name; default "localhost"
	MailFrom       string        // MAIL FROM address; default "verify@" + HeloName
	Port           int           // default 25; tests point it at a loopback server
	ConnectTimeout time.Duration // default 5s
	CommandTimeout time.Duration // per SMTP command, default 10s
	PerDomain      int           // concurrent sessions per domain, default 2
}

func (c SMTPConfig) withDefaults() SMTPConfig {
	if c.HeloName == "" {
		c.HeloName = "localhost"
	}
	if c.MailFrom == "" {
		c.MailFrom = "verify@" + c.HeloName
	}
	if c.Port == 0 {
		c.Port = 25
	}
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = 5 * time.Second
	}
	if c.CommandTimeout <= 0 {
		c.CommandTimeout = 10 * time.Second
	}
	if c.PerDomain <= 0 {
		c.PerDomain = 2
	}
	return c
}

// verdict is what a server said about one recipient.
type verdict uint8

const (
	verdictUnknown  verdict = iota // 4xx, policy refusals, timeouts, broken sessions
	verdictAccepted                // 250 or 251
	verdictRejected                // 5xx about the mailbox
)

// tri is a yes/no fact that may not be known.
type tri uint8

const (
	triUnknown tri = iota
	triNo
	triYes
)

// maxMXTried bounds how many MX hosts a session dials, so a domain with
// many dead hosts costs at most this many connect timeouts.
const maxMXTried = 3

// prober runs SMTP sessions that stop before DATA: it asks a domain's
// server whether it would take mail for addresses, and sends none.
type prober struct {
	cfg  SMTPConfig
	dial func(ctx context.Context, network, addr string) (net.Conn, error)

	mu   sync.Mutex
	sems map[string]*domainSem
}

// domainSem limits sessions to one domain; it is dropped when unused.
type domainSem struct {
	slots chan struct{}
	users int
}

// probeResult is what one session learnt. catchAll stays triUnknown when
// the random address was not asked about or got no clear answer.
// verdicts holds every address asked about, plus those left unasked
// because the session broke, as verdictUnknown; addresses after the
// first accepted one are absent.
type probeResult struct {
	catchAll tri
	verdicts map[string]verdict
}

// acquire waits for a session slot for domain, or returns ctx's error.
func (p *prober) acquire(ctx context.Context, domain string) (release func(), err error) {
	p.mu.Lock()
	s := p.sems[domain]
	if s == nil {
		s = &domainSem{slots: make(chan struct{}, p.cfg.PerDomain)}
		p.sems[domain] = s
	}
	s.users++
	p.mu.Unlock()
	leave := func() {
		p.mu.Lock()
		if s.users--; s.users == 0 {
			delete(p.sems, domain)
		}
		p.mu.Unlock()
	}
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots; leave() }, nil
	case <-ctx.Done():
		leave()
		return nil, ctx.Err()
	}
}

// probe opens a session to the first reachable of hosts and asks, after
// MAIL FROM, about a random address at domain when askCatchAll, then
// about addrs in order until one is accepted. It never fails: whatever
// it could not learn stays unknown.
func (p *prober) probe(ctx context.Context, domain string, hosts []string, askCatchAll bool, addrs []string) probeResult {
	res := probeResult{verdicts: make(map[string]verdict, len(addrs))}
	unknownRest := func() probeResult {
		for _, a := range addrs {
			if _, ok := res.verdicts[a]; !ok {
				res.verdicts[a] = verdictUnknown
			}
		}
		return res
	}
	release, err := p.acquire(ctx, domain)
	if err != nil {
		return unknownRest()
	}
	defer release()
	conn := p.connect(ctx, hosts)
	if conn == nil {
		return unknownRest()
	}
	// Closing the connection is what interrupts a blocked read when ctx
	// ends; a past deadline could be overwritten by the next command's.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	c := &smtpConn{conn: conn, text: textproto.NewConn(conn), timeout: p.cfg.CommandTimeout}
	defer c.text.Close()

	if !c.hello(p.cfg.HeloName) {
		return unknownRest()
	}
	if code, _, err := c.cmd("MAIL FROM:<%s>", p.cfg.MailFrom); err != nil || code != 250 {
		return unknownRest()
	}
	if askCatchAll {
		v, ok := c.rcpt(randomLocal() + "@" + domain)
		if !ok {
			return unknownRest()
		}
		switch v {
		case verdictAccepted:
			res.catchAll = triYes
			c.quit()
			return res
		case verdictRejected:
			res.catchAll = triNo
		default:
			c.quit()
			return unknownRest()
		}
	}
	for _, a := range addrs {
		v, ok := c.rcpt(a)
		if !ok {
			return unknownRest()
		}
		res.verdicts[a] = v
		if v == verdictAccepted {
			break
		}
	}
	c.quit()
	return res
}

// connect dials the hosts in preference order and returns the first
// connection made, or nil.
func (p *prober) connect(ctx context.Context, hosts []string) net.Conn {
	for i, h := range hosts {
		if i == maxMXTried {
			break
		}
		dctx, cancel := context.WithTimeout(ctx, p.cfg.ConnectTimeout)
		conn, err := p.dial(dctx, "tcp", net.JoinHostPort(h, strconv.Itoa(p.cfg.Port)))
		cancel()
		if err == nil {
			return conn
		}
		if ctx.Err() != nil {
			return nil
		}
	}
	return nil
}

// smtpConn is the client side of one session.
type smtpConn struct {
	conn    net.Conn
	text    *textproto.Conn
	timeout time.Duration
}

// cmd sends a command line (none when format is "", to read the
// greeting) and reads the reply, all within one CommandTimeout.
func (c *smtpConn) cmd(format string, args ...any) (code int, msg string, err error) {
	if err := c.conn.SetDeadline(time.Now().Add(c.timeout)); err != nil {
		return 0, "", err
	}
	if format != "" {
		if err := c.text.PrintfLine(format, args...); err != nil {
			return 0, "", err
		}
	}
	return c.text.ReadResponse(0)
}

// hello reads the greeting and introduces the client with EHLO, or HELO
// when the server refuses EHLO permanently.
func (c *smtpConn) hello(name string) bool {
	if code, _, err := c.cmd(""); err != nil || code != 220 {
		return false
	}
	code, _, err := c.cmd("EHLO %s", name)
	if err != nil {
		return false
	}
	if code == 250 {
		return true
	}
	if code/100 != 5 {
		return false
	}
	code, _, err = c.cmd("HELO %s", name)
	return err == nil && code == 250
}

// rcpt asks about one recipient. ok is false when the session cannot go
// on: an I/O error, a timeout, or the server closing with 421.
func (c *smtpConn) rcpt(addr string) (v verdict, ok bool) {
	code, msg, err := c.cmd("RCPT TO:<%s>", addr)
	if err != nil || code == 421 {
		return verdictUnknown, false
	}
	return rcptVerdict(code, msg), true
}

// rcptVerdict reads an RCPT reply. A permanent refusal with an enhanced
// status of 5.7.x is about the client (blocklisted address, relay
// policy), not the mailbox, so it proves nothing either way.
func rcptVerdict(code int, msg string) verdict {
	switch {
	case code == 250 || code == 251:
		return verdictAccepted
	case code/100 == 5 && !strings.HasPrefix(msg, "5.7."):
		return verdictRejected
	default:
		return verdictUnknown
	}
}

// quit ends the transaction and the session politely; replies do not
// matter any more.
func (c *smtpConn) quit() {
	if _, _, err := c.cmd("RSET"); err != nil {
		return
	}
	c.cmd("QUIT")
}

// randomLocal is a local part nobody has, to see whether the server
// accepts anything.
func randomLocal() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 20)
	for i := range b {
		b[i] = alphabet[rand.IntN(len(alphabet))]
	}
	return string(b)
}

package proxytest

import (
	"bufio"
	"io"
	"net"
	"testing"
	"time"
)

// echo starts a line echo server and returns its address.
func echo(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); io.Copy(c, c) }()
		}
	}()
	return ln.Addr().String()
}

func roundTrip(t *testing.T, c net.Conn, r *bufio.Reader, line string) (string, error) {
	t.Helper()
	if _, err := c.Write([]byte(line + "\n")); err != nil {
		return "", err
	}
	got, err := r.ReadString('\n')
	return got, err
}

func TestFreezeHoldsBytesAndThawDeliversThem(t *testing.T) {
	p := New(t, echo(t))
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	if got, err := roundTrip(t, c, r, "one"); err != nil || got != "one\n" {
		t.Fatalf("before freeze: %q %v", got, err)
	}
	p.Freeze()
	if _, err := c.Write([]byte("two\n")); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if got, err := r.ReadString('\n'); err == nil {
		t.Fatalf("frozen proxy forwarded %q", got)
	}
	c.SetReadDeadline(time.Time{})
	p.Thaw()
	if got, err := r.ReadString('\n'); err != nil || got != "two\n" {
		t.Fatalf("after thaw: %q %v, want the held line delivered", got, err)
	}
}

func TestCutResetsAndRefusesUntilRestore(t *testing.T) {
	p := New(t, echo(t))
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	if _, err := roundTrip(t, c, r, "one"); err != nil {
		t.Fatal(err)
	}
	p.Cut()
	if got, err := roundTrip(t, c, r, "two"); err == nil {
		t.Fatalf("cut connection still answered %q", got)
	}
	if c2, err := net.Dial("tcp", p.Addr()); err == nil {
		c2.Close()
		t.Fatal("a new connection was accepted while cut")
	}
	p.Restore()
	c3, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c3.Close()
	if got, err := roundTrip(t, c3, bufio.NewReader(c3), "four"); err != nil || got != "four\n" {
		t.Fatalf("after restore: %q %v", got, err)
	}
}

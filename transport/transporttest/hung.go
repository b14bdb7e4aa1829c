// Package transporttest holds model endpoints for tests that behave as no
// working endpoint does, on purpose. It is imported by tests only.
package transporttest

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Hung is a TCP server that accepts connections and never answers: a
// WebSocket handshake or an HTTP request sent to it waits until the
// client gives up. It stops when the test ends.
type Hung struct {
	// Addr is its host:port.
	Addr string
	// Asked gets a value for each connection whose client has sent its
	// first bytes (the handshake, the request), while it has room (16).
	Asked chan struct{}
}

// NewHung starts a Hung server for the length of t.
func NewHung(t testing.TB) *Hung {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := &Hung{Addr: ln.Addr().String(), Asked: make(chan struct{}, 16)}
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		conns  []net.Conn // guarded by mu
		closed bool       // guarded by mu
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			if closed {
				c.Close()
			}
			conns = append(conns, c)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				if n, _ := c.Read(make([]byte, 4096)); n > 0 {
					select {
					case h.Asked <- struct{}{}:
					default:
					}
				}
				_, _ = io.Copy(io.Discard, c) // until either side closes it
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		closed = true
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return h
}

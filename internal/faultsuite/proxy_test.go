//go:build faultsuite

package faultsuite

import (
	"context"
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
)

// cutProxy relays every connection of the clients under test through a
// loopback listener, so that it can cut them at random: both halves are
// closed, and client and server see the connection die mid-stream.
type cutProxy struct {
	ln      net.Listener
	accepts chan net.Conn
	done    chan struct{}
	cuts    atomic.Int64

	dialMu sync.Mutex // pairs each dial with the connection it accepts
	mu     sync.Mutex
	pipes  map[*pipe]struct{}
	wg     sync.WaitGroup
}

// pipe is one relayed connection: the proxy's side of the client's
// connection and the connection to the server.
type pipe struct {
	down, up net.Conn
}

func (p *pipe) close() {
	p.down.Close()
	p.up.Close()
}

func newCutProxy() (*cutProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &cutProxy{ln: ln, accepts: make(chan net.Conn), done: make(chan struct{}), pipes: make(map[*pipe]struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			select {
			case p.accepts <- c:
			case <-p.done:
				c.Close()
				return
			}
		}
	}()
	return p, nil
}

// dial is the clients' ConnConfig.Dialer: it connects to the server, then
// hands the client a connection to the proxy that relays to it.
func (p *cutProxy) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var nd net.Dialer
	up, err := nd.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	p.dialMu.Lock()
	defer p.dialMu.Unlock()
	client, err := nd.DialContext(ctx, "tcp", p.ln.Addr().String())
	if err != nil {
		up.Close()
		return nil, err
	}
	var down net.Conn
	for down == nil {
		select {
		case c := <-p.accepts:
			if c.RemoteAddr().String() == client.LocalAddr().String() {
				down = c
			} else {
				c.Close() // left by a dial that gave up
			}
		case <-ctx.Done():
			up.Close()
			client.Close()
			return nil, ctx.Err()
		}
	}
	pp := &pipe{down: down, up: up}
	p.mu.Lock()
	p.pipes[pp] = struct{}{}
	p.mu.Unlock()
	p.wg.Add(2)
	relay := func(dst, src net.Conn) {
		defer p.wg.Done()
		_, _ = io.Copy(dst, src)
		pp.close()
		p.mu.Lock()
		delete(p.pipes, pp)
		p.mu.Unlock()
	}
	go relay(up, down)
	go relay(down, up)
	return client, nil
}

// cutOne closes one relayed connection chosen at random.
func (p *cutProxy) cutOne() {
	p.mu.Lock()
	var victim *pipe
	n := 0
	for pp := range p.pipes {
		n++
		if rand.IntN(n) == 0 {
			victim = pp
		}
	}
	p.mu.Unlock()
	if victim != nil {
		p.cuts.Add(1)
		victim.close()
	}
}

// close stops the proxy, cutting what is left, and waits for its goroutines.
func (p *cutProxy) close() {
	close(p.done)
	p.ln.Close()
	p.mu.Lock()
	for pp := range p.pipes {
		pp.close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

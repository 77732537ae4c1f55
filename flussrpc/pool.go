package flussrpc

import (
	"context"
	"sync"
	"sync/atomic"
)

// connPool keeps multiplexed connections per server address. Connections are
// dialed on first use, shared by all callers, and replaced transparently
// once broken (for example after the server closed an idle connection).
type connPool struct {
	cfg     ConnConfig
	hooks   *hooks
	perAddr int

	mu     sync.Mutex
	addrs  map[string]*poolAddr
	closed bool
}

// poolAddr holds the connection slots of one address.
type poolAddr struct {
	slots []*poolSlot
	next  atomic.Uint32 // round-robin cursor over slots
}

// poolSlot is one connection position. While a dial runs, dialing is
// non-nil and is closed when it finishes, so concurrent first users wait
// for that dial instead of starting their own.
type poolSlot struct {
	conn    *conn
	dialing chan struct{}
	dialErr error // outcome of the dial that closed dialing
	// ownerGaveUp is true when that dial failed because its caller's
	// context ended, which says nothing about the server.
	ownerGaveUp bool
	retired     bool // removed from the pool by discard; do not repopulate
}

// newConnPool creates a pool with one connection per address, which is
// what Fluss clients normally need: a connection is fully multiplexed.
func newConnPool(cfg ConnConfig, h *hooks) *connPool { return newConnPoolN(cfg, h, 1) }

// newConnPoolN creates a pool with perAddr connections per address (at
// least 1), used round-robin, for callers whose large requests or replies
// would otherwise queue behind each other on one socket.
func newConnPoolN(cfg ConnConfig, h *hooks, perAddr int) *connPool {
	return &connPool{
		cfg:     cfg,
		hooks:   h,
		perAddr: max(perAddr, 1),
		addrs:   make(map[string]*poolAddr),
	}
}

// get returns a live connection to addr, dialing one if needed. Waiting for
// another caller's dial honours ctx.
func (p *connPool) get(ctx context.Context, addr string) (*conn, error) {
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, &TransportError{Addr: addr, Op: "dial", Err: ErrClosed}
		}
		s := p.slotLocked(addr)
		if s.conn != nil && !s.conn.isClosed() {
			c := s.conn
			p.mu.Unlock()
			return c, nil
		}
		if ch := s.dialing; ch != nil {
			p.mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if err := p.dialOutcome(s, ch); err != nil {
				return nil, err
			}
			continue // the slot now holds a fresh conn, or dial again
		}
		ch := make(chan struct{})
		s.conn, s.dialing = nil, ch
		p.mu.Unlock()
		return p.dial(ctx, addr, s, ch)
	}
}

// slotLocked picks the next slot of addr round-robin, creating the
// address entry on first use. p.mu must be held.
func (p *connPool) slotLocked(addr string) *poolSlot {
	pa := p.addrs[addr]
	if pa == nil {
		pa = &poolAddr{slots: make([]*poolSlot, p.perAddr)}
		for i := range pa.slots {
			pa.slots[i] = &poolSlot{}
		}
		p.addrs[addr] = pa
	}
	i := pa.next.Add(1) - 1
	return pa.slots[int(i%uint32(len(pa.slots)))]
}

// dial runs the dial owned by this caller and publishes the outcome.
func (p *connPool) dial(ctx context.Context, addr string, s *poolSlot, ch chan struct{}) (*conn, error) {
	c, err := dialConn(ctx, addr, p.cfg, p.hooks)
	p.mu.Lock()
	if err == nil && (p.closed || s.retired) {
		err = &TransportError{Addr: addr, Op: "dial", Err: ErrClosed}
	} else if err == nil {
		s.conn = c
	}
	s.dialing, s.dialErr = nil, err
	s.ownerGaveUp = err != nil && ctx.Err() != nil
	p.mu.Unlock()
	close(ch)
	if err != nil {
		if c != nil {
			c.close()
		}
		return nil, err
	}
	return c, nil
}

// dialOutcome decides what a caller that waited on someone else's dial
// should do. A dial that failed because its owner's context ended says
// nothing about the server, so waiters retry with their own context; any
// other failure (refused, dial timeout, handshake error) is shared so that
// N callers do not dial a dead server N times in a row.
func (p *connPool) dialOutcome(s *poolSlot, ch chan struct{}) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s.dialing != nil && s.dialing != ch {
		return nil // a newer dial started; go round again
	}
	if s.dialErr == nil || s.ownerGaveUp {
		return nil
	}
	return s.dialErr
}

// discard closes and forgets the connections of addr, e.g. after the
// metadata says the server left the cluster.
func (p *connPool) discard(addr string) {
	p.mu.Lock()
	pa := p.addrs[addr]
	delete(p.addrs, addr)
	var conns []*conn
	if pa != nil {
		for _, s := range pa.slots {
			s.retired = true
			if s.conn != nil {
				conns = append(conns, s.conn)
				s.conn = nil
			}
		}
	}
	p.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
}

// close closes every connection; later gets fail. Dials in progress finish
// and close their connection immediately.
func (p *connPool) close() {
	p.mu.Lock()
	p.closed = true
	var conns []*conn
	for _, pa := range p.addrs {
		for _, s := range pa.slots {
			if s.conn != nil {
				conns = append(conns, s.conn)
				s.conn = nil
			}
		}
	}
	p.addrs = make(map[string]*poolAddr)
	p.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
}

package fluss

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// Connector holds one native client per sql.DB: a connection per Fluss
// server and the metadata cache, shared by every pooled driver.Conn (which
// is only a session over it). database/sql closes it with DB.Close.
type Connector struct {
	cfg *Config

	// mu serializes making and closing the client; live is the current
	// one, read without the lock by every call of every session (usable).
	mu     sync.Mutex
	live   atomic.Pointer[flussrpc.Client]
	closed bool
	// cat is the client's table metadata, shared by every session.
	cat *engine.Catalog
}

var (
	_ driver.Connector           = (*Connector)(nil)
	_ interface{ Close() error } = (*Connector)(nil)
)

// NewConnector returns a Connector for cfg. The configuration is copied;
// nothing is dialed until the first connection is needed.
func NewConnector(cfg *Config) (*Connector, error) {
	if cfg == nil || len(cfg.Addrs) == 0 {
		return nil, errors.New("fluss: the configuration has no server address")
	}
	if cfg.Database != "" {
		if err := schema.CheckName("database", cfg.Database); err != nil {
			return nil, fmt.Errorf("fluss: %w", err)
		}
	}
	c := cfg.Clone()
	if c.Location == nil {
		c.Location = time.UTC
	}
	if c.TLS == nil {
		// A Config built in code may name its TLS the DSN way; never let
		// that quietly mean plaintext.
		if err := c.resolveTLS(); err != nil {
			return nil, fmt.Errorf("fluss: %w", err)
		}
	}
	return &Connector{cfg: c}, nil
}

// Config returns a copy of the connector's configuration.
func (c *Connector) Config() *Config { return c.cfg.Clone() }

// Driver returns the fluss Driver.
func (c *Connector) Driver() driver.Driver { return &Driver{} }

// Connect returns a new session over the shared client, creating the
// client on first use. Per the database/sql contract it never returns
// driver.ErrBadConn.
func (c *Connector) Connect(ctx context.Context) (driver.Conn, error) {
	client, cat, err := c.nativeClient(ctx)
	if err != nil {
		return nil, err
	}
	return newSession(c, client, cat), nil
}

// Close releases the native client. database/sql calls it from DB.Close.
func (c *Connector) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	client := c.live.Swap(nil)
	if client == nil {
		return nil
	}
	return client.Close()
}

// nativeClient returns the shared client and its catalog, making them on
// first use.
func (c *Connector) nativeClient(ctx context.Context) (*flussrpc.Client, *engine.Catalog, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, nil, errors.New("fluss: the connector is closed")
	}
	if client := c.live.Load(); client != nil {
		return client, c.cat, nil
	}
	client, err := flussrpc.NewClient(ctx, c.clientConfig())
	if err != nil {
		// A dial failure is retriable by database/sql only as a fresh
		// Connect; never let it look like ErrBadConn.
		return nil, nil, engine.WrapError(err, "")
	}
	c.cat = engine.NewCatalog(client)
	c.live.Store(client)
	return client, c.cat, nil
}

func (c *Connector) clientConfig() flussrpc.Config {
	return flussrpc.Config{
		Bootstrap: c.cfg.Addrs,
		Conn: flussrpc.ConnConfig{
			ClientID:    c.cfg.ClientID,
			Username:    c.cfg.User,
			Password:    c.cfg.Password,
			DialTimeout: c.cfg.ConnectTimeout,
			TLS:         c.cfg.TLS,
			Dialer:      c.cfg.Dialer,
		},
		RequestTimeout: c.cfg.RequestTimeout,
		Tracer:         c.cfg.Tracer,
		Logger:         c.cfg.Logger,
	}
}

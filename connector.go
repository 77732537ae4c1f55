package fluss

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gofluss/fluss/flussrpc"
)

// Connector holds one native client per sql.DB: a connection per Fluss
// server and the metadata cache, shared by every pooled driver.Conn (which
// is only a session over it). database/sql closes it with DB.Close.
type Connector struct {
	cfg *Config

	mu     sync.Mutex
	client *flussrpc.Client
	closed bool
	tables *tableCache
	// handles are the open tables and their lookupers (exec_write.go).
	handles handleCache
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
	client, err := c.nativeClient(ctx)
	if err != nil {
		return nil, err
	}
	return newConn(c, client), nil
}

// Close releases the native client. database/sql calls it from DB.Close.
func (c *Connector) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.client == nil {
		return nil
	}
	err := c.client.Close()
	c.client = nil
	return err
}

func (c *Connector) nativeClient(ctx context.Context) (*flussrpc.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, errors.New("fluss: the connector is closed")
	}
	if c.client != nil {
		return c.client, nil
	}
	client, err := flussrpc.NewClient(ctx, c.clientConfig())
	if err != nil {
		// A dial failure is retriable by database/sql only as a fresh
		// Connect; never let it look like ErrBadConn.
		return nil, wrapError(err, "")
	}
	c.client = client
	c.tables = newTableCache(client)
	return client, nil
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
	}
}

// tableCacheTTL bounds how long a table's metadata is trusted without a
// refresh: DDL through this driver invalidates at once, DDL by others is
// seen at the latest after this long.
const tableCacheTTL = 30 * time.Second

// tableCache is the planner's Catalog: Admin.GetTableInfo with a short-lived
// cache shared by all sessions of one Connector.
type tableCache struct {
	client *flussrpc.Client
	mu     sync.Mutex
	byPath map[flussrpc.TablePath]cachedTable
}

type cachedTable struct {
	info *flussrpc.TableInfo
	at   time.Time
}

func newTableCache(client *flussrpc.Client) *tableCache {
	return &tableCache{client: client, byPath: make(map[flussrpc.TablePath]cachedTable)}
}

// TableInfo returns the (possibly cached) info of a table.
func (t *tableCache) TableInfo(ctx context.Context, path flussrpc.TablePath) (*flussrpc.TableInfo, error) {
	t.mu.Lock()
	ct, ok := t.byPath[path]
	t.mu.Unlock()
	if ok && time.Since(ct.at) < tableCacheTTL {
		return ct.info, nil
	}
	info, err := t.client.Admin().GetTableInfo(ctx, path)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.byPath[path] = cachedTable{info: info, at: time.Now()}
	t.mu.Unlock()
	return info, nil
}

// forget drops a table after DDL on it.
func (t *tableCache) forget(path flussrpc.TablePath) {
	t.mu.Lock()
	delete(t.byPath, path)
	t.mu.Unlock()
}

// forgetDatabase drops every table of a database after DROP DATABASE.
func (t *tableCache) forgetDatabase(db string) {
	t.mu.Lock()
	for p := range t.byPath {
		if p.Database == db {
			delete(t.byPath, p)
		}
	}
	t.mu.Unlock()
}

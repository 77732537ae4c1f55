package fluss

import (
	"context"
	"database/sql"
	"database/sql/driver"

	"github.com/gofluss/fluss/engine"
)

// Version is the driver's version, reported by SELECT VERSION().
const Version = engine.Version

// DriverName is the name the driver registers under with database/sql.
const DriverName = "fluss"

func init() {
	sql.Register(DriverName, &Driver{})
}

// Driver is the database/sql driver for Fluss. Use it through
// sql.Open("fluss", dsn), or skip the DSN with NewConnector and sql.OpenDB.
type Driver struct{}

var (
	_ driver.Driver        = (*Driver)(nil)
	_ driver.DriverContext = (*Driver)(nil)
)

// Open opens a connection from a DSN. database/sql prefers OpenConnector,
// which parses the DSN once per sql.DB; Open exists for old callers and
// behaves the same, each call with its own native client.
func (d *Driver) Open(dsn string) (driver.Conn, error) {
	c, err := d.OpenConnector(dsn)
	if err != nil {
		return nil, err
	}
	return c.Connect(context.Background())
}

// OpenConnector parses the DSN into a Connector.
func (d *Driver) OpenConnector(dsn string) (driver.Connector, error) {
	cfg, err := ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	return NewConnector(cfg)
}

// OpenDB returns a *sql.DB for cfg, the programmatic twin of sql.Open.
func OpenDB(cfg *Config) (*sql.DB, error) {
	c, err := NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(c), nil
}

package planner

import (
	"context"
	"strings"
	"time"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// Catalog gives the planner the metadata of existing tables. The driver
// implements it with a cached Admin.GetTableInfo; tests use an in-memory
// fake. TableInfo returns an error (typically flussrpc's table-not-exist
// error) when the table does not exist.
type Catalog interface {
	TableInfo(ctx context.Context, path schema.TablePath) (*schema.TableInfo, error)
}

// Defaults used when the Session leaves a field empty.
const (
	DefaultDatabase = "fluss"
	DefaultCatalog  = "fluss_catalog"
	// DefaultScanMaxRows is the default of 'fluss.scan.max-rows'.
	DefaultScanMaxRows = 100000
)

// Session is the connection state the planner reads. It is never modified
// by Plan: SET, RESET, USE and USE CATALOG produce plans that the executor
// applies to its own copy.
type Session struct {
	// Database is the current database ("" means DefaultDatabase).
	Database string
	// Catalog is the catalog name that may prefix three-part names
	// ("" means DefaultCatalog).
	Catalog string
	// Options are the values set with SET 'k' = 'v'.
	Options map[string]string
	// DSNOptions are the key=value options of the DSN (lowest precedence
	// after the client defaults).
	DSNOptions map[string]string
	// LenientDDL is the DSN's ddl=lenient: MySQL-flavoured DDL is mapped to
	// Fluss types with notices instead of being rejected.
	LenientDDL bool
	// Location is the DSN's loc, used for TIMESTAMP_LTZ literals and
	// 'scan.startup.timestamp' datetimes (nil means UTC).
	Location *time.Location
	// Engine says that an embedded query engine runs what Fluss cannot
	// serve (aggregates, joins, filters on any column, ...): such a
	// SELECT plans as an *Analytic instead of being refused.
	Engine bool
}

func (s *Session) engine() bool { return s != nil && s.Engine }

func (s *Session) database() string {
	if s == nil || s.Database == "" {
		return DefaultDatabase
	}
	return s.Database
}

func (s *Session) catalog() string {
	if s == nil || s.Catalog == "" {
		return DefaultCatalog
	}
	return s.Catalog
}

func (s *Session) location() *time.Location {
	if s == nil || s.Location == nil {
		return time.UTC
	}
	return s.Location
}

// options resolves read/write options with the dialect's precedence:
// hint > SET session value > table custom properties > DSN.
type options struct {
	hints   map[string]string
	session map[string]string
	table   map[string]string
	dsn     map[string]string
}

func (s *Session) opts(hints, table map[string]string) options {
	o := options{hints: hints, table: table}
	if s != nil {
		o.session = s.Options
		o.dsn = s.DSNOptions
	}
	return o
}

func (o options) get(key string) (string, bool) {
	for _, m := range []map[string]string{o.hints, o.session, o.table, o.dsn} {
		if v, ok := m[key]; ok {
			return v, true
		}
	}
	return "", false
}

func (o options) bool(key string) bool {
	v, _ := o.get(key)
	return strings.EqualFold(strings.TrimSpace(v), "true")
}

// fromHint reports whether key was given as a hint.
func (o options) fromHint(key string) bool {
	_, ok := o.hints[key]
	return ok
}

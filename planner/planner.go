package planner

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/parser"
)

// Build plans one parsed statement. cat supplies the metadata of existing
// tables (it may be nil for statements that need none); sess is the
// connection state (nil means all defaults). Rejections are *Error; errors
// from cat are returned unchanged.
func Build(ctx context.Context, stmt parser.Statement, cat Catalog, sess *Session) (Plan, error) {
	if stmt == nil {
		return nil, errf("statement", "empty statement")
	}
	p := &planCtx{ctx: ctx, cat: cat, sess: sess}
	pl, err := p.statement(stmt)
	if err != nil {
		return nil, err
	}
	return pl, nil
}

type planCtx struct {
	ctx    context.Context
	cat    Catalog
	sess   *Session
	params []Param
}

func (p *planCtx) statement(stmt parser.Statement) (Plan, error) {
	switch s := stmt.(type) {
	case *parser.CreateDatabase:
		return p.createDatabase(s)
	case *parser.DropDatabase:
		return p.dropDatabase(s)
	case *parser.AlterDatabase:
		return p.alterDatabase(s)
	case *parser.CreateCatalog:
		return p.createCatalog(s)
	case *parser.UseCatalog:
		if s.Name != p.sess.catalog() {
			return nil, errf("USE CATALOG", "catalog %q is not this connection's catalog (%q); set the DSN option catalog=%s to use that name", s.Name, p.sess.catalog(), s.Name)
		}
		return &UseCatalog{Catalog: s.Name}, nil
	case *parser.Use:
		db, err := p.dbName(s.Database, "USE")
		if err != nil {
			return nil, err
		}
		return &Use{Database: db}, nil
	case *parser.CreateTable:
		return p.createTable(s)
	case *parser.DropTable:
		return p.dropTable(s)
	case *parser.AlterTable:
		return p.alterTable(s)
	case *parser.Show:
		return p.show(s)
	case *parser.Describe:
		return p.describe(s)
	case *parser.Explain:
		inner, err := p.statement(s.Statement)
		if err != nil {
			return nil, err
		}
		if _, ok := inner.(*Explain); ok {
			return nil, errf("EXPLAIN", "EXPLAIN cannot be nested")
		}
		return &Explain{Inner: inner, Output: []Column{{"plan", schema.String().NotNull()}}}, nil
	case *parser.Set:
		return p.set(s)
	case *parser.MySQLSet:
		return &NoOp{Statement: "SET " + s.Variable, Reason: "MySQL session setting accepted for client compatibility; it has no effect"}, nil
	case *parser.Reset:
		if s.Key != "" {
			if err := checkSessionKey(s.Key, "RESET"); err != nil {
				return nil, err
			}
		}
		return &ResetOption{Key: s.Key}, nil
	case *parser.Call:
		return p.call(s)
	case *parser.Flush:
		if s.Table == nil {
			return &Flush{}, nil
		}
		path, err := p.path(*s.Table, "FLUSH")
		if err != nil {
			return nil, err
		}
		return &Flush{Table: &path}, nil
	case *parser.Transaction:
		if len(s.Characteristics) > 0 {
			return nil, errf("START TRANSACTION", "transactions are not supported; only a non-atomic write batch (tx=batch) is available, without %s", strings.Join(s.Characteristics, ", "))
		}
		return &Transaction{Kind: TxKind(s.Kind)}, nil
	case *parser.StatementSet:
		b := &Batch{}
		for _, inner := range s.Statements {
			if _, ok := inner.(*parser.Insert); !ok {
				return nil, errf("STATEMENT SET", "EXECUTE STATEMENT SET may only contain INSERT statements")
			}
			ip, err := p.statement(inner)
			if err != nil {
				return nil, err
			}
			b.Plans = append(b.Plans, ip)
		}
		return b, nil
	case *parser.Unsupported:
		if s.Engine {
			e := engineError(s.Feature)
			e.Clause = "FROM"
			return nil, e
		}
		return nil, unsupportedError(s)
	case *parser.Select:
		pl, err := p.selectStmt(s)
		if err != nil && p.sess.engine() && needsEngine(err) {
			return p.analytic(s)
		}
		return pl, err
	case *parser.Union:
		if p.sess.engine() {
			return p.analytic(s)
		}
		return nil, engineError(s.Type)
	case *parser.Insert:
		return p.insert(s)
	case *parser.Update:
		return p.update(s)
	case *parser.Delete:
		return p.delete(s)
	}
	return nil, errf("statement", "statement %T is not supported", stmt)
}

func unsupportedError(s *parser.Unsupported) *Error {
	f := strings.ToUpper(s.Feature)
	switch {
	case f == "TRUNCATE":
		return errf("TRUNCATE", "TRUNCATE is not supported by Fluss (drop and recreate the table, drop a partition, or DELETE by key)")
	case f == "RENAME TABLE":
		return errf("RENAME", "renaming tables is not supported by Fluss (create a new table and copy the rows)")
	}
	msg := strings.TrimPrefix(s.Msg, "fluss: ")
	if msg == "" {
		msg = s.Feature + " is not supported by the fluss driver"
	}
	return errf(s.Feature, "%s", msg)
}

// engineError is the rejection of query-engine features.
func engineError(feature string) *Error {
	clause := strings.TrimPrefix(feature, "a ")
	if strings.HasPrefix(feature, "aggregate ") {
		clause = "SELECT"
	}
	return engineErrf(clause, "%s is a query-engine feature; the fluss driver only plans single-table lookups and bounded scans. Import github.com/gofluss/fluss/analytics to run it on the embedded engine, use Flink SQL, or compute in Go", feature)
}

// ---------------------------------------------------------------------------
// Names

func (p *planCtx) checkCatalog(cat, clause string) *Error {
	if cat != "" && cat != p.sess.catalog() {
		return errf(clause, "catalog %q is not this connection's catalog (%q)", cat, p.sess.catalog())
	}
	return nil
}

func (p *planCtx) path(n parser.TableName, clause string) (schema.TablePath, error) {
	if err := p.checkCatalog(n.Catalog, clause); err != nil {
		return schema.TablePath{}, err
	}
	db := n.Database
	if db == "" {
		db = p.sess.database()
	}
	path := schema.TablePath{Database: db, Table: n.Name}
	if err := path.Check(); err != nil {
		return schema.TablePath{}, errf(clause, "%s", err)
	}
	return path, nil
}

func (p *planCtx) dbName(n parser.DatabaseName, clause string) (string, error) {
	if err := p.checkCatalog(n.Catalog, clause); err != nil {
		return "", err
	}
	if err := schema.CheckName("database", n.Name); err != nil {
		return "", errf(clause, "%s", err)
	}
	return n.Name, nil
}

// table resolves a table through the catalog.
func (p *planCtx) table(n parser.TableName, clause string) (*schema.TableInfo, error) {
	path, err := p.path(n, clause)
	if err != nil {
		return nil, err
	}
	if p.cat == nil {
		return nil, errf(clause, "no table metadata available for %s", path)
	}
	info, err := p.cat.TableInfo(p.ctx, path)
	if err != nil {
		return nil, err
	}
	if info == nil {
		return nil, errf(clause, "table %s does not exist", path)
	}
	return info, nil
}

func tableOf(info *schema.TableInfo) Table {
	return Table{Path: info.Path, TableID: info.TableID, SchemaID: info.SchemaID}
}

// hintOptions collects OPTIONS hints; table hints win over statement hints.
func hintOptions(stmt, table []parser.Hint) map[string]string {
	var m map[string]string
	for _, group := range [][]parser.Hint{stmt, table} {
		for _, h := range group {
			if h.Name != "OPTIONS" {
				continue
			}
			for _, o := range h.Options {
				if m == nil {
					m = map[string]string{}
				}
				m[o.Key] = o.Value
			}
		}
	}
	return m
}

// ---------------------------------------------------------------------------
// Session options

var sessionPrefixes = []string{"scan.", "lookup.", "client.", "sink.", "fluss."}

// ignoredPrefixes are Flink engine and SQL-client settings that Flink
// scripts carry; they are accepted and have no effect.
var ignoredPrefixes = []string{"sql-client.", "execution.", "pipeline.", "parallelism.", "table.exec.", "table.optimizer.", "table.dml-sync", "state.", "restart-strategy."}

// LocalTimeZone is the key of Flink's session time zone. SET and RESET
// change it (the executor reads the zone: the planner does no I/O); a DSN
// gives the connection's zone with loc instead.
const LocalTimeZone = "table.local-time-zone"

var flussKeys = map[string]bool{
	"fluss.client-filter": true, "fluss.scan.max-rows": true, "fluss.scan.bounded": true, "fluss.scan.poll-timeout": true,
	"fluss.write.sync": true, "fluss.merge-mode": true, "fluss.complex-types": true, "fluss.exact-rows-affected": true,
	"fluss.scan.start-offsets": true,
	EngineMemoryLimit:          true, EngineTempDirectory: true, EngineThreads: true,
}

// The options of the embedded query engine (see Analytic).
const (
	// EngineMemoryLimit caps the engine's memory, e.g. '512MB' or '4GB';
	// past it the engine spills to EngineTempDirectory or fails the query.
	EngineMemoryLimit = "fluss.engine.memory-limit"
	// EngineTempDirectory is where the engine spills.
	EngineTempDirectory = "fluss.engine.temp-directory"
	// EngineThreads is how many threads the engine may use.
	EngineThreads = "fluss.engine.threads"
)

// memorySize is what EngineMemoryLimit accepts: a number and a unit.
var memorySize = regexp.MustCompile(`(?i)^\s*[0-9]+(\.[0-9]+)?\s*(B|KB|MB|GB|TB|KIB|MIB|GIB|TIB)\s*$`)

func checkSessionKey(key, clause string) *Error {
	if key == "execution.runtime-mode" {
		return nil
	}
	if key == LocalTimeZone {
		switch clause {
		case "SET", "RESET":
			return nil
		case "option":
			return errf(clause, "'%s' is a session setting (SET); a DSN gives the connection's time zone with loc=<IANA name>", key)
		}
		return errf(clause, "'%s' is a session setting: SET it before the statement", key)
	}
	if slices.Contains(LookupOptionKeys, key) && clause != "SET" && clause != "RESET" && clause != "option" {
		return errf(clause, "'%s' is a session setting (SET, or the DSN): the sessions of a table share the batching of its lookups", key)
	}
	if strings.HasPrefix(key, "fluss.") {
		if !flussKeys[key] {
			return errf(clause, "unknown driver option %q (driver options: %s)", key, strings.Join(slices.Sorted(maps.Keys(flussKeys)), ", "))
		}
		return nil
	}
	for _, pre := range sessionPrefixes {
		if strings.HasPrefix(key, pre) {
			return nil
		}
	}
	for _, pre := range ignoredPrefixes {
		if strings.HasPrefix(key, pre) {
			return nil
		}
	}
	what := "session option"
	if clause != "SET" && clause != "RESET" {
		what = "option"
	}
	return errf(clause, "unknown %s %q; accepted keys are execution.runtime-mode and keys starting with scan., lookup., client., sink. or fluss. (Flink's sql-client.*, execution.*, pipeline.*, table.exec.* are accepted and ignored)", what, key)
}

func (p *planCtx) set(s *parser.Set) (Plan, error) {
	if s.Key == "" {
		return &ShowOptions{Output: []Column{{"key", schema.String().NotNull()}, {"value", schema.String().NotNull()}}}, nil
	}
	if err := checkSessionKey(s.Key, "SET"); err != nil {
		return nil, err
	}
	if err := checkOptionValue(s.Key, s.Value, "SET"); err != nil {
		return nil, err
	}
	if s.Key == "execution.runtime-mode" {
		return &SetOption{Key: s.Key, Value: strings.ToLower(s.Value)}, nil
	}
	for _, pre := range ignoredPrefixes {
		if strings.HasPrefix(s.Key, pre) {
			return &NoOp{Statement: "SET '" + s.Key + "'", Reason: "Flink engine / SQL client setting; accepted and ignored"}, nil
		}
	}
	return &SetOption{Key: s.Key, Value: s.Value}, nil
}

// CheckOption validates an option given outside SQL (a DSN key): the key
// must be one SET accepts, and the value one SET would accept.
func CheckOption(key, value string) error {
	if err := checkSessionKey(key, "option"); err != nil {
		return err
	}
	if err := checkOptionValue(key, value, "option"); err != nil {
		return err
	}
	return nil
}

// checkOptionValue validates the values of the keys the driver itself
// interprets; Fluss keys are checked by the server or the client.
func checkOptionValue(key, value, clause string) *Error {
	v := strings.ToLower(value)
	switch key {
	case "execution.runtime-mode":
		if v != "batch" && v != "streaming" {
			return errf(clause, "'execution.runtime-mode' must be 'batch' or 'streaming', got '%s'", value)
		}
	case "fluss.write.sync":
		// An asynchronous mode would let Exec return before the server
		// acknowledged the rows, and database/sql has no place to report
		// a later failure: a pooled connection may be closed unseen.
		if v == "false" {
			return errf(clause, "'fluss.write.sync' = 'false' is not supported: every write returns only after the server acknowledged it; to batch writes use BEGIN ... COMMIT (one flush at COMMIT), multi-row VALUES, or fluss.AppendArrow and the native writers through sql.Conn.Raw")
		}
		if v != "true" {
			return errf(clause, "'fluss.write.sync' must be 'true', got '%s'", value)
		}
	case "lookup.insert-if-not-exists":
		if clause == "SET" || clause == "option" {
			return errf(clause, "'lookup.insert-if-not-exists' is a per-query hint (SELECT ... FROM t /*+ OPTIONS('lookup.insert-if-not-exists' = 'true') */ WHERE <key> = ...); as a session or DSN default it would turn every lookup into a write")
		}
	case "fluss.client-filter", "fluss.scan.bounded", "fluss.exact-rows-affected":
		if v != "true" && v != "false" {
			return errf(clause, "'%s' must be 'true' or 'false', got '%s'", key, value)
		}
	case EngineMemoryLimit:
		if !memorySize.MatchString(value) {
			return errf(clause, "'%s' must be a size such as '512MB' or '4GB', got '%s'", key, value)
		}
	case EngineThreads:
		var n int64
		if _, err := fmt.Sscan(value, &n); err != nil || n <= 0 || n > 1024 {
			return errf(clause, "'%s' must be a positive integer, got '%s'", key, value)
		}
	case EngineTempDirectory:
		if strings.TrimSpace(value) == "" || strings.ContainsAny(value, "'\x00") {
			return errf(clause, "'%s' must be a directory path without quotes, got '%s'", key, value)
		}
	case "fluss.scan.max-rows":
		var n int64
		if _, err := fmt.Sscan(value, &n); err != nil || n <= 0 {
			return errf(clause, "'fluss.scan.max-rows' must be a positive integer, got '%s'", value)
		}
	case "fluss.merge-mode":
		if v != "default" && v != "overwrite" {
			return errf(clause, "'fluss.merge-mode' must be 'default' or 'overwrite', got '%s'", value)
		}
	case "fluss.complex-types":
		if v != "json" && v != "native" {
			return errf(clause, "'fluss.complex-types' must be 'json' or 'native', got '%s'", value)
		}
	}
	return nil
}

func (p *planCtx) createCatalog(s *parser.CreateCatalog) (Plan, error) {
	for _, o := range s.Options {
		if o.Key == "type" && !strings.EqualFold(o.Value, "fluss") {
			return nil, errf("CREATE CATALOG", "catalog type '%s' is not supported; only 'type' = 'fluss' catalogs can be declared (and they map onto this connection)", o.Value)
		}
	}
	return &NoOp{Statement: "CREATE CATALOG " + s.Name, Reason: "the connection is the catalog; accepted so Flink scripts run"}, nil
}

// param records a parameter with its target type.
func (p *planCtx) param(x *parser.Param, column string, t schema.DataType) Value {
	pr := Param{Index: x.Index, Name: x.Name, Column: column, Type: t}
	p.params = append(p.params, pr)
	return Value{Kind: ValueParam, Type: t, Param: &pr}
}

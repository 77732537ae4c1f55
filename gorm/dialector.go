package flussgorm

import (
	"database/sql"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/callbacks"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"
	"gorm.io/gorm/migrator"
	"gorm.io/gorm/schema"

	// The dialector opens connections with the fluss driver.
	_ "github.com/gofluss/fluss"
)

// Config configures a Dialector made with New.
type Config struct {
	// DSN is the fluss driver's DSN:
	// fluss://[user:password@]host:port[,host:port...]/[database]?key=value.
	DSN string
	// Conn, when set, is used instead of opening DSN (for example a *sql.DB
	// from fluss.OpenDB).
	Conn gorm.ConnPool
}

// Dialector is the GORM dialector for Fluss.
type Dialector struct {
	Config
}

// Open returns a Dialector for the DSN.
func Open(dsn string) gorm.Dialector {
	return &Dialector{Config: Config{DSN: dsn}}
}

// New returns a Dialector for the configuration.
func New(cfg Config) gorm.Dialector {
	return &Dialector{Config: cfg}
}

// Name returns "fluss".
func (d *Dialector) Name() string { return "fluss" }

// Clauses the SQL of each operation is built from. UPDATE and DELETE take
// no ORDER BY or LIMIT: they address one key.
var (
	createClauses = []string{"INSERT", "VALUES", "ON CONFLICT"}
	queryClauses  = []string{"SELECT", "FROM", "WHERE", "GROUP BY", "ORDER BY", "LIMIT", "FOR"}
	updateClauses = []string{"UPDATE", "SET", "WHERE"}
	deleteClauses = []string{"DELETE", "FROM", "WHERE"}
)

// Initialize opens the connection pool and registers GORM's callbacks,
// with a create callback that never asks for LastInsertId.
func (d *Dialector) Initialize(db *gorm.DB) error {
	cfg := &callbacks.Config{CreateClauses: createClauses, QueryClauses: queryClauses, UpdateClauses: updateClauses, DeleteClauses: deleteClauses}
	callbacks.RegisterDefaultCallbacks(db, cfg)
	if err := db.Callback().Create().Replace("gorm:create", create(callbacks.Create(cfg))); err != nil {
		return err
	}
	if err := db.Callback().Create().After("gorm:commit_or_rollback_transaction").Register("flussgorm:read_auto_increment", readAutoIncrement); err != nil {
		return err
	}
	if err := db.Callback().Update().Before("gorm:update").Register("flussgorm:omit_auto_increment", omitAutoIncrement); err != nil {
		return err
	}
	for name, b := range clauseBuilders {
		db.ClauseBuilders[name] = b
	}
	if d.Conn != nil {
		db.ConnPool = d.Conn
		return nil
	}
	pool, err := sql.Open("fluss", d.DSN)
	if err != nil {
		return err
	}
	db.ConnPool = pool
	return nil
}

// Migrator returns the Fluss migrator.
func (d *Dialector) Migrator(db *gorm.DB) gorm.Migrator {
	return Migrator{Migrator: migrator.Migrator{Config: migrator.Config{DB: db, Dialector: d}}}
}

// BindVarTo writes the driver's positional parameter, ?.
func (d *Dialector) BindVarTo(w clause.Writer, _ *gorm.Statement, _ any) {
	_ = w.WriteByte('?')
}

// QuoteTo quotes an identifier with backticks; a dotted name (table.column
// or database.table) is quoted part by part.
func (d *Dialector) QuoteTo(w clause.Writer, str string) {
	for i, part := range strings.Split(str, ".") {
		if i > 0 {
			_ = w.WriteByte('.')
		}
		_ = w.WriteByte('`')
		_, _ = w.WriteString(strings.ReplaceAll(part, "`", "``"))
		_ = w.WriteByte('`')
	}
}

// Explain renders a statement with its arguments inlined, for logs.
func (d *Dialector) Explain(sql string, vars ...any) string {
	return logger.ExplainSQL(sql, nil, `'`, vars...)
}

// DefaultValueOf is what a Create writes for a field left to its default:
// Fluss columns have no defaults, so NULL.
func (d *Dialector) DefaultValueOf(*schema.Field) clause.Expression {
	return clause.Expr{SQL: "NULL"}
}

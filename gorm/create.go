package flussgorm

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// create wraps GORM's create callback. It refuses rows whose
// auto-increment primary key is unset, since Fluss would not fill it in,
// leaves server-filled columns out (see autoinc.go), and hides
// LastInsertId, which the driver cannot answer, from GORM.
func create(inner func(*gorm.DB)) func(*gorm.DB) {
	return func(db *gorm.DB) {
		if db.Error != nil {
			return
		}
		if err := checkKeys(db); err != nil {
			_ = db.AddError(err)
			return
		}
		omitAutoIncrement(db)
		pool := db.Statement.ConnPool
		db.Statement.ConnPool = noInsertID{pool}
		defer func() { db.Statement.ConnPool = pool }()
		inner(db)
	}
}

// checkKeys fails when a created row leaves its integer primary key at
// zero: GORM treats such a key as database-generated and leaves it out of
// the INSERT, but Fluss generates no keys (its auto-increment columns
// cannot be primary keys).
func checkKeys(db *gorm.DB) error {
	s := db.Statement.Schema
	if s == nil || s.PrioritizedPrimaryField == nil || !s.PrioritizedPrimaryField.AutoIncrement {
		return nil
	}
	f := s.PrioritizedPrimaryField
	rv := db.Statement.ReflectValue
	check := func(v reflect.Value) error {
		if _, zero := f.ValueOf(db.Statement.Context, v); zero {
			return fmt.Errorf("flussgorm: %s.%s is zero: Fluss does not generate primary keys, set it before Create (GORM does not send a zero key; tag the field autoIncrement:false if 0 is a real key)", s.Table, f.DBName)
		}
		return nil
	}
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		for i := 0; i < rv.Len(); i++ {
			if err := check(reflect.Indirect(rv.Index(i))); err != nil {
				return err
			}
		}
	case reflect.Struct:
		return check(rv)
	}
	return nil
}

// noInsertID is the connection pool during a create: its results report
// no LastInsertId (0, nil) instead of the driver's error, so that GORM
// keeps the key the caller set.
type noInsertID struct{ gorm.ConnPool }

func (p noInsertID) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := p.ConnPool.ExecContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return noInsertIDResult{res}, nil
}

type noInsertIDResult struct{ sql.Result }

func (noInsertIDResult) LastInsertId() (int64, error) { return 0, nil }

// clauseBuilders replace GORM's default rendering of clauses that Fluss
// spells differently.
var clauseBuilders = map[string]clause.ClauseBuilder{
	"ON CONFLICT": onConflict,
	"LIMIT":       limit,
}

// limit renders LIMIT [OFFSET]. The dialect has no OFFSET without LIMIT,
// so that is refused with a hint instead of a syntax error.
func limit(c clause.Clause, b clause.Builder) {
	l, ok := c.Expression.(clause.Limit)
	if ok && l.Limit == nil && l.Offset > 0 {
		if stmt, _ := b.(*gorm.Statement); stmt != nil {
			_ = stmt.AddError(unsupported("Offset without Limit: the driver serves OFFSET only with LIMIT; add Limit(n)"))
		}
		return
	}
	c.Build(b)
}

// onConflict renders nothing for an upsert: an INSERT into a primary-key
// table already replaces the row with the same key (and a log table has
// no keys to conflict on). Conflict handling an INSERT cannot express is
// refused.
func onConflict(c clause.Clause, b clause.Builder) {
	oc, ok := c.Expression.(clause.OnConflict)
	if !ok {
		return
	}
	stmt, _ := b.(*gorm.Statement)
	switch {
	case stmt == nil:
	case oc.DoNothing:
		_ = stmt.AddError(unsupported("ON CONFLICT DO NOTHING: an INSERT into a Fluss primary-key table replaces an existing row; look the key up first"))
	case !oc.UpdateAll && len(oc.DoUpdates) > 0 && !updatesAll(stmt, oc.DoUpdates):
		_ = stmt.AddError(unsupported("ON CONFLICT DO UPDATE of some columns: an INSERT into a Fluss primary-key table replaces the whole row; use UpdateAll, or Updates by key"))
	}
}

// updatesAll reports whether the assignments cover every non-key column.
func updatesAll(stmt *gorm.Statement, set clause.Set) bool {
	if stmt.Schema == nil {
		return false
	}
	cols := map[string]bool{}
	for _, a := range set {
		cols[a.Column.Name] = true
	}
	for _, name := range stmt.Schema.DBNames {
		if f := stmt.Schema.FieldsByDBName[name]; !f.PrimaryKey && !cols[name] {
			return false
		}
	}
	return true
}

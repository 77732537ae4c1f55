package flussgorm

import (
	"fmt"
	"reflect"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/schema"
)

// Fluss 0.9 auto-increment columns are non-key columns of primary-key
// tables ('auto-increment.fields'): the server fills them in when a row
// is first written and keeps the value on later upserts. A model marks
// one with `gorm:"autoIncrement"` on a field outside the primary key. The
// dialector never writes such a column (the server refuses values for
// it) and, after a Create outside a transaction has been acknowledged,
// reads the assigned values back into the created rows by key.

// autoIncrementFields are the server-filled fields of a model.
func autoIncrementFields(s *schema.Schema) []*schema.Field {
	if s == nil {
		return nil
	}
	var out []*schema.Field
	for _, f := range s.Fields {
		if f.AutoIncrement && !f.PrimaryKey && f.DBName != "" {
			out = append(out, f)
		}
	}
	return out
}

// omitAutoIncrement keeps auto-increment columns out of INSERT and UPDATE.
func omitAutoIncrement(db *gorm.DB) {
	for _, f := range autoIncrementFields(db.Statement.Schema) {
		db.Statement.Omits = append(db.Statement.Omits, f.DBName)
	}
}

// readAutoIncrement sets the auto-increment fields of the rows just
// created from what the server assigned. Inside a transaction (a write
// batch) the rows are not written before Commit, so nothing is read.
func readAutoIncrement(db *gorm.DB) {
	s := db.Statement.Schema
	fields := autoIncrementFields(s)
	if db.Error != nil || len(fields) == 0 || len(s.PrimaryFields) == 0 {
		return
	}
	if _, inTx := db.Statement.ConnPool.(gorm.TxCommitter); inTx {
		return
	}
	ctx := db.Statement.Context
	rows := createdRows(db.Statement.ReflectValue)
	byKey := make(map[string]reflect.Value, len(rows))
	keys := make([][]any, 0, len(rows))
	for _, rv := range rows {
		key := make([]any, len(s.PrimaryFields))
		for i, f := range s.PrimaryFields {
			key[i], _ = f.ValueOf(ctx, rv)
		}
		byKey[fmt.Sprint(key...)] = rv
		keys = append(keys, key)
	}
	if len(keys) == 0 {
		return
	}
	cols := make([]string, 0, len(s.PrimaryFields)+len(fields))
	for _, f := range append(append([]*schema.Field(nil), s.PrimaryFields...), fields...) {
		cols = append(cols, db.Statement.Quote(f.DBName))
	}
	q := db.Session(&gorm.Session{NewDB: true}).Table(db.Statement.Table).Select(strings.Join(cols, ", "))
	if len(s.PrimaryFields) == 1 {
		flat := make([]any, len(keys))
		for i, k := range keys {
			flat[i] = k[0]
		}
		q = q.Where(cols[0]+" IN ?", flat)
	} else {
		q = q.Where("("+strings.Join(cols[:len(s.PrimaryFields)], ", ")+") IN ?", keys)
	}
	var found []map[string]any
	if err := q.Find(&found).Error; err != nil {
		_ = db.AddError(fmt.Errorf("flussgorm: rows were written, but reading their auto-increment values failed: %w", err))
		return
	}
	for _, m := range found {
		key := make([]any, len(s.PrimaryFields))
		for i, f := range s.PrimaryFields {
			key[i] = m[f.DBName]
		}
		rv, ok := byKey[fmt.Sprint(key...)]
		if !ok {
			continue
		}
		for _, f := range fields {
			if v := m[f.DBName]; v != nil {
				_ = db.AddError(f.Set(ctx, rv, v))
			}
		}
	}
}

// createdRows lists the addressable structs of a Create's value.
func createdRows(rv reflect.Value) []reflect.Value {
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		out := make([]reflect.Value, 0, rv.Len())
		for i := 0; i < rv.Len(); i++ {
			if r := reflect.Indirect(rv.Index(i)); r.Kind() == reflect.Struct {
				out = append(out, r)
			}
		}
		return out
	case reflect.Struct:
		return []reflect.Value{rv}
	}
	return nil
}

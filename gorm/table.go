package flussgorm

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/schema"
)

// ErrUnsupported is wrapped by the errors of migrator operations that
// Fluss cannot perform.
var ErrUnsupported = errors.New("flussgorm: not supported by Fluss")

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUnsupported}, args...)...)
}

// TableOptions are the table settings a model gives CreateTable through a
// FlussTable method:
//
//	func (Event) FlussTable() flussgorm.TableOptions {
//		return flussgorm.TableOptions{Buckets: 4, Options: map[string]string{"table.log.ttl": "7d"}}
//	}
//
// Partition and bucket keys may also be marked on fields with
// `gorm:"partitionKey"` and `gorm:"bucketKey"`; both sources are combined.
type TableOptions struct {
	// Buckets is 'bucket.num' (0: the server's default).
	Buckets int
	// BucketKeys is 'bucket.key', in order.
	BucketKeys []string
	// PartitionKeys are the PARTITIONED BY columns, in order. A partitioned
	// table needs 'table.auto-partition.enabled' or partitions added with
	// ALTER TABLE ... ADD PARTITION before rows can be written.
	PartitionKeys []string
	// Options are further WITH options ('table.*', custom keys).
	Options map[string]string
	// Comment is the table comment.
	Comment string
}

// TableOptioner is implemented by models that set table options.
type TableOptioner interface {
	FlussTable() TableOptions
}

// tableOptions merges a model's FlussTable options with its field tags.
func tableOptions(model any, s *schema.Schema) TableOptions {
	var o TableOptions
	if t, ok := model.(TableOptioner); ok {
		o = t.FlussTable()
	}
	for _, f := range s.Fields {
		if f.DBName == "" {
			continue
		}
		if _, ok := f.TagSettings["PARTITIONKEY"]; ok && !slices.Contains(o.PartitionKeys, f.DBName) {
			o.PartitionKeys = append(o.PartitionKeys, f.DBName)
		}
		if _, ok := f.TagSettings["BUCKETKEY"]; ok && !slices.Contains(o.BucketKeys, f.DBName) {
			o.BucketKeys = append(o.BucketKeys, f.DBName)
		}
	}
	return o
}

// createTableSQL renders the CREATE TABLE statement of a model.
func (m Migrator) createTableSQL(stmt *gorm.Statement, model any) (string, error) {
	s := stmt.Schema
	var b strings.Builder
	b.WriteString("CREATE TABLE ")
	b.WriteString(m.quote(stmt.Table))
	b.WriteString(" (")
	first := true
	for _, name := range s.DBNames {
		f := s.FieldsByDBName[name]
		if f.IgnoreMigration {
			continue
		}
		col, err := m.columnDef(f)
		if err != nil {
			return "", err
		}
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteString(col)
	}
	if len(s.PrimaryFieldDBNames) > 0 {
		b.WriteString(", PRIMARY KEY (" + m.quoteList(s.PrimaryFieldDBNames) + ") NOT ENFORCED")
	}
	b.WriteString(")")
	o := tableOptions(model, s)
	if o.Comment != "" {
		b.WriteString(" COMMENT " + quoteString(o.Comment))
	}
	if len(o.PartitionKeys) > 0 {
		b.WriteString(" PARTITIONED BY (" + m.quoteList(o.PartitionKeys) + ")")
	}
	with := maps.Clone(o.Options)
	if with == nil {
		with = map[string]string{}
	}
	if o.Buckets > 0 {
		with["bucket.num"] = strconv.Itoa(o.Buckets)
	}
	if len(o.BucketKeys) > 0 {
		with["bucket.key"] = strings.Join(o.BucketKeys, ",")
	}
	if ai := autoIncrementFields(s); len(ai) > 0 {
		names := make([]string, len(ai))
		for i, f := range ai {
			names[i] = f.DBName
		}
		with["auto-increment.fields"] = strings.Join(names, ",")
	}
	if len(with) > 0 {
		var opts []string
		for _, k := range slices.Sorted(maps.Keys(with)) {
			opts = append(opts, quoteString(k)+" = "+quoteString(with[k]))
		}
		b.WriteString(" WITH (" + strings.Join(opts, ", ") + ")")
	}
	return b.String(), nil
}

// columnDef renders one column: name, type, NOT NULL and comment. Fluss
// columns have no defaults, so a default value is refused; an
// auto-increment primary key is a plain key (the caller sets it).
func (m Migrator) columnDef(f *schema.Field) (string, error) {
	if f.HasDefaultValue && f.DefaultValue != "" && !f.AutoIncrement {
		return "", unsupported("column %s: default %s: Fluss columns have no default values; set the value in Go", f.DBName, f.DefaultValue)
	}
	var b strings.Builder
	b.WriteString(m.quote(f.DBName) + " " + m.DataTypeOf(f))
	if f.NotNull || f.PrimaryKey {
		b.WriteString(" NOT NULL")
	}
	if f.Comment != "" {
		b.WriteString(" COMMENT " + quoteString(f.Comment))
	}
	return b.String(), nil
}

func (m Migrator) quote(name string) string {
	return m.DB.Statement.Quote(name)
}

func (m Migrator) quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = m.quote(n)
	}
	return strings.Join(q, ", ")
}

// quoteString renders a SQL string literal.
func quoteString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

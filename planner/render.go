package planner

import (
	"strings"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/parser"
)

// RenderCreateTable renders a stored table as Flink CREATE TABLE text
// that plans back into the same descriptor: columns with types, NOT NULL
// and comments; computed columns and watermarks from their custom
// properties; the primary key (NOT ENFORCED); COMMENT; PARTITIONED BY;
// and WITH holding bucket.num, a non-default bucket.key, every table.*
// property and custom property, auto-increment.fields and fields.*.agg.
// It is the text of SHOW CREATE TABLE.
func RenderCreateTable(info *schema.TableInfo) string {
	return renderDef(info.Path, defFromDescriptor(&info.Descriptor))
}

func renderDef(path schema.TablePath, def *tableDef) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE " + schema.Backquote(path.Database) + "." + schema.Backquote(path.Table) + " (")
	var items []string
	for _, c := range def.cols {
		if c.computed {
			s := schema.Backquote(c.name) + " AS " + c.expr
			if c.comment != "" {
				s += " COMMENT " + parser.QuoteString(c.comment)
			}
			items = append(items, s)
			continue
		}
		s := schema.Backquote(c.name) + " " + renderType(c.typ)
		if c.comment != "" {
			s += " COMMENT " + parser.QuoteString(c.comment)
		}
		items = append(items, s)
	}
	for _, w := range def.watermarks {
		items = append(items, "WATERMARK FOR "+schema.Backquote(w.column)+" AS "+w.expr)
	}
	if len(def.pk) > 0 {
		items = append(items, "PRIMARY KEY ("+joinNames(def.pk)+") NOT ENFORCED")
	}
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  " + it)
	}
	b.WriteString("\n)")
	if def.comment != "" {
		b.WriteString("\nCOMMENT " + parser.QuoteString(def.comment))
	}
	if len(def.partitionBy) > 0 {
		b.WriteString("\nPARTITIONED BY (" + joinNames(def.partitionBy) + ")")
	}
	if len(def.options) > 0 {
		b.WriteString("\nWITH (")
		for i, o := range def.options {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n  " + parser.QuoteString(o.key) + " = " + parser.QuoteString(o.value))
		}
		b.WriteString("\n)")
	}
	return b.String()
}

func joinNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = schema.Backquote(n)
	}
	return strings.Join(q, ", ")
}

// renderType renders a type in Fluss SQL, quoting ROW field names and
// keeping field descriptions.
func renderType(t schema.DataType) string {
	return nestedType(t, func(schema.DataType) (string, bool) { return "", false }, func(f schema.Field, typ string) string {
		s := schema.Backquote(f.Name) + " " + typ
		if f.Description != "" {
			s += " " + parser.QuoteString(f.Description)
		}
		return s
	})
}

// nestedType renders t as ARRAY<...>, MAP<..., ...> or ROW<...> around its
// rendered children, a ROW field with field given the field's rendered
// type, and every other type with leaf or, when leaf returns false, as
// t.String() (which already says NOT NULL).
func nestedType(t schema.DataType, leaf func(schema.DataType) (string, bool), field func(f schema.Field, typ string) string) string {
	var s string
	switch t.Root {
	case schema.RootArray:
		s = "ARRAY<" + nestedType(*t.Elem, leaf, field) + ">"
	case schema.RootMap:
		s = "MAP<" + nestedType(*t.Key, leaf, field) + ", " + nestedType(*t.Value, leaf, field) + ">"
	case schema.RootRow:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = field(f, nestedType(f.Type, leaf, field))
		}
		s = "ROW<" + strings.Join(parts, ", ") + ">"
	default:
		var ok bool
		if s, ok = leaf(t); !ok {
			return t.String()
		}
	}
	if !t.Nullable {
		s += " NOT NULL"
	}
	return s
}

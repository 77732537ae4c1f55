package planner

import (
	"encoding/hex"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// format renders a plan as "TypeName" followed by its non-zero fields, one
// per line, indented two spaces per level.
func format(p Plan) string {
	var b strings.Builder
	v := reflect.ValueOf(p)
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	b.WriteString(v.Type().Name())
	writeFields(&b, v, 1)
	return b.String()
}

func writeFields(b *strings.Builder, v reflect.Value, indent int) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := v.Field(i)
		if !t.Field(i).IsExported() || f.IsZero() && t.Field(i).Name != "Kind" && f.Type() != reflect.TypeOf(OffsetSpec{}) {
			continue
		}
		b.WriteByte('\n')
		b.WriteString(strings.Repeat("  ", indent))
		b.WriteString(t.Field(i).Name)
		b.WriteString(":")
		writeValue(b, f, indent)
	}
}

// writeValue writes " value" on the current line, or nested lines.
func writeValue(b *strings.Builder, v reflect.Value, indent int) {
	if s, ok := scalarText(v); ok {
		b.WriteByte(' ')
		b.WriteString(s)
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString(" nil")
			return
		}
		if pl, ok := v.Interface().(Plan); ok {
			pad := strings.Repeat("  ", indent+1)
			b.WriteString("\n" + pad + strings.ReplaceAll(pl.String(), "\n", "\n"+pad))
			return
		}
		writeValue(b, v.Elem(), indent)
	case reflect.Slice, reflect.Array:
		if allScalar(v) {
			parts := make([]string, v.Len())
			for i := range parts {
				parts[i], _ = scalarText(v.Index(i))
			}
			b.WriteString(" [" + strings.Join(parts, ", ") + "]")
			return
		}
		for i := 0; i < v.Len(); i++ {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat("  ", indent+1))
			b.WriteString("-")
			writeValue(b, v.Index(i), indent+1)
		}
	case reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		parts := make([]string, len(keys))
		for i, k := range keys {
			vs, _ := scalarText(v.MapIndex(k))
			ks, _ := scalarText(k)
			parts[i] = ks + "=" + vs
		}
		b.WriteString(" {" + strings.Join(parts, ", ") + "}")
	case reflect.Struct:
		writeFields(b, v, indent+1)
	default:
		fmt.Fprintf(b, " %v", v.Interface())
	}
}

func allScalar(v reflect.Value) bool {
	for i := 0; i < v.Len(); i++ {
		if _, ok := scalarText(v.Index(i)); !ok {
			return false
		}
	}
	return true
}

// scalarText renders values that fit on one line.
func scalarText(v reflect.Value) (string, bool) {
	if !v.IsValid() {
		return "nil", true
	}
	if v.CanInterface() {
		switch x := v.Interface().(type) {
		case Plan:
			return "", false
		case schema.DataType:
			return x.String(), true
		case Value:
			return x.text(), true
		case Column:
			return schema.QuoteIdentifier(x.Name) + " " + x.Type.String(), true
		case Param:
			return x.text(), true
		case schema.TablePath:
			return x.String(), true
		case Table:
			return fmt.Sprintf("%s (id %d, schema %d)", x.Path, x.TableID, x.SchemaID), true
		case OffsetSpec:
			return x.text(), true
		case Predicate:
			return x.text(), true
		case Assignment:
			return x.Column + " = " + x.Value.text(), true
		case SortKey:
			s := fmt.Sprintf("%s (#%d)", x.Name, x.Column)
			if x.Desc {
				s += " DESC"
			}
			return s, true
		case fmt.Stringer:
			if v.Kind() != reflect.Struct && v.Kind() != reflect.Pointer {
				return x.String(), true
			}
		}
	}
	switch v.Kind() {
	case reflect.String:
		return strconv.Quote(v.String()), true
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return fmt.Sprint(v.Interface()), true
	case reflect.Pointer:
		if v.IsNil() {
			return "nil", true
		}
		if v.Elem().Kind() != reflect.Struct {
			return scalarText(v.Elem())
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Slice && allScalarNested(v) {
			parts := make([]string, v.Len())
			for i := range parts {
				inner := v.Index(i)
				ps := make([]string, inner.Len())
				for j := range ps {
					ps[j], _ = scalarText(inner.Index(j))
				}
				parts[i] = "(" + strings.Join(ps, ", ") + ")"
			}
			return strings.Join(parts, ", "), true
		}
	}
	return "", false
}

func allScalarNested(v reflect.Value) bool {
	for i := 0; i < v.Len(); i++ {
		if !allScalar(v.Index(i)) {
			return false
		}
	}
	return true
}

func (v Value) text() string {
	switch v.Kind {
	case ValueParam:
		return v.Param.text()
	case ValueSession:
		return "session " + v.Session + " :: " + v.Type.String()
	}
	return literalText(v.Literal, v.Type) + " :: " + v.Type.String()
}

func (p *Param) text() string {
	if p == nil {
		return "?"
	}
	s := "?" + strconv.Itoa(p.Index)
	if p.Name != "" {
		s += " :" + p.Name
	}
	if p.Column != "" {
		s += " -> " + p.Column
	}
	return s + " :: " + p.Type.String()
}

// literalText renders a literal Go value in SQL-like syntax.
func literalText(x any, t schema.DataType) string {
	elem := func(i int) schema.DataType {
		switch {
		case t.Root == schema.RootArray && t.Elem != nil:
			return *t.Elem
		case t.Root == schema.RootRow && i < len(t.Fields):
			return t.Fields[i].Type
		}
		return schema.DataType{}
	}
	switch x := x.(type) {
	case nil:
		return "NULL"
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case []byte:
		return "x'" + hex.EncodeToString(x) + "'"
	case codec.Decimal:
		return x.String()
	case codec.Date:
		return "DATE '" + x.String() + "'"
	case codec.Time:
		return "TIME '" + x.String() + "'"
	case codec.TimestampNTZ:
		return "TIMESTAMP '" + x.Time().Format("2006-01-02 15:04:05.999999999") + "'"
	case codec.TimestampLTZ:
		return "TIMESTAMP_LTZ '" + x.Time().Format("2006-01-02 15:04:05.999999999Z07:00") + "'"
	case codec.Map:
		parts := make([]string, len(x.Keys))
		for i := range x.Keys {
			var kt, vt schema.DataType
			if t.Key != nil && t.Value != nil {
				kt, vt = *t.Key, *t.Value
			}
			parts[i] = literalText(x.Keys[i], kt) + ": " + literalText(x.Values[i], vt)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case time.Time:
		switch t.Root {
		case schema.RootDate:
			return "DATE '" + x.Format("2006-01-02") + "'"
		case schema.RootTime:
			return "TIME '" + x.Format("15:04:05.999999999") + "'"
		case schema.RootTimestamp:
			return "TIMESTAMP '" + x.Format("2006-01-02 15:04:05.999999999") + "'"
		}
		return "TIMESTAMP_LTZ '" + x.Format("2006-01-02 15:04:05.999999999 Z07:00") + "'"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = literalText(e, elem(i))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(x)
}

func (o OffsetSpec) text() string {
	switch o.Kind {
	case OffsetTimestamp:
		if o.TimestampValue != nil {
			return "TIMESTAMP " + o.TimestampValue.text()
		}
		return "TIMESTAMP " + strconv.FormatInt(o.Timestamp, 10)
	case OffsetExplicit:
		keys := make([]int, 0, len(o.Offsets))
		for k := range o.Offsets {
			keys = append(keys, int(k))
		}
		sort.Ints(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%d:%d", k, o.Offsets[int32(k)])
		}
		return "EXPLICIT " + strings.Join(parts, ",")
	}
	return o.Kind.String()
}

// text renders a predicate in SQL-like syntax.
func (p Predicate) text() string {
	col := schema.QuoteIdentifier(p.Column)
	vals := func() string {
		parts := make([]string, len(p.Values))
		for i, v := range p.Values {
			parts[i] = v.text()
		}
		return strings.Join(parts, ", ")
	}
	switch p.Op {
	case "AND", "OR":
		parts := make([]string, len(p.Args))
		for i, a := range p.Args {
			parts[i] = "(" + a.text() + ")"
		}
		return strings.Join(parts, " "+p.Op+" ")
	case "NOT":
		if len(p.Args) == 1 {
			return "NOT (" + p.Args[0].text() + ")"
		}
	case "IS NULL", "IS NOT NULL":
		return col + " " + p.Op
	case "IN", "NOT IN":
		return col + " " + p.Op + " (" + vals() + ")"
	case "BETWEEN", "NOT BETWEEN":
		if len(p.Values) == 2 {
			return col + " " + p.Op + " " + p.Values[0].text() + " AND " + p.Values[1].text()
		}
	}
	return col + " " + p.Op + " " + vals()
}

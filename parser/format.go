package parser

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Dump renders a statement (or any AST node) as an indented, deterministic
// tree of its non-zero fields. It is meant for golden tests, debugging and
// EXPLAIN output. Meta fields other than the placeholders are omitted.
func Dump(node any) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(node), 0)
	b.WriteByte('\n')
	return b.String()
}

func dumpValue(b *strings.Builder, v reflect.Value, indent int) {
	pad := strings.Repeat("  ", indent)
	switch v.Kind() {
	case reflect.Invalid:
		b.WriteString("nil")
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		dumpValue(b, v.Elem(), indent)
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if v.Elem().Kind() == reflect.String {
			b.WriteString(strconv.Quote(v.Elem().String()))
			return
		}
		dumpValue(b, v.Elem(), indent)
	case reflect.Struct:
		t := v.Type()
		if t == reflect.TypeOf(DataType{}) {
			d := v.Interface().(DataType)
			dt := &d
			b.WriteString("DataType(" + dt.String())
			if dt.Raw != "" && dt.Raw != dt.String() {
				b.WriteString(" from " + strconv.Quote(dt.Raw))
			}
			b.WriteString(")")
			return
		}
		if t == reflect.TypeOf(Pos{}) {
			p := v.Interface().(Pos)
			b.WriteString(p.String())
			return
		}
		b.WriteString(t.Name())
		b.WriteString("{")
		wrote := false
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			fv := v.Field(i)
			if f.Name == "Meta" {
				m := fv.Interface().(Meta)
				if len(m.Params) > 0 {
					b.WriteString("\n" + pad + "  Params: ")
					var ps []string
					for _, ph := range m.Params {
						s := strconv.Itoa(ph.Index)
						if ph.Name != "" {
							s = ":" + ph.Name + "=" + s
						}
						ps = append(ps, s+"@"+ph.Pos.String())
					}
					b.WriteString("[" + strings.Join(ps, " ") + "]")
					wrote = true
				}
				continue
			}
			_, isStringer := fv.Interface().(fmt.Stringer)
			alwaysShow := (f.Name == "Kind" || f.Name == "Action") && isStringer
			if f.Name == "Pos" || f.Name == "Raw" || fv.IsZero() && !alwaysShow {
				continue
			}
			b.WriteString("\n" + pad + "  " + f.Name + ": ")
			dumpValue(b, fv, indent+1)
			wrote = true
		}
		if wrote {
			b.WriteString("\n" + pad)
		}
		b.WriteString("}")
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			fmt.Fprintf(b, "x'%X'", v.Bytes())
			return
		}
		if v.Type().Elem().Kind() == reflect.String {
			var ss []string
			for i := 0; i < v.Len(); i++ {
				ss = append(ss, strconv.Quote(v.Index(i).String()))
			}
			b.WriteString("[" + strings.Join(ss, ", ") + "]")
			return
		}
		b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			b.WriteString("\n" + pad + "  ")
			dumpValue(b, v.Index(i), indent+1)
		}
		b.WriteString("\n" + pad + "]")
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Int:
		if s, ok := v.Interface().(fmt.Stringer); ok && v.Type().Name() != "int" {
			b.WriteString(s.String())
			return
		}
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	default:
		fmt.Fprint(b, v.Interface())
	}
}

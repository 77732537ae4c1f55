package typeconv

import (
	"reflect"
	"strings"
	"sync"
)

// structField is one Go struct field bound to a ROW field name.
type structField struct {
	name   string // ROW field name it binds to (db tag or Go name)
	goName string
	index  []int
}

var structCache sync.Map // reflect.Type -> []structField

// structFields lists the fields of a struct type the way sqlx binds them:
// the `db:"name"` tag names the field (`db:"-"` skips it), untagged
// exported fields use their Go name (matched case-insensitively later),
// and embedded structs without a tag are flattened, a shallower field
// hiding deeper ones of the same name (two at the same depth hide each
// other, as in Go).
func structFields(rt reflect.Type) []structField {
	if cached, found := structCache.Load(rt); found {
		return cached.([]structField)
	}
	type cand struct {
		f     structField
		depth int
		dup   bool
	}
	byName := map[string]*cand{}
	var order []string
	var walk func(t reflect.Type, prefix []int, depth int, seen map[reflect.Type]bool)
	walk = func(t reflect.Type, prefix []int, depth int, seen map[reflect.Type]bool) {
		if seen[t] {
			return
		}
		seen[t] = true
		defer delete(seen, t)
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("db")
			name, _, _ := strings.Cut(tag, ",")
			if name == "-" {
				continue
			}
			index := append(append([]int(nil), prefix...), i)
			if f.Anonymous && name == "" {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft, index, depth+1, seen)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			key := strings.ToLower(name)
			c, exists := byName[key]
			switch {
			case !exists:
				byName[key] = &cand{f: structField{name: name, goName: f.Name, index: index}, depth: depth}
				order = append(order, key)
			case depth < c.depth:
				*c = cand{f: structField{name: name, goName: f.Name, index: index}, depth: depth}
			case depth == c.depth:
				c.dup = true
			}
		}
	}
	walk(rt, nil, 0, map[reflect.Type]bool{})
	var out []structField
	for _, k := range order {
		if c := byName[k]; !c.dup {
			out = append(out, c.f)
		}
	}
	structCache.Store(rt, out)
	return out
}

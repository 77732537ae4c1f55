package engine

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strings"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/planner"
)

// rowFilter is a compiled planner.Predicate list (AND-ed), evaluated on
// rows of codec values in the shape of the row the planner resolved the
// predicates against (table columns, or the $changelog columns).
//
// Evaluation follows SQL's three-valued logic: a comparison with NULL is
// UNKNOWN, NOT UNKNOWN is UNKNOWN, and a row passes only when the whole
// condition is TRUE. That is what makes "WHERE x <> 1" drop rows whose x
// is NULL, as every SQL engine does.
type rowFilter struct {
	preds []compiledPred
}

// tri is a three-valued truth value.
type tri int8

const (
	triFalse tri = iota
	triTrue
	triUnknown
)

func triOf(b bool) tri {
	if b {
		return triTrue
	}
	return triFalse
}

func (t tri) not() tri {
	switch t {
	case triTrue:
		return triFalse
	case triFalse:
		return triTrue
	}
	return triUnknown
}

// compiledPred is one predicate with its column resolved to a row index
// and its values bound.
type compiledPred struct {
	op     string
	col    int
	values []any
	like   *regexp.Regexp
	args   []compiledPred
}

// compileFilter binds and resolves preds against a row whose column names
// are names. An empty list gives a nil filter, which passes every row.
func compileFilter(preds []planner.Predicate, names []string, b *binder) (*rowFilter, error) {
	if len(preds) == 0 {
		return nil, nil
	}
	f := &rowFilter{}
	for _, p := range preds {
		cp, err := compilePred(p, names, b)
		if err != nil {
			return nil, err
		}
		f.preds = append(f.preds, cp)
	}
	return f, nil
}

func compilePred(p planner.Predicate, names []string, b *binder) (compiledPred, error) {
	cp := compiledPred{op: strings.ToUpper(p.Op), col: -1}
	if cp.op == "!=" {
		cp.op = "<>"
	}
	switch cp.op {
	case "AND", "OR", "NOT":
		for _, a := range p.Args {
			ca, err := compilePred(a, names, b)
			if err != nil {
				return cp, err
			}
			cp.args = append(cp.args, ca)
		}
		if cp.op == "NOT" && len(cp.args) != 1 {
			return cp, fmt.Errorf("fluss: NOT takes one operand, got %d", len(cp.args))
		}
		return cp, nil
	}
	for i, n := range names {
		if strings.EqualFold(n, p.Column) {
			cp.col = i
			break
		}
	}
	if cp.col < 0 {
		return cp, fmt.Errorf("fluss: predicate on unknown column %q", p.Column)
	}
	vals, err := b.values(p.Values)
	if err != nil {
		return cp, err
	}
	cp.values = vals
	want := map[string]int{"=": 1, "<>": 1, "<": 1, "<=": 1, ">": 1, ">=": 1, "LIKE": 1, "NOT LIKE": 1,
		"BETWEEN": 2, "NOT BETWEEN": 2, "IS NULL": 0, "IS NOT NULL": 0, "IN": -1, "NOT IN": -1}
	n, known := want[cp.op]
	switch {
	case !known:
		return cp, fmt.Errorf("fluss: predicate operator %q is not supported", p.Op)
	case n >= 0 && len(vals) != n:
		return cp, fmt.Errorf("fluss: %s on %q needs %s, got %d", cp.op, p.Column, plural.Count(n, "value"), len(vals))
	}
	if cp.op == "LIKE" || cp.op == "NOT LIKE" {
		pat, ok := vals[0].(string)
		if vals[0] != nil && !ok {
			return cp, fmt.Errorf("fluss: LIKE on %q needs a string pattern, got %T", p.Column, vals[0])
		}
		if ok {
			if cp.like, err = likeRegexp(pat, false); err != nil {
				return cp, err
			}
		}
	}
	return cp, nil
}

// match reports whether row satisfies every predicate. A nil filter
// matches every row.
func (f *rowFilter) match(row []any) (bool, error) {
	if f == nil {
		return true, nil
	}
	for i := range f.preds {
		t, err := f.preds[i].eval(row)
		if err != nil || t != triTrue {
			return false, err
		}
	}
	return true, nil
}

func (p *compiledPred) eval(row []any) (tri, error) {
	switch p.op {
	case "AND":
		out := triTrue
		for i := range p.args {
			t, err := p.args[i].eval(row)
			if err != nil {
				return triFalse, err
			}
			if t == triFalse {
				return triFalse, nil
			}
			if t == triUnknown {
				out = triUnknown
			}
		}
		return out, nil
	case "OR":
		out := triFalse
		for i := range p.args {
			t, err := p.args[i].eval(row)
			if err != nil {
				return triFalse, err
			}
			if t == triTrue {
				return triTrue, nil
			}
			if t == triUnknown {
				out = triUnknown
			}
		}
		return out, nil
	case "NOT":
		t, err := p.args[0].eval(row)
		return t.not(), err
	}
	if p.col >= len(row) {
		return triFalse, fmt.Errorf("fluss: predicate column %d is outside the row (%s)", p.col, plural.Count(len(row), "column"))
	}
	v := row[p.col]
	switch p.op {
	case "IS NULL":
		return triOf(v == nil), nil
	case "IS NOT NULL":
		return triOf(v != nil), nil
	}
	if v == nil {
		return triUnknown, nil
	}
	switch p.op {
	case "LIKE", "NOT LIKE":
		if p.like == nil {
			return triUnknown, nil
		}
		s, ok := v.(string)
		if !ok {
			return triFalse, fmt.Errorf("fluss: LIKE needs a string column, got %T", v)
		}
		return triOf(p.like.MatchString(s) == (p.op == "LIKE")), nil
	case "IN", "NOT IN":
		// x IN (a, NULL) is TRUE when x = a and UNKNOWN otherwise.
		out := triFalse
		for _, w := range p.values {
			if w == nil {
				out = triUnknown
				continue
			}
			c, err := compareValues(v, w)
			if err != nil {
				return triFalse, err
			}
			if c == 0 {
				out = triTrue
				break
			}
		}
		if p.op == "NOT IN" {
			out = out.not()
		}
		return out, nil
	case "BETWEEN", "NOT BETWEEN":
		lo, hi := p.values[0], p.values[1]
		if lo == nil || hi == nil {
			return triUnknown, nil
		}
		a, err := compareValues(v, lo)
		if err != nil {
			return triFalse, err
		}
		b, err := compareValues(v, hi)
		if err != nil {
			return triFalse, err
		}
		in := a >= 0 && b <= 0
		return triOf(in == (p.op == "BETWEEN")), nil
	}
	w := p.values[0]
	if w == nil {
		return triUnknown, nil
	}
	c, err := compareValues(v, w)
	if err != nil {
		return triFalse, err
	}
	if holds, ok := planner.CompareHolds(p.op, c); ok {
		return triOf(holds), nil
	}
	return triFalse, fmt.Errorf("fluss: predicate operator %q is not supported", p.op)
}

// compareValues orders two non-NULL codec values: negative when a < b,
// zero when equal, positive when a > b. Integers of any width compare by
// value with each other and with floats; decimals compare exactly (also
// across scales and with integers); timestamps compare at nanosecond
// precision. Values of unrelated kinds are an error, not "unequal",
// because that would be a planner bug worth seeing.
func compareValues(a, b any) (int, error) {
	if ai, ok := codec.AsInt64(a); ok {
		if bi, ok := codec.AsInt64(b); ok {
			return cmp.Compare(ai, bi), nil
		}
		if bf, ok := asFloat(b); ok {
			return compareFloat(float64(ai), bf), nil
		}
		if bd, ok := b.(codec.Decimal); ok {
			return ratOfInt(ai).Cmp(ratOfDecimal(bd)), nil
		}
	}
	if af, ok := asFloat(a); ok {
		if bf, ok := asFloat(b); ok {
			return compareFloat(af, bf), nil
		}
		if bi, ok := codec.AsInt64(b); ok {
			return compareFloat(af, float64(bi)), nil
		}
		if bd, ok := b.(codec.Decimal); ok {
			if math.IsNaN(af) || math.IsInf(af, 0) {
				return compareFloat(af, 0), nil
			}
			return new(big.Rat).SetFloat64(af).Cmp(ratOfDecimal(bd)), nil
		}
	}
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), nil
		}
	case []byte:
		if y, ok := b.([]byte); ok {
			return bytes.Compare(x, y), nil
		}
	case bool:
		if y, ok := b.(bool); ok {
			return cmp.Compare(boolInt(x), boolInt(y)), nil
		}
	case codec.Decimal:
		switch y := b.(type) {
		case codec.Decimal:
			if x.Scale() == y.Scale() {
				if xs, ok := x.UnscaledInt64(); ok {
					if ys, ok := y.UnscaledInt64(); ok {
						return cmp.Compare(xs, ys), nil
					}
				}
			}
			return ratOfDecimal(x).Cmp(ratOfDecimal(y)), nil
		default:
			c, err := compareValues(b, a)
			return -c, err
		}
	case codec.Date:
		if y, ok := b.(codec.Date); ok {
			return cmp.Compare(x, y), nil
		}
	case codec.Time:
		if y, ok := b.(codec.Time); ok {
			return cmp.Compare(x, y), nil
		}
	case codec.TimestampNTZ:
		if y, ok := b.(codec.TimestampNTZ); ok {
			return compareTS(x.Millis, x.NanoOfMilli, y.Millis, y.NanoOfMilli), nil
		}
	case codec.TimestampLTZ:
		if y, ok := b.(codec.TimestampLTZ); ok {
			return compareTS(x.Millis, x.NanoOfMilli, y.Millis, y.NanoOfMilli), nil
		}
	case []any:
		// ARRAY and ROW: element by element, then by length; NULL sorts
		// first so that equality of rows with NULL fields is decidable.
		if y, ok := b.([]any); ok {
			for i := 0; i < len(x) && i < len(y); i++ {
				if c, err := compareNullable(x[i], y[i]); err != nil || c != 0 {
					return c, err
				}
			}
			return cmp.Compare(len(x), len(y)), nil
		}
	case codec.Map:
		if y, ok := b.(codec.Map); ok {
			if c, err := compareValues(x.Keys, y.Keys); err != nil || c != 0 {
				return c, err
			}
			return compareValues(x.Values, y.Values)
		}
	}
	return 0, fmt.Errorf("fluss: cannot compare %T with %T", a, b)
}

func compareNullable(a, b any) (int, error) {
	switch {
	case a == nil && b == nil:
		return 0, nil
	case a == nil:
		return -1, nil
	case b == nil:
		return 1, nil
	}
	return compareValues(a, b)
}

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float32:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// compareFloat orders floats with NaN above +Inf, as Flink and Java's
// Double.compare do, so that comparisons are total.
func compareFloat(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	return cmp.Compare(a, b)
}

func compareTS(am int64, an int32, bm int64, bn int32) int {
	if c := cmp.Compare(am, bm); c != 0 {
		return c
	}
	return cmp.Compare(an, bn)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func ratOfInt(i int64) *big.Rat { return new(big.Rat).SetInt64(i) }

func ratOfDecimal(d codec.Decimal) *big.Rat {
	r := new(big.Rat).SetInt(d.Unscaled())
	if s := d.Scale(); s > 0 {
		r.Quo(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s)), nil)))
	}
	return r
}

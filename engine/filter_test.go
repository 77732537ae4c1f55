package engine

import (
	"math"
	"math/big"
	"testing"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/internal/testkit"
	"github.com/gofluss/fluss/planner"
)

func lit(v any) planner.Value { return planner.Value{Kind: planner.ValueLiteral, Literal: v} }

func cmpPred(op, col string, vals ...any) planner.Predicate {
	p := planner.Predicate{Op: op, Column: col}
	for _, v := range vals {
		p.Values = append(p.Values, lit(v))
	}
	return p
}

func TestCompareValues(t *testing.T) {
	big38, _ := new(big.Int).SetString("12345678901234567890123456789012345678", 10)
	huge, err := codec.NewDecimalBig(big38, 38, 2)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		a, b any
		want int
	}{
		{"int8<int8", int8(-3), int8(4), -1},
		{"int16=int64", int16(7), int64(7), 0},
		{"int32>int64", int32(1 << 30), int64(5), 1},
		{"float32<float64", float32(1.5), 2.5, -1},
		{"int=float", int64(2), 2.0, 0},
		{"NaN above +Inf", math.NaN(), math.Inf(1), 1},
		{"string", "abc", "abd", -1},
		{"string utf8", "é", "z", 1},
		{"bytes", []byte{1, 2}, []byte{1, 2, 0}, -1},
		{"bool", false, true, -1},
		{"decimal same scale", testkit.Decimal(t, "1.25", 5, 2), testkit.Decimal(t, "1.30", 5, 2), -1},
		{"decimal other scale", testkit.Decimal(t, "1.5", 5, 1), testkit.Decimal(t, "1.50", 5, 2), 0},
		{"decimal big", huge, testkit.Decimal(t, "1.00", 38, 2), 1},
		{"decimal vs int", testkit.Decimal(t, "2.00", 5, 2), int64(2), 0},
		{"int vs decimal", int32(3), testkit.Decimal(t, "2.99", 5, 2), 1},
		{"float vs decimal", 0.1, testkit.Decimal(t, "0.1", 5, 1), 1}, // 0.1 as a double is 0.1000000000000000055...
		{"date", codec.Date(19000), codec.Date(19001), -1},
		{"time", codec.Time(1000), codec.Time(1000), 0},
		{"ntz nanos", codec.TimestampNTZ{Millis: 5, NanoOfMilli: 2}, codec.TimestampNTZ{Millis: 5, NanoOfMilli: 1}, 1},
		{"ltz millis", codec.TimestampLTZ{Millis: 4, NanoOfMilli: 999999}, codec.TimestampLTZ{Millis: 5}, -1},
		{"array", []any{int32(1), nil}, []any{int32(1), int32(0)}, -1},
		{"array length", []any{int32(1)}, []any{int32(1), int32(2)}, -1},
		{"map", codec.Map{Keys: []any{"a"}, Values: []any{int64(1)}}, codec.Map{Keys: []any{"a"}, Values: []any{int64(1)}}, 0},
	}
	for _, c := range cases {
		got, err := compareValues(c.a, c.b)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if sign(got) != c.want {
			t.Errorf("%s: compare(%v, %v) = %d, want %d", c.name, c.a, c.b, got, c.want)
		}
	}
	if _, err := compareValues("1", int64(1)); err == nil {
		t.Error("a string compared with an integer without error")
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

func TestRowFilter(t *testing.T) {
	names := []string{"id", "name", "amount", "ts", "tags"}
	row := []any{int32(7), "alice", testkit.Decimal(t, "10.50", 10, 2), codec.TimestampLTZ{Millis: 1000}, nil}
	and := func(ps ...planner.Predicate) planner.Predicate { return planner.Predicate{Op: "AND", Args: ps} }
	or := func(ps ...planner.Predicate) planner.Predicate { return planner.Predicate{Op: "OR", Args: ps} }
	not := func(p planner.Predicate) planner.Predicate {
		return planner.Predicate{Op: "NOT", Args: []planner.Predicate{p}}
	}
	cases := []struct {
		name string
		p    planner.Predicate
		want bool
	}{
		{"=", cmpPred("=", "id", int32(7)), true},
		{"= other", cmpPred("=", "id", int32(8)), false},
		{"<>", cmpPred("<>", "id", int32(8)), true},
		{"!=", cmpPred("!=", "id", int32(7)), false},
		{"<", cmpPred("<", "id", int32(8)), true},
		{"<=", cmpPred("<=", "id", int32(7)), true},
		{">", cmpPred(">", "id", int32(7)), false},
		{">=", cmpPred(">=", "amount", testkit.Decimal(t, "10.5", 10, 1)), true},
		{"IN", cmpPred("IN", "name", "bob", "alice"), true},
		{"IN miss", cmpPred("IN", "name", "bob"), false},
		{"NOT IN", cmpPred("NOT IN", "name", "bob"), true},
		{"NOT IN with NULL is unknown", cmpPred("NOT IN", "name", "bob", nil), false},
		{"IN with NULL still finds", cmpPred("IN", "name", nil, "alice"), true},
		{"IS NULL", cmpPred("IS NULL", "tags"), true},
		{"IS NOT NULL", cmpPred("IS NOT NULL", "name"), true},
		{"= NULL column is unknown", cmpPred("=", "tags", "x"), false},
		{"<> NULL column is unknown", cmpPred("<>", "tags", "x"), false},
		{"NOT unknown is unknown", not(cmpPred("=", "tags", "x")), false},
		{"LIKE %", cmpPred("LIKE", "name", "al%"), true},
		{"LIKE _", cmpPred("LIKE", "name", "_lice"), true},
		{"LIKE miss", cmpPred("LIKE", "name", "bo%"), false},
		{"LIKE escaped %", cmpPred("LIKE", "name", `al\%`), false},
		{"NOT LIKE", cmpPred("NOT LIKE", "name", "bo%"), true},
		{"BETWEEN", cmpPred("BETWEEN", "id", int32(1), int32(7)), true},
		{"BETWEEN miss", cmpPred("BETWEEN", "id", int32(8), int32(9)), false},
		{"NOT BETWEEN", cmpPred("NOT BETWEEN", "id", int32(8), int32(9)), true},
		{"timestamp", cmpPred(">", "ts", codec.TimestampLTZ{Millis: 999}), true},
		{"AND", and(cmpPred("=", "id", int32(7)), cmpPred("=", "name", "alice")), true},
		{"AND false", and(cmpPred("=", "id", int32(7)), cmpPred("=", "name", "x")), false},
		{"OR", or(cmpPred("=", "id", int32(1)), cmpPred("=", "name", "alice")), true},
		{"OR unknown or true", or(cmpPred("=", "tags", "x"), cmpPred("=", "id", int32(7))), true},
		{"NOT", not(cmpPred("=", "id", int32(1))), true},
		{"NOT OR unknown", not(or(cmpPred("=", "tags", "x"), cmpPred("=", "id", int32(1)))), false},
	}
	b := &binder{}
	for _, c := range cases {
		f, err := compileFilter([]planner.Predicate{c.p}, names, b)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got, err := f.match(row)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s: match = %v, want %v", c.name, got, c.want)
		}
	}
	if _, err := compileFilter([]planner.Predicate{cmpPred("=", "nope", int32(1))}, names, b); err == nil {
		t.Error("a predicate on an unknown column compiled")
	}
	if f, _ := compileFilter(nil, names, b); f != nil {
		t.Error("an empty predicate list is not the nil filter")
	} else if ok, _ := f.match(row); !ok {
		t.Error("the nil filter rejects a row")
	}
}

func TestScanShape(t *testing.T) {
	tbl := []string{"a", "b", "c"}
	req, names, proj := scanShape(tbl, nil, []int{2, 0}, nil)
	if len(req) != 2 || req[0] != "a" || req[1] != "c" || len(names) != 2 || proj[0] != 1 || proj[1] != 0 {
		t.Fatalf("projection c, a: %v %v %v", req, names, proj)
	}
	req, _, proj = scanShape(tbl, nil, []int{0, 1, 2}, nil)
	if req != nil || proj != nil {
		t.Fatalf("SELECT *: %v %v", req, proj)
	}
	req, names, proj = scanShape(tbl, changelogMeta, []int{1}, []planner.Predicate{cmpPred("=", "b", int32(1))})
	if len(req) != 1 || req[0] != "b" || len(names) != 4 || proj[0] != 1 {
		t.Fatalf("_log_offset filtered on b: %v %v %v", req, names, proj)
	}
	req, names, proj = scanShape(tbl, changelogMeta, []int{1}, nil)
	if len(req) != 1 || req[0] != "a" || len(names) != 4 || proj[0] != 1 {
		t.Fatalf("_log_offset only: %v %v %v", req, names, proj)
	}
}

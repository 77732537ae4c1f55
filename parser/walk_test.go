package parser

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// nodeMarkers are the unexported marker methods of the DML node
// interfaces; every type declaring one of them must be known to Walk and
// CloneSelect.
var nodeMarkers = map[string]bool{"exprNode": true, "tableExpr": true, "selectExpr": true, "selectStatement": true}

// declaredNodeTypes lists, from the package source, every type that
// implements one of the DML node interfaces.
func declaredNodeTypes(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || !nodeMarkers[fd.Name.Name] || fd.Type.Params.NumFields() != 0 {
				continue
			}
			rt := fd.Recv.List[0].Type
			if st, ok := rt.(*ast.StarExpr); ok {
				rt = st.X
			}
			if id, ok := rt.(*ast.Ident); ok {
				seen[id.Name] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// everyNode builds a SELECT that contains at least one node of every DML
// node type, each with all of its child fields set.
func everyNode() SelectStatement {
	col := func(n string) *ColumnRef { return &ColumnRef{Name: n} }
	lit := func(s string) *Literal { return &Literal{Kind: LitInt, Text: s} }
	sub := func(table string) SelectStatement {
		return &Select{
			Exprs: []SelectExpr{&StarExpr{}},
			From:  []TableExpr{&TableRef{Name: TableName{Name: table}}},
		}
	}
	exprs := []Expr{
		&AndExpr{L: col("a"), R: col("b")},
		&OrExpr{L: col("a"), R: col("b")},
		&NotExpr{X: col("a")},
		&CompareExpr{Op: "=", L: col("a"), R: lit("1")},
		&InExpr{X: col("a"), List: []Expr{lit("1"), &Param{Index: 1}}},
		&InExpr{X: &TupleExpr{Exprs: []Expr{col("a"), col("b")}}, Subquery: sub("in_sub")},
		&BetweenExpr{X: col("a"), From: lit("1"), To: lit("2")},
		&IsNullExpr{X: col("a")},
		&IsBoolExpr{X: col("a"), Value: true},
		&LikeExpr{X: col("a"), Pattern: &Literal{Kind: LitString, Text: "x%"}, Escape: &Literal{Kind: LitString, Text: "!"}},
		&Literal{Kind: LitBytes, Bytes: []byte{1, 2}},
		&Variable{Name: "@x"},
		&ArrayExpr{Elems: []Expr{lit("1")}},
		&MapExpr{Keys: []Expr{lit("1")}, Values: []Expr{lit("2")}},
		&RowExpr{Fields: []Expr{lit("1")}},
		&CastExpr{X: col("a"), Type: &DataType{Kind: TypeArray, Elem: &DataType{Kind: TypeInt}}, TypeText: "ARRAY<INT>"},
		&FuncCall{Name: "f", Args: []Expr{col("a")}},
		&FuncCall{Name: "sum", Args: []Expr{col("a")}, Over: &WindowSpec{
			PartitionBy: []Expr{col("p")},
			OrderBy:     []OrderItem{{Expr: col("o"), Desc: true, Nulls: NullsFirst}},
			Frame:       &WindowFrame{Range: true, Start: FrameBound{Kind: BoundPreceding, Offset: lit("2")}, End: FrameBound{Kind: BoundFollowing, Offset: &Param{Index: 1}}},
		}},
		&BinaryExpr{Op: "+", L: col("a"), R: lit("1")},
		&UnaryExpr{Op: "-", X: col("a")},
		&IntervalExpr{Value: &Literal{Kind: LitString, Text: "1"}, Unit: "HOUR"},
		&FloorCeilExpr{Ceil: true, X: col("ts"), Unit: "DAY"},
		&ExtractExpr{Unit: "YEAR", X: col("ts")},
		&CaseExpr{Operand: col("a"), Whens: []When{{Cond: lit("1"), Value: lit("2")}}, Else: lit("3")},
		&SubqueryExpr{Select: sub("scalar_sub")},
		&ExistsExpr{Select: sub("exists_sub")},
		&DefaultExpr{},
		&RawExpr{Kind: "MATCH", Text: "MATCH (a) AGAINST ('x')"},
	}
	sel := make([]SelectExpr, 0, len(exprs)+1)
	sel = append(sel, &StarExpr{Qualifier: "t"})
	for _, e := range exprs {
		sel = append(sel, &AliasedExpr{Expr: e})
	}
	left := &Select{
		Meta:  Meta{Params: []Placeholder{{Index: 1}}},
		With:  []CTE{{Name: "w", Columns: []string{"c"}, Select: sub("with_sub")}},
		Hints: []Hint{{Name: "X", Options: []Option{{Key: "k", Value: "v"}}, Args: []string{"a"}}},
		Exprs: sel,
		From: []TableExpr{
			&JoinExpr{
				Kind:  "LEFT JOIN",
				Left:  &TableRef{Name: TableName{Name: "t"}, Hints: []Hint{{Name: "OPTIONS"}}},
				Right: &TableRef{Name: TableName{Name: "u"}, ForSystemTime: &ForSystemTime{Expr: "t.ts"}},
				On:    &CompareExpr{Op: "=", L: col("a"), R: col("b")},
			},
			&SubqueryTable{Select: sub("from_sub"), Alias: "s"},
			&ParenTable{Exprs: []TableExpr{&TableRef{Name: TableName{Name: "p"}}}},
		},
		Where:   col("w"),
		GroupBy: []Expr{col("g")},
		Having:  col("h"),
		OrderBy: []OrderItem{{Expr: col("o"), Desc: true}},
		Limit:   &Limit{Count: lit("10"), Offset: lit("5")},
	}
	return &Union{With: []CTE{{Name: "uw", Select: sub("union_with")}}, Type: "UNION ALL", Left: left, Right: sub("union_right"), OrderBy: []OrderItem{{Expr: col("uo")}}, Limit: &Limit{Count: lit("1")}}
}

func nodeTypeName(n any) string {
	t := reflect.TypeOf(n)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

func TestWalkVisitsEveryNodeType(t *testing.T) {
	visited := map[string]bool{}
	Walk(everyNode(), func(n any) bool {
		if reflect.TypeOf(n).Kind() != reflect.Pointer {
			t.Errorf("Walk passed %T, not a pointer", n)
		}
		visited[nodeTypeName(n)] = true
		return true
	})
	for _, name := range declaredNodeTypes(t) {
		if !visited[name] {
			t.Errorf("node type %s is never visited: add it to everyNode and to Walk", name)
		}
	}
	for _, name := range []string{"CTE", "OrderItem", "Limit", "When", "WindowSpec", "WindowFrame", "FrameBound"} {
		if !visited[name] {
			t.Errorf("%s is never visited", name)
		}
	}
}

// TestWalkReachesEveryChild checks that Walk descends into every child of
// every node: each ColumnRef and Literal of everyNode is reached.
func TestWalkReachesEveryChild(t *testing.T) {
	root := everyNode()
	want := 0
	countLeaves(reflect.ValueOf(root), &want)
	got := 0
	Walk(root, func(n any) bool {
		switch n.(type) {
		case *ColumnRef, *Literal, *Param, *TableRef:
			got++
		}
		return true
	})
	if got != want {
		t.Errorf("Walk reached %d leaves, the tree holds %d", got, want)
	}
}

// countLeaves counts the *ColumnRef, *Literal, *Param and *TableRef values
// reachable from v by reflection.
func countLeaves(v reflect.Value, n *int) {
	reflectTree(v, func(v reflect.Value) bool {
		if v.Kind() != reflect.Pointer {
			return true
		}
		switch v.Interface().(type) {
		case *ColumnRef, *Literal, *Param, *TableRef:
			*n++
		case *DataType:
			return false
		}
		return true
	})
}

// reflectTree calls f for v and, while f returns true, for every value
// reachable from it through interfaces, non-nil pointers, struct fields
// and slice elements.
func reflectTree(v reflect.Value, f func(reflect.Value) bool) {
	if (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) && v.IsNil() {
		return
	}
	if !f(v) {
		return
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		reflectTree(v.Elem(), f)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			reflectTree(v.Field(i), f)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			reflectTree(v.Index(i), f)
		}
	}
}

func TestWalkSkipsChildren(t *testing.T) {
	n := 0
	Walk(everyNode(), func(node any) bool {
		n++
		_, isUnion := node.(*Union)
		return isUnion
	})
	// The union itself, its WITH query, its two sides, its ORDER BY item
	// and its LIMIT.
	if n != 6 {
		t.Errorf("visited %d nodes, want 6", n)
	}
}

func TestWalkRenamesInPlace(t *testing.T) {
	st, err := Parse("SELECT o.id FROM orders AS o JOIN (SELECT * FROM items) i ON o.id = i.id WHERE o.id IN (SELECT id FROM hot) ORDER BY o.id")
	if err != nil {
		t.Fatal(err)
	}
	Walk(st, func(n any) bool {
		if r, ok := n.(*TableRef); ok {
			r.Name = TableName{Name: "v_" + r.Name.Name}
		}
		return true
	})
	var names []string
	Walk(st, func(n any) bool {
		if r, ok := n.(*TableRef); ok {
			names = append(names, r.Name.Name)
		}
		return true
	})
	want := []string{"v_orders", "v_items", "v_hot"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("tables after rename = %v, want %v", names, want)
	}
}

func TestCloneSelectIsDeep(t *testing.T) {
	orig := everyNode()
	clone := CloneSelect(orig)
	if !reflect.DeepEqual(orig, clone) {
		t.Fatal("the clone differs from the original")
	}
	ptrs := map[uintptr]string{}
	collectPointers(reflect.ValueOf(orig), ptrs)
	shared := map[uintptr]string{}
	collectPointers(reflect.ValueOf(clone), shared)
	for p, what := range shared {
		if _, ok := ptrs[p]; ok {
			t.Errorf("the clone shares a %s with the original", what)
		}
	}
	// Every node type the walker knows is present in everyNode, so a
	// type CloneExpr forgets panics here rather than later.
	Walk(clone, func(n any) bool {
		if r, ok := n.(*TableRef); ok {
			r.Name.Name = "renamed"
		}
		return true
	})
	Walk(orig, func(n any) bool {
		if r, ok := n.(*TableRef); ok && r.Name.Name == "renamed" {
			t.Error("renaming in the clone changed the original")
		}
		return true
	})
}

func TestCloneSelectParsed(t *testing.T) {
	for _, q := range []string{
		"SELECT a, COUNT(*) FROM t WHERE b = ? GROUP BY a HAVING COUNT(*) > 1 ORDER BY a DESC LIMIT 10",
		"SELECT * FROM t /*+ OPTIONS('k'='v') */ UNION ALL SELECT * FROM u",
		"SELECT CAST(a AS DECIMAL(10, 2)), CASE WHEN a THEN 1 ELSE 2 END FROM t",
		"WITH a (x) AS (SELECT b FROM t) SELECT x, ROW_NUMBER() OVER (PARTITION BY x ORDER BY x DESC NULLS FIRST ROWS 2 PRECEDING) FROM a",
		"SELECT FLOOR(ts TO HOUR), EXTRACT(DAY FROM ts), INTERVAL '1' DAY FROM t ORDER BY 1 NULLS LAST",
	} {
		st, err := Parse(q)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(SelectStatement)
		c := CloneSelect(s)
		if !reflect.DeepEqual(s, c) {
			t.Errorf("%s: clone differs", q)
		}
		if Dump(c) != Dump(s) {
			t.Errorf("%s: clone dumps as %s", q, Dump(c))
		}
	}
	if CloneSelect(nil) != nil {
		t.Error("CloneSelect(nil) != nil")
	}
}

// collectPointers records the address of every pointer, non-empty slice
// and map reachable from v.
func collectPointers(v reflect.Value, out map[uintptr]string) {
	reflectTree(v, func(v reflect.Value) bool {
		switch v.Kind() {
		case reflect.Pointer:
			if v.Elem().Type().Size() > 0 {
				out[v.Pointer()] = v.Type().String()
			}
		case reflect.Slice, reflect.Map:
			if v.Len() > 0 {
				out[v.Pointer()] = v.Type().String()
			}
		}
		return true
	})
}

package parser

import (
	"bytes"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofluss/fluss/internal/testkit"
)

func corpusFiles(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files: %v", err)
	}
	return files
}

// TestCorpus parses every corpus script and compares the AST dump with the
// golden file. Run with -update to rewrite the golden files.
func TestCorpus(t *testing.T) {
	total := 0
	for _, f := range corpusFiles(t) {
		name := strings.TrimSuffix(filepath.Base(f), ".sql")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			stmts, err := ParseScript(string(src))
			if err != nil {
				t.Fatalf("ParseScript: %v", err)
			}
			total += len(stmts)
			var b strings.Builder
			for _, st := range stmts {
				b.WriteString("-- " + st.Position().String() + " " + firstLine(st.Text()) + "\n")
				b.WriteString(Dump(st))
				b.WriteString("\n")
				// Each statement must also parse on its own.
				if _, err := Parse(st.Text()); err != nil {
					t.Errorf("Parse(%q): %v", st.Text(), err)
				}
			}
			golden := filepath.Join("testdata", "golden", name+".golden")
			if _, same := testkit.Golden(t, golden, []byte(b.String())); !same {
				t.Errorf("AST dump differs from %s; run go test ./parser -run TestCorpus -update and review the diff", golden)
			}
		})
	}
	if total < 40 {
		t.Errorf("corpus has %d statements, want at least 40", total)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func mustParse(t *testing.T, sql string) Statement {
	t.Helper()
	st, err := Parse(sql)
	if err != nil {
		t.Fatalf("Parse(%q): %v", sql, err)
	}
	return st
}

func TestCreateTableDetails(t *testing.T) {
	st := mustParse(t, "CREATE TABLE IF NOT EXISTS cat.db.t (a INT NOT NULL PRIMARY KEY NOT ENFORCED, b VARCHAR(20), c AS a + 1 COMMENT 'calc', m STRING METADATA FROM 'topic' VIRTUAL, d DATETIME(3) DEFAULT NULL, WATERMARK FOR d AS d) COMMENT 'x' PARTITIONED BY (b) WITH ('bucket.num'='2')")
	ct, ok := st.(*CreateTable)
	if !ok {
		t.Fatalf("got %T", st)
	}
	if !ct.IfNotExists || ct.Name.Catalog != "cat" || ct.Name.Database != "db" || ct.Name.Name != "t" {
		t.Errorf("name: %+v", ct.Name)
	}
	if len(ct.Columns) != 5 {
		t.Fatalf("columns: %d", len(ct.Columns))
	}
	a, b, c, m, d := ct.Columns[0], ct.Columns[1], ct.Columns[2], ct.Columns[3], ct.Columns[4]
	if !a.PrimaryKey || !a.PrimaryKeyNotEnforced || !a.Type.NotNull || a.Type.Kind != TypeInt {
		t.Errorf("a: %+v", a)
	}
	if b.Type.Kind != TypeForeign || b.Type.ForeignName != "VARCHAR" || b.Type.Suggestion() != "STRING" || b.Type.Raw != "VARCHAR(20)" {
		t.Errorf("b: %+v", b.Type)
	}
	if c.Kind != ComputedColumn || c.Expr != "a + 1" || c.Comment == nil || *c.Comment != "calc" {
		t.Errorf("c: %+v", c)
	}
	if m.Kind != MetadataColumn || m.MetadataKey != "topic" || !m.MetadataVirtual {
		t.Errorf("m: %+v", m)
	}
	if d.Type.Suggestion() != "TIMESTAMP(3)" || len(d.MySQL) != 1 || d.MySQL[0] != "DEFAULT NULL" {
		t.Errorf("d: %+v %v", d.Type, d.MySQL)
	}
	if len(ct.Watermarks) != 1 || ct.Watermarks[0].Column != "d" {
		t.Errorf("watermarks: %+v", ct.Watermarks)
	}
	if ct.Comment == nil || *ct.Comment != "x" || len(ct.PartitionBy) != 1 || len(ct.Options) != 1 || ct.Options[0].Value != "2" {
		t.Errorf("table clauses: %+v", ct)
	}
}

func TestParseType(t *testing.T) {
	cases := map[string]string{
		"INT":                                   "INT",
		"INTEGER NOT NULL":                      "INT NOT NULL",
		"DEC":                                   "DECIMAL(10, 0)",
		"NUMERIC(5)":                            "DECIMAL(5, 0)",
		"DECIMAL(15, 2)":                        "DECIMAL(15, 2)",
		"DOUBLE PRECISION":                      "DOUBLE",
		"CHAR":                                  "CHAR(1)",
		"BINARY(16)":                            "BINARY(16)",
		"VARCHAR":                               "STRING",
		"VARBINARY":                             "BYTES",
		"VARCHAR(2147483647)":                   "STRING",
		"TIME":                                  "TIME(0)",
		"TIME(3) WITHOUT TIME ZONE":             "TIME(3)",
		"TIMESTAMP":                             "TIMESTAMP(6)",
		"TIMESTAMP(3) WITHOUT TIME ZONE":        "TIMESTAMP(3)",
		"TIMESTAMP(3) WITH LOCAL TIME ZONE":     "TIMESTAMP_LTZ(3)",
		"TIMESTAMP WITH LOCAL TIME ZONE":        "TIMESTAMP_LTZ(6)",
		"TIMESTAMP_LTZ(9)":                      "TIMESTAMP_LTZ(9)",
		"MAP<STRING, ARRAY<INT>>":               "MAP<STRING, ARRAY<INT>>",
		"ARRAY<ARRAY<MAP<INT,INT NOT NULL>>>":   "ARRAY<ARRAY<MAP<INT, INT NOT NULL>>>",
		"ROW<a INT, b STRING 'the b'>":          "ROW<a INT, b STRING 'the b'>",
		"ROW(a INT NOT NULL, `b c` BOOLEAN)":    "ROW<a INT NOT NULL, `b c` BOOLEAN>",
		"INT ARRAY":                             "ARRAY<INT>",
		"INT NOT NULL ARRAY NOT NULL":           "ARRAY<INT NOT NULL> NOT NULL",
		"STRING NULL":                           "STRING",
		"TEXT":                                  "TEXT",
		"TIMESTAMP(3) WITH TIME ZONE":           "TIMESTAMP(3) WITH TIME ZONE",
		"INTERVAL DAY(2) TO SECOND(3)":          "INTERVAL DAY(2) TO SECOND(3)",
		"MULTISET<INT>":                         "MULTISET<INT>",
		"ROW<>":                                 "ROW<>",
		"map<string, row<x double, y double>>":  "MAP<STRING, ROW<x DOUBLE, y DOUBLE>>",
		"ARRAY<ROW<k STRING, v ARRAY<BIGINT>>>": "ARRAY<ROW<k STRING, v ARRAY<BIGINT>>>",
		"DECIMAL(38,18) NOT NULL":               "DECIMAL(38, 18) NOT NULL",
		"BYTES":                                 "BYTES",
		"TINYINT":                               "TINYINT",
		"SMALLINT":                              "SMALLINT",
		"FLOAT":                                 "FLOAT",
		"DATE":                                  "DATE",
		"BOOLEAN":                               "BOOLEAN",
		"STRING":                                "STRING",
		"BIGINT":                                "BIGINT",
		"TIMESTAMP(0)":                          "TIMESTAMP(0)",
	}
	for in, want := range cases {
		dt, err := ParseType(in)
		if err != nil {
			t.Errorf("ParseType(%q): %v", in, err)
			continue
		}
		if got := dt.String(); got != want {
			t.Errorf("ParseType(%q).String() = %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"", "ARRAY<INT", "MAP<INT>", "DECIMAL(", "ROW<a>", "INT INT", "TIME WITHOUT ZONE", "CHAR(x)", "<INT>"} {
		if _, err := ParseType(bad); err == nil {
			t.Errorf("ParseType(%q): want error", bad)
		} else {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Errorf("ParseType(%q): error %T is not *Error", bad, err)
			}
		}
	}
}

func TestSelectConversion(t *testing.T) {
	st := mustParse(t, "SELECT /*+ OPTIONS('a'='b') */ DISTINCT k, v AS x, COUNT(*) FROM db.t$changelog /*+ OPTIONS('scan.startup.mode'='earliest') */ AS o WHERE k = ? AND (v <> 'it''s' OR v IS NULL) AND w IN (1, 2) AND ts > TIMESTAMP '2024-01-01 00:00:00' AND NOT z LIKE 'a%' LIMIT 10 OFFSET 5")
	s, ok := st.(*Select)
	if !ok {
		t.Fatalf("got %T", st)
	}
	if len(s.Hints) != 1 || s.Hints[0].Name != "OPTIONS" || s.Hints[0].Options[0].Key != "a" {
		t.Errorf("statement hints: %+v", s.Hints)
	}
	tr, ok := s.SingleTable()
	if !ok || tr.Name.Database != "db" || tr.Name.Name != "t" || tr.Name.Virtual != VirtualChangelog || tr.Alias != "o" {
		t.Fatalf("table: %+v", tr)
	}
	if len(tr.Hints) != 1 || tr.Hints[0].Options[0].Value != "earliest" {
		t.Errorf("table hints: %+v", tr.Hints)
	}
	if !s.Distinct || len(s.Exprs) != 3 {
		t.Errorf("exprs: %+v", s.Exprs)
	}
	if f, ok := s.Exprs[2].(*AliasedExpr).Expr.(*FuncCall); !ok || !f.Star {
		t.Errorf("COUNT(*): %+v", s.Exprs[2])
	}
	dump := Dump(s.Where)
	for _, want := range []string{"Param{\n", "Index: 1", "\"it's\"", "IsNullExpr", "InExpr", "TIMESTAMP", "LikeExpr"} {
		if !strings.Contains(dump, want) {
			t.Errorf("WHERE dump lacks %q:\n%s", want, dump)
		}
	}
	if s.Limit == nil || s.Limit.Count.(*Literal).Text != "10" || s.Limit.Offset.(*Literal).Text != "5" {
		t.Errorf("limit: %+v", s.Limit)
	}
	if st.NumParams() != 1 {
		t.Errorf("NumParams = %d", st.NumParams())
	}
}

func TestWriteConversion(t *testing.T) {
	st := mustParse(t, "UPSERT INTO fluss_catalog.db.t (k, `key`, a) VALUES ($1, -5, ARRAY[1, 2]), ($2, 1.5e3, CAST('1.20' AS DECIMAL(10, 2)))")
	ins := st.(*Insert)
	if ins.Action != ActionUpsert || ins.Table.Name.Catalog != "fluss_catalog" || ins.Table.Name.Database != "db" {
		t.Errorf("insert: %+v", ins)
	}
	if len(ins.Columns) != 3 || ins.Columns[1] != "key" || len(ins.Rows) != 2 {
		t.Fatalf("columns/rows: %+v %+v", ins.Columns, ins.Rows)
	}
	if l := ins.Rows[0][1].(*Literal); l.Kind != LitInt || l.Text != "-5" {
		t.Errorf("negative literal: %+v", l)
	}
	if _, ok := ins.Rows[0][2].(*ArrayExpr); !ok {
		t.Errorf("array: %T", ins.Rows[0][2])
	}
	if l := ins.Rows[1][1].(*Literal); l.Kind != LitFloat {
		t.Errorf("float: %+v", l)
	}
	if c := ins.Rows[1][2].(*CastExpr); c.Type.Kind != TypeDecimal || c.Type.Scale != 2 {
		t.Errorf("cast: %+v", c)
	}
	if st.NumParams() != 2 || ins.Rows[1][0].(*Param).Index != 2 {
		t.Errorf("params: %d", st.NumParams())
	}

	up := mustParse(t, "UPDATE t SET v = :v WHERE key = :k AND k2 = :k").(*Update)
	if up.NumParams() != 2 || up.Set[0].Column.Name != "v" || up.Where.(*AndExpr).L.(*CompareExpr).L.(*ColumnRef).Name != "key" {
		t.Errorf("update: %s", Dump(up))
	}
	del := mustParse(t, "DELETE FROM t WHERE (a, b) IN ((1, 2), (3, 4)) LIMIT 1").(*Delete)
	if in, ok := del.Where.(*InExpr); !ok || len(in.List) != 2 {
		t.Errorf("tuple in: %s", Dump(del.Where))
	}
	if del.Limit == nil {
		t.Error("delete limit lost")
	}
	ins2 := mustParse(t, "INSERT IGNORE INTO t VALUES (1) ON DUPLICATE KEY UPDATE v = 2").(*Insert)
	if !ins2.Ignore || len(ins2.OnDuplicate) != 1 {
		t.Errorf("ignore/on dup: %+v", ins2)
	}
	ins3 := mustParse(t, "INSERT OVERWRITE t PARTITION (dt='2024-01-01') SELECT a FROM s").(*Insert)
	if !ins3.Overwrite || ins3.Partition == nil || ins3.Select == nil {
		t.Errorf("overwrite: %s", Dump(ins3))
	}
}

func TestJoinAndSubquery(t *testing.T) {
	s := mustParse(t, "SELECT * FROM a JOIN b ON a.x = b.x, (SELECT 1) AS s").(*Select)
	if _, ok := s.SingleTable(); ok || len(s.From) != 2 {
		t.Fatalf("from: %s", Dump(s.From))
	}
	if _, ok := s.From[0].(*JoinExpr); !ok {
		t.Errorf("join: %T", s.From[0])
	}
	if _, ok := s.From[1].(*SubqueryTable); !ok {
		t.Errorf("subquery: %T", s.From[1])
	}
	one := mustParse(t, "SELECT 1").(*Select)
	if one.From != nil {
		t.Errorf("SELECT 1 has FROM: %s", Dump(one.From))
	}
}

func TestPlaceholders(t *testing.T) {
	cases := []struct {
		sql  string
		want int
	}{
		{"SELECT * FROM t WHERE a = ? AND b = ?", 2},
		{"SELECT * FROM t WHERE a = '?' AND b = ?", 1},
		{"SELECT * FROM t WHERE a = ? -- ?\n AND b = 1", 1},
		{"SELECT * FROM t /* ? */ WHERE `a?` = ?", 1},
		{"SELECT * FROM t$changelog WHERE a = $2 AND b = $1", 2},
		{"SELECT * FROM `t$changelog` WHERE a = 1", 0},
		{"SELECT * FROM t WHERE a = :x AND b = :y AND c = :x", 2},
		{"SELECT * FROM t WHERE a = 'it''s ?' AND b = \"?\"", 0},
		{"SELECT * FROM t /*+ OPTIONS('k'='?') */ WHERE a = ?", 1},
		{"CALL sys.x(?, ?)", 2},
		{"ALTER TABLE t ADD PARTITION (dt = ?)", 1},
		{"SHOW OFFSETS FROM t AT TIMESTAMP ?", 1},
		{"SELECT a::int FROM t", -1},
	}
	for _, c := range cases {
		st, err := Parse(c.sql)
		if c.want < 0 {
			if err == nil {
				t.Errorf("Parse(%q): want error", c.sql)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", c.sql, err)
			continue
		}
		if got := st.NumParams(); got != c.want {
			t.Errorf("NumParams(%q) = %d, want %d", c.sql, got, c.want)
		}
	}
	if _, err := Parse("SELECT * FROM t WHERE a = ? AND b = $1"); err == nil || !strings.Contains(err.Error(), "mix") {
		t.Errorf("mixed styles: %v", err)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		sql        string
		line, col  int
		near, want string
	}{
		{"CREATE TABLE t (\n  a INT,\n  b FOO BAR\n)", 3, 9, "BAR", `expected ")"`},
		{"SELECT * FROM t WHERE", 1, 22, "", "unexpected end"},
		{"SELECT *\nFROM t\nWHERE a = = 1", 3, 11, "=", ""},
		{"CREATE TABLE t (a INT) WITH ('k' 'v')", 1, 34, "'v'", `expected "="`},
		{"DROP VIEWS v", 1, 6, "VIEWS", "expected TABLE or DATABASE"},
		{"SELECT 'abc", 1, 8, "'", "unterminated string"},
		{"FOO BAR", 1, 1, "FOO", "expected a statement keyword"},
		{"ALTER TABLE t ADD PARTITION (dt)", 1, 32, ")", `expected "="`},
		{"CREATE TABLE t (a MAP<INT>)", 1, 26, ">", `expected ","`},
		{"SELECT a ^ b FROM t", 1, 10, "^", "a || b to concatenate"},
		{"SELECT * FROM t WHERE /*+ OPTIONS('a'='b') */ a = 1", 1, 23, "/*+ OPTIONS('a'='b') */", "hint"},
		{"CREATE TABLE t (a INT, b \"x\")", 1, 26, `"x"`, "data type"},
		{"SELECT 1; SELECT 2", 1, 11, "SELECT", "more than one statement"},
	}
	for _, c := range cases {
		_, err := Parse(c.sql)
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q): error %v (%T) is not *Error", c.sql, err, err)
			continue
		}
		if pe.Line != c.line || pe.Column != c.col || pe.Near != c.near || !strings.Contains(pe.Error(), c.want) {
			t.Errorf("Parse(%q):\n got %d:%d near %q: %s\nwant %d:%d near %q containing %q", c.sql, pe.Line, pe.Column, pe.Near, pe.Error(), c.line, c.col, c.near, c.want)
		}
		if !strings.HasPrefix(pe.Error(), "syntax error at line ") {
			t.Errorf("message form: %s", pe.Error())
		}
	}
	// Errors in a script are reported against the whole script.
	_, err := ParseScript("SELECT 1;\n\nSELECT * FROM t WHERE a = = 2;")
	var pe *Error
	if !errors.As(err, &pe) || pe.Line != 3 || pe.Column != 27 {
		t.Errorf("script error: %v", err)
	}
	want := `syntax error at line 3, column 27 near "=": unexpected token`
	if err == nil || err.Error() != want {
		t.Errorf("message = %v, want %s", err, want)
	}
}

func TestSplit(t *testing.T) {
	script := "-- header\nSELECT 'a;b' FROM t;;\n/* c; */ INSERT INTO t VALUES (1); ; \n SHOW TABLES\n"
	pieces, err := Split(script)
	if err != nil {
		t.Fatal(err)
	}
	if len(pieces) != 3 {
		t.Fatalf("pieces: %+v", pieces)
	}
	if pieces[0].Text != "SELECT 'a;b' FROM t" || pieces[0].Pos.Line != 2 || pieces[0].Pos.Column != 1 {
		t.Errorf("piece 0: %+v", pieces[0])
	}
	if pieces[1].Text != "INSERT INTO t VALUES (1)" || pieces[1].Pos.Column != 10 {
		t.Errorf("piece 1: %+v", pieces[1])
	}
	if pieces[2].Text != "SHOW TABLES" {
		t.Errorf("piece 2: %+v", pieces[2])
	}
	set := "EXECUTE STATEMENT SET BEGIN INSERT INTO a VALUES (1); INSERT INTO b VALUES (2); END; SELECT 1"
	pieces, err = Split(set)
	if err != nil || len(pieces) != 2 {
		t.Fatalf("statement set split: %v %+v", err, pieces)
	}
	stmts, err := ParseScript(set)
	if err != nil {
		t.Fatal(err)
	}
	if ss, ok := stmts[0].(*StatementSet); !ok || len(ss.Statements) != 2 {
		t.Errorf("statement set: %s", Dump(stmts[0]))
	}
}

func TestLexer(t *testing.T) {
	toks, err := Lex("a.`b``c` 'x''y' x'0A' 1.5e-3 .5 ? $12 :name t$changelog @@version MAP<INT,ARRAY<INT>> /*+ OPTIONS('k'='v') */ <= <> != =>")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, tk := range toks {
		kinds = append(kinds, tk.Kind.String()+":"+tk.Value)
	}
	got := strings.Join(kinds, " ")
	want := "word:a operator:. quoted identifier:b`c string:x'y hex string:0A number:1.5e-3 number:.5 placeholder:? placeholder:$12 placeholder::name word:t$changelog word:@@version word:MAP operator:< word:INT operator:, word:ARRAY operator:< word:INT operator:> operator:> hint: OPTIONS('k'='v')  operator:<= operator:<> operator:!= operator:=> end of input:"
	if got != want {
		t.Errorf("tokens:\n got %s\nwant %s", got, want)
	}
	toks, _ = Lex("SELECT\n  é, b")
	if toks[2].Pos.Line != 2 || toks[2].Pos.Column != 4 {
		t.Errorf("position after multibyte: %+v", toks[2].Pos)
	}
	for _, bad := range []string{"'abc", "`abc", "/* x", "/*+ x", "x'0G'", "x'0'", "\"abc", "a \\ b"} {
		if _, err := Lex(bad); err == nil {
			t.Errorf("Lex(%q): want error", bad)
		}
	}
}

func TestStatementsRouting(t *testing.T) {
	cases := map[string]string{
		"SET 'k' = 'v'":    "*parser.Set",
		"SET k.a-b = 10s":  "*parser.Set",
		"SET NAMES utf8":   "*parser.MySQLSet",
		"SET autocommit=0": "*parser.MySQLSet",
		"SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED": "*parser.MySQLSet",
		"START TRANSACTION READ ONLY":                            "*parser.Transaction",
		"TRUNCATE TABLE t":                                       "*parser.Unsupported",
		"RENAME TABLE a TO b":                                    "*parser.Unsupported",
		"CREATE MATERIALIZED TABLE m FRESHNESS = INTERVAL '5' SECOND AS SELECT 1": "*parser.Unsupported",
		"ALTER MATERIALIZED TABLE shop_summary SUSPEND":                           "*parser.Unsupported",
		"CREATE TABLE t AS SELECT * FROM s":                                       "*parser.Unsupported",
		"WITH x AS (SELECT 1) SELECT * FROM x":                                    "*parser.Select",
		"WITH x AS (SELECT 1) SELECT * FROM x UNION SELECT 2":                     "*parser.Union",
		"EXPLAIN t": "*parser.Describe",
		"EXPLAIN ESTIMATED_COST, CHANGELOG_MODE SELECT * FROM t": "*parser.Explain",
		"DESCRIBE SELECT 1":            "*parser.Explain",
		"SHOW CURRENT DATABASE":        "*parser.Show",
		"SHOW WARNINGS":                "*parser.Show",
		"SELECT 1 UNION ALL SELECT 2":  "*parser.Union",
		"DROP TABLE IF EXISTS a, db.b": "*parser.DropTable",
		"ALTER TABLE t RENAME TO u":    "*parser.AlterTable",
		"USE cat.db":                   "*parser.Use",
		"SELECT @@version":             "*parser.Select",
		"SELECT DATABASE()":            "*parser.Select",
		"CREATE TABLE t (id BIGINT NOT NULL AUTO_INCREMENT, name VARCHAR(64) DEFAULT '', PRIMARY KEY (id), KEY idx_name (name)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4": "*parser.CreateTable",
	}
	for sql, want := range cases {
		st, err := Parse(sql)
		if err != nil {
			t.Errorf("Parse(%q): %v", sql, err)
			continue
		}
		if got := typeName(st); got != want {
			t.Errorf("Parse(%q) = %s, want %s", sql, got, want)
		}
	}
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }

// TestNoLogOutput makes sure the embedded MySQL parser never writes to the
// standard logger (it does so only for partially parsed DDL, which is
// never routed to it).
func TestNoLogOutput(t *testing.T) {
	var buf bytes.Buffer
	old := log.Writer()
	log.SetOutput(&buf)
	defer log.SetOutput(old)
	for _, f := range corpusFiles(t) {
		src, _ := os.ReadFile(f)
		_, _ = ParseScript(string(src))
	}
	for _, sql := range []string{
		"CREATE TABLE t (a BIGINT, b STRING, PRIMARY KEY (a) NOT ENFORCED) WITH ('k'='v')",
		"CREATE VIEW v AS SELECT 1", "ALTER TABLE t ADD PARTITION (dt='x')", "SELECT * FROM t WHERE = 1",
		"INSERT INTO t VALUES (", "DROP DATABASE IF EXISTS d CASCADE",
	} {
		_, _ = Parse(sql)
	}
	if buf.Len() != 0 {
		t.Errorf("parser wrote to the log: %q", buf.String())
	}
}

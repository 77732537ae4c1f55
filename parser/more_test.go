package parser

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestNestedSelectHints(t *testing.T) {
	st := mustParse(t, "INSERT INTO t SELECT /*+ OPTIONS('a'='1') */ * FROM s WHERE x IN (SELECT /*+ OPTIONS('b'='2') */ y FROM u)")
	ins := st.(*Insert)
	outer := ins.Select.(*Select)
	inner := outer.Where.(*InExpr).Subquery.(*Select)
	if len(outer.Hints) != 1 || outer.Hints[0].Options[0].Key != "a" || len(inner.Hints) != 1 || inner.Hints[0].Options[0].Key != "b" || len(ins.Hints) != 0 {
		t.Errorf("hints: outer %+v inner %+v insert %+v", outer.Hints, inner.Hints, ins.Hints)
	}
	ins2 := mustParse(t, "INSERT /*+ OPTIONS('x'='y') */ INTO t VALUES (1)").(*Insert)
	if len(ins2.Hints) != 1 {
		t.Errorf("statement hints: %+v", ins2.Hints)
	}
	h := ins2.Hints[0]
	if h.Pos.Line != 1 || h.Pos.Column != 12 || h.Options[0].Pos.Column != 20 {
		t.Errorf("hint positions: %+v", h)
	}
}

// TestAccepted lists statements that must parse (spot checks beyond the corpus).
func TestAccepted(t *testing.T) {
	for _, s := range []string{
		"SELECT * FROM t WHERE a = 1 AND b = 'x\\y'",
		"SELECT `a$b`, c$d FROM `db`.`t$binlog`",
		"SELECT * FROM t1, db.t2 /*+ OPTIONS('x'='y') */ WHERE t1.a = t2.a",
		"SELECT a FROM t WHERE a NOT IN (SELECT b FROM u) AND EXISTS (SELECT 1 FROM v)",
		"SELECT CASE WHEN a > 1 THEN 'x' ELSE 'y' END, -a, a + 1 FROM t GROUP BY a HAVING COUNT(*) > 1 ORDER BY a DESC LIMIT 5, 10",
		"SELECT * FROM t FOR UPDATE",
		"SELECT * FROM t WHERE ts > TIMESTAMP_LTZ '2024-01-01 00:00:00' AND tm = TIME '10:00:00'",
		"SELECT * FROM t WHERE a IS TRUE AND b IS NOT FALSE AND c REGEXP 'x' AND d LIKE 'a!%' ESCAPE '!'",
		"SELECT ROW(1, 'a'), CAST(a AS ARRAY<INT>), TRY_CAST(b AS INT) FROM t",
		"SELECT a FROM t WHERE x = \"dq\"",
		"UPDATE t SET a = a + 1, b = DEFAULT WHERE k = 1 ORDER BY k LIMIT 1",
		"DELETE a FROM a JOIN b ON a.x = b.x",
		"INSERT INTO t SELECT * FROM s UNION SELECT * FROM u",
		"SELECT * FROM (SELECT * FROM t) x",
		"SELECT 1 FROM t WHERE key = 1 AND `index` = 2 AND table = 3",
		"SELECT full, t.full FROM t full WHERE full = 1",
		"SELECT * FROM t WHERE a = N'é'",
		"SELECT * FROM t WHERE ü = 1",
		"CREATE TABLE t (a INT) DISTRIBUTED BY HASH(a) INTO 4 BUCKETS WITH ('x'='y')",
		"CREATE TABLE t2 WITH ('bucket.num'='3') LIKE src (INCLUDING ALL, EXCLUDING OPTIONS)",
		"ALTER TABLE t ADD (c INT FIRST, d STRING AFTER c, PRIMARY KEY (c) NOT ENFORCED)",
		"ALTER TABLE t ADD COLUMN c INT, ADD COLUMN d INT",
		"ALTER TABLE t DROP (a, b)",
		"ALTER TABLE t DROP PRIMARY KEY",
		"ALTER TABLE t ADD PARTITION (dt = '1') PARTITION (dt = '2')",
		"SHOW TABLES IN db NOT LIKE 'x%'",
		"SHOW COLUMNS FROM t FROM db LIKE 'a%'",
		"CALL sys.x(a => ARRAY['k'], b => -1, c => NULL, d => CAST('1' AS INT), e => MAP['a','b'])",
		"SET 'k' = ''",
		"DESCRIBE EXTENDED db.t",
		"EXPLAIN PLAN FOR INSERT INTO t VALUES (?)",
		"CREATE TABLE t (a INT, PRIMARY KEY (a))",
		"create table t (ts timestamp(3), watermark for ts as ts - interval '1' second)",
		"SELECT * FROM t$changelog AS c WHERE c._log_offset > 10",
		"INSERT INTO t (a) VALUES (TIMESTAMP '2024-01-01 00:00:00.123')",
		"SELECT x'0A', 0x0B FROM t",
		"CREATE DATABASE IF NOT EXISTS d DEFAULT CHARACTER SET utf8mb4",
		"CREATE TABLE `t-1` (`my col` STRING COMMENT 'it''s')",
		"SELECT a, RANK() OVER (ORDER BY b NULLS LAST) FROM t ORDER BY a ASC NULLS FIRST, b DESC NULLS LAST",
		"SELECT LAST_VALUE(a) OVER (PARTITION BY b ROWS UNBOUNDED PRECEDING), LEAD(a, 2) OVER (PARTITION BY b, c ORDER BY d ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM t",
		"SELECT AVG(a) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND INTERVAL '30' MINUTE FOLLOWING) FROM t",
		"SELECT CAST(SUM(a) OVER (ORDER BY b) AS BIGINT) FROM t",
		"WITH a AS (SELECT 1 AS x), b AS (SELECT x FROM a) SELECT * FROM b WHERE EXISTS (WITH c AS (SELECT 2) SELECT * FROM c)",
		"SELECT FLOOR(ts TO MINUTE), CEILING(ts TO MONTH), EXTRACT(HOUR FROM ts), SUBSTR(a FROM 2), SUBSTRING(UPPER(a), 1, 2), POSITION(? IN a) FROM t",
		"SELECT a FROM t WHERE ts > NOW() - INTERVAL '1 02:30' DAY(2) TO MINUTE",
		"CREATE TABLE m (id INT(11) UNSIGNED NOT NULL AUTO_INCREMENT, f TINYINT(1) DEFAULT 0, c DATETIME DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, n VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin, e ENUM('a','b'), PRIMARY KEY (id), UNIQUE KEY u (n)) ENGINE=InnoDB AUTO_INCREMENT=5 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
	} {
		if _, err := Parse(s); err != nil {
			t.Errorf("Parse(%q): %v", s, err)
		}
	}
}

func TestRejected(t *testing.T) {
	for s, want := range map[string]string{
		"SELECT * FROM a.b.c.d":                          "at most three parts",
		"SELECT * FROM t WHERE a[1] = 2":                 `near "["`,
		"SET k = ":                                       "expected a value",
		"SET 'k' 'v'":                                    `expected "="`,
		"SELECT b'01' FROM t":                            "bit literals",
		"SELECT * FROM a FULL JOIN b ON a.k = b.k":       "FULL [OUTER] JOIN is not supported",
		"SELECT * FROM a full outer join b ON a.k = b.k": "FULL [OUTER] JOIN is not supported",
		"CREATE TABLE t (a INT, PRIMARY KEY (a) NOT ENFORCED, PRIMARY KEY (a) NOT ENFORCED)": "only one PRIMARY KEY",
		"SELECT * FROM t WHERE a = $0":                                          "between $1",
		"SELECT CAST(a AS) FROM t":                                              "syntax error",
		"CREATE TABLE t (a INT) PARTITION BY (a)":                               "expected COMMENT, PARTITIONED BY",
		"CREATE TABLE t":                                                        "CREATE TABLE needs columns",
		"INSERT INTO t VALUES (MAP['a'])":                                       "even number",
		"SELECT CAST(a AS FOO<) FROM t":                                         "invalid type in CAST",
		"EXECUTE STATEMENT SET BEGIN INSERT INTO a VALUES (1);":                 "unterminated",
		"SELECT ROW_NUMBER() OVER w FROM t WINDOW w AS (ORDER BY a)":            "named windows are not supported",
		"SELECT SUM(a) OVER (ORDER BY b ROWS BETWEEN 1 AND CURRENT ROW) FROM t": "expected PRECEDING or FOLLOWING",
		"SELECT SUM(a) OVER (ROWS 1 PRECEDING b) FROM t":                        `expected ')'`,
		"SELECT CAST(a AS INT) OVER () FROM t":                                  "must follow a function call",
		"SELECT FLOOR(ts TO CENTURY) FROM t":                                    "expected a time unit",
		"WITH RECURSIVE r AS (SELECT 1) SELECT * FROM r":                        "WITH RECURSIVE is not supported",
		"WITH a AS (SELECT 1) WITH b AS (SELECT 2) SELECT 3":                    "a query has one WITH",
		"WITH a AS SELECT 1":                                                    "expected '(' and the query of a",
		"WITH a (x, ) AS (SELECT 1) SELECT * FROM a":                            "expected a column name",
		"WITH a AS (SELECT 1)":                                                  "the query that uses the WITH queries",
		"WITH a AS () SELECT 1":                                                 "expected a query",
		"WITH a AS (INSERT INTO t VALUES (1)) SELECT 1":                         "expected a query (SELECT ...)",
		"WITH a AS (SELECT 1 FROM) SELECT * FROM a":                             "unexpected end of statement",
	} {
		_, err := Parse(s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want error containing %q", s, err, want)
		}
	}
}

func TestFormatExpr(t *testing.T) {
	cases := map[string]string{
		"SELECT * FROM t WHERE k1 > 5 AND (a = 'x' OR b IS NOT NULL)":              "k1 > 5 AND (a = 'x' OR b IS NOT NULL)",
		"SELECT * FROM t WHERE NOT a IN (1, 2) AND d = DATE '2024-01-01'":          "NOT a IN (1, 2) AND d = DATE '2024-01-01'",
		"SELECT * FROM t WHERE (a, b) IN ((1, ?), (2, ?))":                         "(a, b) IN ((1, ?1), (2, ?2))",
		"SELECT * FROM t WHERE `my col` BETWEEN -1 AND 2.5":                        "`my col` BETWEEN -1 AND 2.5",
		"SELECT * FROM t WHERE a || b || 'c' = 'abc' AND n + 1 || 'x' < 'y'":       "CONCAT(CONCAT(a, b), 'c') = 'abc' AND n + CONCAT(1, 'x') < 'y'",
		"SELECT * FROM t WHERE a = (1 + 2) * 3 AND f(x, CAST(y AS INT)) LIKE 'a%'": "a = (1 + 2) * 3 AND f(x, CAST(y AS INT)) LIKE 'a%'",
	}
	for sql, want := range cases {
		s := mustParse(t, sql).(*Select)
		if got := FormatExpr(s.Where); got != want {
			t.Errorf("FormatExpr(%q) = %q, want %q", sql, got, want)
		}
	}
	// Each select-list expression renders as written (canonically).
	for _, want := range []string{
		"ROW_NUMBER() OVER (PARTITION BY a, b ORDER BY c DESC NULLS FIRST, d)",
		"SUM(x) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW)",
		"COUNT(*) OVER ()",
		"LAG(x, 1) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND 2 FOLLOWING)",
		"FLOOR(ts TO HOUR)",
		"CEIL(ts TO DAY)",
		"EXTRACT(YEAR FROM ts)",
		"POSITION('a' IN s)",
		"INTERVAL '10 second'",
		"INTERVAL '1 02:00:00' DAY TO SECOND",
	} {
		s := mustParse(t, "SELECT "+want+" FROM t").(*Select)
		if got := FormatExpr(s.Exprs[0].(*AliasedExpr).Expr); got != want {
			t.Errorf("FormatExpr = %q, want %q", got, want)
		}
	}
}

// TestFlinkFormsAmbiguity checks the forms whose words have another
// meaning nearby.
func TestFlinkFormsAmbiguity(t *testing.T) {
	s := mustParse(t, "SELECT REGEXP(a, 'x'), a REGEXP 'y', a REGEXP ('z'), CEIL(ts + INTERVAL '1' DAY TO MONTH), INTERVAL '1' HOUR TO SECOND FROM t").(*Select)
	var got []string
	for _, e := range s.Exprs {
		got = append(got, fmt.Sprintf("%T %s", e.(*AliasedExpr).Expr, FormatExpr(e.(*AliasedExpr).Expr)))
	}
	want := []string{
		"*parser.FuncCall REGEXP(a, 'x')",
		"*parser.LikeExpr a REGEXP 'y'",
		"*parser.LikeExpr a REGEXP 'z'",
		"*parser.FloorCeilExpr CEIL(ts + INTERVAL '1' DAY TO MONTH)",
		"*parser.IntervalExpr INTERVAL '1' HOUR TO SECOND",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// deepChains are statements nested far beyond maxDepth in every way the
// grammar allows; each used to overflow the goroutine stack somewhere
// between the MySQL parser's converter, formatting and the planner.
func deepChains(n int) map[string]string {
	r := strings.Repeat
	return map[string]string{
		"plus chain":       "SELECT * FROM t WHERE id = 1" + r("+1", n),
		"and chain":        "SELECT * FROM t WHERE a = 1" + r(" AND a = 1", n),
		"or chain":         "DELETE FROM t WHERE a = 1" + r(" OR a = 1", n),
		"concat chain":     "SELECT 'a'" + r(" || 'a'", n) + " FROM t",
		"unary minus":      "SELECT " + r("- ", n) + "1 FROM t",
		"not chain":        "SELECT * FROM t WHERE " + r("NOT ", n) + "a",
		"parentheses":      "SELECT " + r("(", n) + "1" + r(")", n),
		"function calls":   "SELECT " + r("abs(", n) + "1" + r(")", n) + " FROM t",
		"case nesting":     "SELECT " + r("CASE WHEN a = 1 THEN ", n) + "1" + r(" END", n) + " FROM t",
		"array literal":    "INSERT INTO t VALUES (" + r("ARRAY[", n) + r("]", n) + ")",
		"union chain":      "SELECT 1" + r(" UNION SELECT 1", n),
		"join chain":       "SELECT * FROM t" + r(" JOIN t ON a = b", n),
		"nested types":     "CREATE TABLE t (a " + r("ARRAY<", n) + "INT" + r(">", n) + ")",
		"array suffix":     "CREATE TABLE t (a INT" + r(" ARRAY", n) + ")",
		"call arguments":   "CALL sys.p(" + r("ARRAY[", n) + r("]", n) + ")",
		"update set":       "UPDATE t SET a = 1" + r(" * 2", n),
		"hint options":     "SELECT * FROM t /*+ OPTIONS(" + r("(", n) + ") */",
		"insert values":    "INSERT INTO t VALUES (1" + r(" - 1", n) + ")",
		"subquery nesting": "SELECT * FROM t WHERE a IN " + r("(SELECT a FROM t WHERE a IN ", n) + "(1)" + r(")", n),
		"with nesting":     r("WITH a AS (", n) + "SELECT 1" + r(") SELECT * FROM a", n),
		"window nesting":   "SELECT " + r("SUM(", n) + "1" + r(") OVER (ORDER BY a)", n) + " FROM t",
	}
}

func TestDeepNesting(t *testing.T) {
	for name, sql := range deepChains(1_000_000) {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(sql)
			var pe *Error
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), "expression too deeply nested") {
				t.Fatalf("got %v, want a syntax error saying the expression is too deeply nested", err)
			}
			if pe.Line != 1 || pe.Column < 8 || pe.Column > 50_000 {
				t.Errorf("error at line %d, column %d: want the token that went too deep", pe.Line, pe.Column)
			}
		})
	}
	if _, err := ParseType("ROW<a " + strings.Repeat("ARRAY<", 1_000_000)); err == nil || !strings.Contains(err.Error(), "too deeply nested") {
		t.Errorf("ParseType of a deep type: %v", err)
	}
	// Ordinary large statements stay well inside the bound.
	ok := []string{
		"CREATE TABLE t (a " + strings.Repeat("ARRAY<", 100) + "INT" + strings.Repeat(">", 100) + ")",
		"SELECT * FROM t WHERE a = 0" + strings.Repeat(" OR a = 1", 300),
		"SELECT * FROM t WHERE a IN (0" + strings.Repeat(", 1", 100_000) + ")",
		"INSERT INTO t VALUES (-1, 'a')" + strings.Repeat(", (-1, 'a')", 20_000),
		strings.Repeat("WITH a AS (", 100) + "SELECT 1" + strings.Repeat(") SELECT * FROM a", 100),
		"SELECT " + strings.Repeat("SUM(", 20) + "1" + strings.Repeat(") OVER (ORDER BY a)", 20) + " FROM t",
	}
	for _, sql := range ok {
		if _, err := Parse(sql); err != nil {
			t.Errorf("Parse(%.40q...): %v", sql, err)
		}
	}
}

// A derived table written without an alias, as Flink allows, gets one;
// one with an alias keeps it.
func TestDerivedTableAlias(t *testing.T) {
	for sql, want := range map[string][]string{
		"SELECT * FROM (SELECT 1 AS a)":                                              {"EXPR$1"},
		"SELECT a FROM (SELECT 1 AS a) WHERE a = 1":                                  {"EXPR$1"},
		"SELECT * FROM (SELECT 1 AS a) x":                                            {"x"},
		"SELECT * FROM (SELECT 1 AS a) AS `y`":                                       {"y"},
		"SELECT * FROM (SELECT 1 AS a), (WITH w AS (SELECT 2 AS b) SELECT b FROM w)": {"EXPR$1", "EXPR$2"},
	} {
		s := mustParse(t, sql).(*Select)
		var got []string
		for _, f := range s.From {
			if sq, ok := f.(*SubqueryTable); ok {
				got = append(got, sq.Alias)
			}
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: derived table aliases %q, want %q", sql, got, want)
		}
	}
}

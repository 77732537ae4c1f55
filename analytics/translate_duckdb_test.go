//go:build duckdb_arrow

package analytics

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/parser"
)

// duckConn is a connection of the engine's database (its settings
// included) with the tables the translation tests read.
func duckConn(t *testing.T) *sql.Conn {
	t.Helper()
	db, err := (&Engine{}).db(map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	for _, q := range []string{
		`CREATE TEMP TABLE sales (id BIGINT, region VARCHAR, product VARCHAR, qty INTEGER, price DECIMAL(10, 2), ts TIMESTAMP_MS,
			tags VARCHAR[], attrs MAP(VARCHAR, VARCHAR))`,
		`INSERT INTO sales VALUES
			(1, 'eu', 'apple', 3, 1.50, '2024-03-03 10:11:12.345', ['a'], MAP {'k': 'v'}),
			(2, NULL, 'plum', NULL, 2.00, '2024-03-09 23:59:59', [], MAP {}),
			(3, 'us', 'pear', 7, NULL, NULL, NULL, NULL)`,
		`CREATE TEMP TABLE products (product VARCHAR, category VARCHAR)`,
		`INSERT INTO products VALUES ('apple', 'pome'), ('plum', 'drupe')`,
		`CREATE TEMP TABLE nums (k INTEGER, n INTEGER)`,
		`INSERT INTO nums VALUES (1, 1), (2, NULL), (3, 2), (4, NULL)`,
	} {
		if _, err := conn.ExecContext(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return conn
}

// numParams is the highest parameter index of q.
func numParams(q parser.SelectStatement) int {
	n := 0
	parser.Walk(q, func(x any) bool {
		if p, ok := x.(*parser.Param); ok && p.Index > n {
			n = p.Index
		}
		return true
	})
	return n
}

// rowsOf runs q and renders its rows, a row's values separated by "|".
func rowsOf(t *testing.T, conn *sql.Conn, q string, args ...any) ([]string, error) {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			switch x := v.(type) {
			case nil:
				parts[i] = "NULL"
			case time.Time:
				parts[i] = x.UTC().Format("2006-01-02 15:04:05.999999999")
			case []byte:
				parts[i] = string(x)
			default:
				parts[i] = fmt.Sprint(x)
			}
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out, rows.Err()
}

// TestTranslationsRunInDuckDB runs every translation of the golden tests
// that succeeds, as it is and wrapped as Describe wraps it: DuckDB must
// accept what the translator writes.
func TestTranslationsRunInDuckDB(t *testing.T) {
	conn := duckConn(t)
	for _, c := range translateCases(t) {
		st, err := parser.Parse(c.sql)
		if err != nil {
			continue
		}
		q := st.(parser.SelectStatement)
		text, err := translate(q)
		if err != nil {
			continue
		}
		args := make([]any, numParams(q))
		for _, run := range []string{text, "SELECT * FROM (" + text + ") LIMIT 0"} {
			if _, err := rowsOf(t, conn, run, args...); err != nil {
				t.Errorf("%s\n  as %s\n  fails in DuckDB: %v", c.sql, run, err)
			}
		}
	}
}

// TestTranslateSemantics runs Flink expressions and queries in DuckDB and
// checks the answers Flink gives (by its documentation and source), not
// DuckDB's.
func TestTranslateSemantics(t *testing.T) {
	conn := duckConn(t)
	// date_bin counts buckets from the epoch.
	at := time.Date(2024, 1, 1, 0, 3, 0, 0, time.UTC)
	bin := time.Unix(at.Unix()-at.Unix()%420, 0).UTC().Format("2006-01-02 15:04:05")
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"SELECT CONCAT('a', NULL), CONCAT('a', 'b', 'c'), CONCAT_WS('-', 'a', NULL, 'b')", []string{"NULL|abc|a-b"}},
		// Flink's ||: NULL when either side is.
		{"SELECT 'a' || 'b' || 'c', 'a' || NULL, 'n' || CAST(1 + 2 AS STRING) = 'n3'", []string{"abc|NULL|true"}},
		{"SELECT REGEXP_REPLACE('foobar', 'o', 'x'), REGEXP_REPLACE('abc', '(b)', '[$1]'), REGEXP_REPLACE('a.b', '\\.', '\\$')", []string{"fxxbar|a[b]c|a$b"}},
		{"SELECT REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 2), REGEXP_EXTRACT('abc', 'x'), REGEXP_EXTRACT('abc', 'b'), REGEXP('abc', 'b'), 'abc' REGEXP '^b'", []string{"bar|NULL|b|true|false"}},
		{"SELECT SUBSTRING('hello' FROM 2 FOR 3), SUBSTR('hello', 2), CHAR_LENGTH('héllo'), POSITION('c' IN 'abc')", []string{"ell|ello|5|3"}},
		{"SELECT LOCATE('b', 'abcb'), LOCATE('b', 'abcb', 3), LOCATE('x', 'abc', 2), LOCATE('a', 'abc', 1)", []string{"2|4|0|1"}},
		{"SELECT IF(1 > 2, 'a', 'b'), IF(NULL, 'a', 'b'), IFNULL(NULL, 'x'), NVL(NULL, 2), GREATEST(1, NULL, 3), GREATEST(1, 5, 3), LEAST(4, 2)", []string{"b|b|x|2|NULL|5|2"}},
		{"SELECT 7 / 2, -7 / 2, 7.0 / 2, 7 DIV 2, MOD(-7, 3), ROUND(2.5), ROUND(-2.5), LOG(2, 8), LOG(EXP(2))", []string{"3|-3|3.5|3|-1|3|-3|3|2"}},
		{"SELECT DATE_FORMAT(TIMESTAMP '2024-03-05 07:08:09.123', 'yyyy-MM-dd HH:mm:ss.SSS'), DATE_FORMAT(TIMESTAMP '2024-03-05 07:08:09', 'yy/M/d H:m:s'), DATE_FORMAT(TIMESTAMP '2024-03-05 17:08:09', 'EEE MMM dd hh a'), DATE_FORMAT('2024-03-05 17:08:09', 'HH''h''')",
			[]string{"2024-03-05 07:08:09.123|24/3/5 7:8:9|Tue Mar 05 05 PM|17h"}},
		{"SELECT FLOOR(TIMESTAMP '2024-03-06 10:11:12' TO HOUR), FLOOR(TIMESTAMP '2024-03-06 10:11:12' TO WEEK), FLOOR(TIMESTAMP '2024-03-03 00:00:00' TO WEEK), FLOOR(TIMESTAMP '2024-05-06 10:11:12' TO QUARTER), FLOOR(TIMESTAMP '2024-05-06 10:11:12' TO YEAR)",
			[]string{"2024-03-06 10:00:00|2024-03-03 00:00:00|2024-03-03 00:00:00|2024-04-01 00:00:00|2024-01-01 00:00:00"}},
		{"SELECT CEIL(TIMESTAMP '2024-03-06 10:11:12' TO WEEK), CEIL(TIMESTAMP '2024-03-03 00:00:00' TO WEEK), CEIL(TIMESTAMP '2024-03-06 10:00:00' TO HOUR), CEIL(TIMESTAMP '2024-03-06 10:00:00.001' TO HOUR), CEIL(TIMESTAMP '2024-03-06 10:11:12' TO MONTH), CEIL(TIMESTAMP '2024-03-06 10:11:12' TO DAY)",
			[]string{"2024-03-10 00:00:00|2024-03-03 00:00:00|2024-03-06 10:00:00|2024-03-06 11:00:00|2024-04-01 00:00:00|2024-03-07 00:00:00"}},
		{"SELECT EXTRACT(DOW FROM DATE '2024-03-03'), DAYOFWEEK(DATE '2024-03-09'), EXTRACT(YEAR FROM TIMESTAMP '2024-03-03 10:00:00'), EXTRACT(MILLISECOND FROM TIMESTAMP '2024-03-03 10:00:01.5')", []string{"1|7|2024|1500"}},
		{"SELECT date_bin(INTERVAL '7' MINUTE, TIMESTAMP '2024-01-01 00:03:00'), date_bin(interval '10 second', TIMESTAMP '2024-01-01 00:00:07', timestamp '1970-01-01T00:00:00Z')", []string{bin + "|2024-01-01 00:00:00"}},
		{"SELECT TO_TIMESTAMP('2024-01-02 03:04:05'), TO_TIMESTAMP('bad'), TO_TIMESTAMP('02/01/2024 03:04', 'dd/MM/yyyy HH:mm'), TO_DATE('02.01.2024', 'dd.MM.yyyy')",
			[]string{"2024-01-02 03:04:05|NULL|2024-01-02 03:04:00|2024-01-02 00:00:00"}},
		{"SELECT UNIX_TIMESTAMP('1970-01-02 00:00:00'), UNIX_TIMESTAMP('1970/01/02', 'yyyy/MM/dd'), FROM_UNIXTIME(86400), FROM_UNIXTIME(86400, 'yyyy'), TO_TIMESTAMP_LTZ(86400123, 3), TO_TIMESTAMP_LTZ(86400, 0)",
			[]string{"86400|86400|1970-01-02 00:00:00|1970|1970-01-02 00:00:00.123|1970-01-02 00:00:00"}},
		{"SELECT CAST('abcdef' AS VARCHAR(3)), CAST('ab' AS CHAR(4)), CAST(TIMESTAMP '2024-01-01 10:00:00.123456' AS TIMESTAMP(3)), CAST(TIMESTAMP '2024-01-01 10:00:00.6' AS TIMESTAMP(0))",
			[]string{"abc|ab  |2024-01-01 10:00:00.123|2024-01-01 10:00:00"}},
		{"SELECT TIMESTAMP '2024-01-01 00:00:00' + INTERVAL '1 02:30:00' DAY TO SECOND, TIMESTAMP '2024-01-01 00:00:00' + INTERVAL '10 second', TIMESTAMP '2024-03-31 00:00:00' + INTERVAL '1-1' YEAR TO MONTH, TIMESTAMP '2024-01-01 00:00:00' - INTERVAL '5' MINUTE",
			[]string{"2024-01-02 02:30:00|2024-01-01 00:00:10|2025-04-30 00:00:00|2023-12-31 23:55:00"}},
		// Flink sorts NULL first ascending, last descending.
		{"SELECT n FROM nums ORDER BY n, k", []string{"NULL", "NULL", "1", "2"}},
		{"SELECT n FROM nums ORDER BY n DESC, k", []string{"2", "1", "NULL", "NULL"}},
		{"SELECT k, ROW_NUMBER() OVER (ORDER BY n, k) FROM nums ORDER BY k", []string{"1|3", "2|1", "3|4", "4|2"}},
		{"SELECT k FROM nums ORDER BY n NULLS LAST, k DESC", []string{"1", "3", "4", "2"}},
		// The average of integers is an integer; FIRST_VALUE and LAST_VALUE skip NULL.
		{"SELECT AVG(n), AVG(k), SUM(n), COUNT(n), COUNT(*) FROM nums", []string{"1|2|3|2|4"}},
		{"SELECT k, LAST_VALUE(n) OVER (ORDER BY k), FIRST_VALUE(n) OVER (ORDER BY k DESC) FROM nums ORDER BY k", []string{"1|1|2", "2|1|2", "3|2|2", "4|2|NULL"}},
		{"SELECT LAST_VALUE(n), FIRST_VALUE(n) FROM (SELECT n FROM nums WHERE k >= 3) t", []string{"2|2"}},
		{"SELECT k, SUM(n) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), AVG(k) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM nums ORDER BY k",
			[]string{"1|1|1", "2|1|1", "3|2|2", "4|2|3"}},
		// Top-N per group with a WITH query.
		{"WITH r AS (SELECT region, id, ROW_NUMBER() OVER (PARTITION BY region ORDER BY qty DESC) AS rn FROM sales) SELECT region, id FROM r WHERE rn = 1 ORDER BY region",
			[]string{"NULL|2", "eu|1", "us|3"}},
		{"SELECT FLOOR(ts TO DAY), COUNT(*) FROM sales GROUP BY FLOOR(ts TO DAY) ORDER BY 1", []string{"NULL|1", "2024-03-03 00:00:00|1", "2024-03-09 00:00:00|1"}},
	} {
		text, err := translateSQL(c.query)
		if err != nil {
			t.Errorf("%s: %v", c.query, err)
			continue
		}
		got, err := rowsOf(t, conn, text)
		if err != nil {
			t.Errorf("%s\n  as %s: %v", c.query, text, err)
			continue
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s\n  as %s\n  got  %q\n  want %q", c.query, text, got, c.want)
		}
	}
}

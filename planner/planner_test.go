package planner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/parser"
)

func plan(t testing.TB, cat Catalog, sess *Session, sql string) (Plan, error) {
	t.Helper()
	st, err := parser.Parse(sql)
	if err != nil {
		t.Fatalf("parse %q: %v", sql, err)
	}
	return Build(context.Background(), st, cat, sess)
}

// TestRejections checks the clause and the exact text of the
// statements the dialect refuses.
func TestRejections(t *testing.T) {
	cat := newFakeCatalog(t)
	tests := []struct {
		sql, clause, msg string
	}{
		{"SELECT * FROM orders WHERE status = 'paid'", "WHERE",
			`fluss: WHERE on non-key column "status": Fluss serves point lookups (all of order_id) and bounded scans; add LIMIT with no WHERE, or enable client-side filtering with /*+ OPTIONS('fluss.client-filter'='true') */`},
		{"SELECT * FROM sales WHERE dt = 'x' AND shop_id = 1 AND price > 2 AND qty = 1", "", ""}, // prefix lookup with residual: planned
		{"SELECT * FROM events WHERE name = 'x'", "WHERE",
			`fluss: log table "events" has no key to look up; only partition-key predicates (none) and LIMIT are served. Enable 'fluss.client-filter' to filter a bounded scan client-side (/*+ OPTIONS('fluss.client-filter'='true') */), or use Flink SQL`},
		{"SELECT * FROM orders WHERE order_id > 5", "WHERE",
			`fluss: primary-key predicates must be equality (or IN) on every key column (order_id); "order_id > 5" would need a scan`},
		{"SELECT * FROM orders o JOIN events e ON o.order_id = e.id", "JOIN",
			"fluss: JOIN is a query-engine feature; the fluss driver only plans single-table lookups and bounded scans. Import github.com/gofluss/fluss/analytics to run it on the embedded engine, use Flink SQL, or compute in Go"},
		{"SELECT status FROM orders GROUP BY status", "GROUP BY", "fluss: GROUP BY is a query-engine feature; the fluss driver only plans single-table lookups and bounded scans. Import github.com/gofluss/fluss/analytics to run it on the embedded engine, use Flink SQL, or compute in Go"},
		{"SELECT DISTINCT status FROM orders", "DISTINCT", ""},
		{"SELECT * FROM orders WHERE order_id = 1 ORDER BY order_id + 1", "ORDER BY", "fluss: ORDER BY order_id + 1: the client sorts by columns, select-list aliases and positions only; an expression needs a query engine"},
		{"SELECT * FROM orders UNION ALL SELECT * FROM orders", "UNION ALL", ""},
		{"SELECT * FROM orders WHERE order_id IN (SELECT id FROM events)", "subquery", ""},
		{"SELECT * FROM orders FOR SYSTEM_TIME AS OF TIMESTAMP '2024-01-01 00:00:00'", "FOR SYSTEM_TIME",
			"fluss: time travel on primary-key state is not supported by Fluss; read orders$changelog with scan.startup.mode='timestamp'"},
		{"SELECT * FROM `orders$lake`", "FROM", "fluss: lake-only reads (orders$lake) need the lake engine (Paimon/Iceberg); see SHOW LAKE SNAPSHOT FROM orders for the snapshot id"},
		{"SELECT * FROM `events$binlog`", "FROM", "fluss: $binlog needs a primary-key table with 'table.changelog.image'='FULL'; fluss.events is not one (read events$changelog instead)"},
		{"SELECT * FROM `wal_t$binlog`", "FROM", ""},
		{"SELECT * FROM orders /*+ OPTIONS('scan.startup.mode'='latest') */", "scan.startup.mode",
			"fluss: Fluss batch scan on primary-key tables only supports full startup mode; read orders$changelog with 'scan.startup.mode'='latest' instead"},
		{"SELECT * FROM orders /*+ OPTIONS('client.lookup.batch-size'='8') */ WHERE order_id = 1", "OPTIONS hint",
			"fluss: 'client.lookup.batch-size' is a session setting (SET, or the DSN): the sessions of a table share the batching of its lookups"},
		{"UPSERT INTO events VALUES (1, 'a', 1.0, NULL)", "UPSERT", "fluss: UPSERT/REPLACE needs a primary-key table; fluss.events is a log table (use INSERT)"},
		{"REPLACE INTO events VALUES (1, 'a', 1.0, NULL)", "REPLACE", ""},
		{"INSERT INTO orders SELECT * FROM orders", "INSERT ... SELECT",
			"fluss: INSERT ... SELECT needs a query engine; run it in Flink SQL or read rows and insert them from Go"},
		{"INSERT INTO orders VALUES (1, 'a', 1, 'b', NULL) ON DUPLICATE KEY UPDATE status = 'c'", "ON DUPLICATE KEY",
			"fluss: INSERT on a primary-key table is already an upsert; ON DUPLICATE KEY/IGNORE are not supported (use 'table.merge-engine'='first_row' for keep-first semantics)"},
		{"INSERT IGNORE INTO orders VALUES (1, 'a', 1, 'b', NULL)", "ON DUPLICATE KEY", ""},
		{"UPDATE events SET name = 'x' WHERE id = 1", "UPDATE",
			"fluss: table fluss.events is a log table; log tables do not support DELETE and UPDATE statements (only primary-key tables can be changed by key)"},
		{"DELETE FROM events WHERE id = 1", "DELETE", ""},
		{"UPDATE kv2 SET w = 'x' WHERE k1 = 1", "WHERE", "fluss: UPDATE needs equality (or IN) on every primary-key column (k1, k2); got k1"},
		{"DELETE FROM kv2 WHERE k1 = 1", "WHERE",
			"fluss: DELETE needs equality on every primary-key column (k1, k2); bulk/range deletes are not supported (drop a partition instead)"},
		{"UPDATE orders SET order_id = 2 WHERE order_id = 1", "SET",
			`fluss: updates to primary keys are not supported: "order_id" is a primary-key column (DELETE the row and INSERT it with the new key)`},
		{"UPDATE orders SET amount = amount * 2 WHERE order_id = 1", "SET",
			"fluss: UPDATE supports only constants or parameters in SET (no read-modify-write expressions); got amount = amount * 2"},
		{"UPDATE first_t SET v = 'x' WHERE id = 1", "UPDATE",
			"fluss: table fluss.first_t uses the 'first_row' merge engine which does not support DELETE or UPDATE statements"},
		{"DELETE FROM nodel WHERE id = 1", "DELETE",
			"fluss: table fluss.nodel has delete behavior set to 'disable' which does not support DELETE statements"},
		{"INSERT INTO first_t (id) VALUES (1)", "INSERT",
			"fluss: table fluss.first_t uses the 'first_row' merge engine which does not support partial updates (write every column)"},
		{"INSERT INTO kv2 (k1, v) VALUES (1, 2)", "INSERT",
			"fluss: partial updates without fully specifying the primary key columns are not supported: the column list of INSERT fluss.kv2 must include every primary-key column (k1, k2); missing k2"},
		{"INSERT INTO logs (dt) VALUES ('x')", "INSERT", `fluss: column "msg" is NOT NULL and has no value`},
		{"INSERT INTO dict (name, uid) VALUES ('a', 1)", "INSERT",
			`fluss: column "uid" is an auto-increment column; the server assigns its values, so leave it out of the column list`},
		{"SET 'foo.bar' = '1'", "SET", ""},
		{"TRUNCATE TABLE orders", "TRUNCATE", "fluss: TRUNCATE is not supported by Fluss (drop and recreate the table, drop a partition, or DELETE by key)"},
		{"RENAME TABLE orders TO o2", "RENAME", ""},
		{"ALTER TABLE orders RENAME TO o2", "RENAME", ""},
		{"CREATE VIEW v AS SELECT 1", "CREATE VIEW", ""},
		{"CREATE TABLE t (a VARCHAR(255))", "CREATE TABLE", `fluss: column "a": type VARCHAR(255) is not a Fluss type; use STRING (or connect with ddl=lenient to map MySQL types)`},
		{"CREATE TABLE `a.b` (a INT)", "CREATE TABLE", ""},
		{"CREATE TABLE t (__timestamp BIGINT)", "CREATE TABLE", ""},
		{"CREATE TABLE t (m MAP<INT, INT>, PRIMARY KEY (m) NOT ENFORCED)", "PRIMARY KEY", ""},
		{"CREATE TABLE t (a INT, b INT, PRIMARY KEY (a) NOT ENFORCED) PARTITIONED BY (b)", "PARTITIONED BY", ""},
		{"CREATE TABLE t (a INT, b INT, c INT, PRIMARY KEY (a, b) NOT ENFORCED) WITH ('bucket.key' = 'c')", "WITH", ""},
		{"ALTER TABLE orders SET ('table.log.format' = 'INDEXED')", "ALTER TABLE", ""},
		{"ALTER TABLE orders ADD x INT NOT NULL", "ALTER TABLE", `fluss: column "x": added columns must be nullable (remove NOT NULL)`},
		{"USE CATALOG other", "USE CATALOG", ""},
		{"SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(created), INTERVAL '10' MINUTES)) GROUP BY window_start", "FROM",
			"fluss: the table function TUMBLE(...) is a query-engine feature; the fluss driver only plans single-table lookups and bounded scans. Import github.com/gofluss/fluss/analytics to run it on the embedded engine, use Flink SQL, or compute in Go"},
		{"SELECT * FROM TABLE(HOP(TABLE orders, DESCRIPTOR(created), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES))", "FROM", ""},
		{"SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t(id, name)", "FROM",
			"fluss: a VALUES table in FROM is a query-engine feature; the fluss driver only plans single-table lookups and bounded scans. Import github.com/gofluss/fluss/analytics to run it on the embedded engine, use Flink SQL, or compute in Go"},
		{"INSERT INTO orders SELECT * FROM (VALUES (1, 'a'))", "FROM", ""},
		{"SELECT o.order_id FROM orders o, LATERAL TABLE(split(o.status)) AS s(x)", "FROM", ""},
		{"SELECT order_id, rb_cardinality(status) FROM orders", "SELECT",
			"fluss: the roaring-bitmap function RB_CARDINALITY(...) is a query-engine feature; the fluss driver only plans single-table lookups and bounded scans. Import github.com/gofluss/fluss/analytics to run it on the embedded engine, use Flink SQL, or compute in Go"},
		{"SELECT * FROM orders WHERE order_id = 1 AND rb_contains(status, 5)", "WHERE", ""},
		{"SELECT rb_cardinality(rb_build(ARRAY[1, 2]))", "SELECT", ""},
	}
	for _, tc := range tests {
		t.Run(tc.sql, func(t *testing.T) {
			_, err := plan(t, cat, nil, tc.sql)
			if tc.clause == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("want *planner.Error, got %T %v", err, err)
			}
			if pe.Clause != tc.clause {
				t.Errorf("clause = %q, want %q", pe.Clause, tc.clause)
			}
			if !strings.HasPrefix(pe.Error(), "fluss: ") {
				t.Errorf("message %q does not start with fluss:", pe.Error())
			}
			if tc.msg != "" && pe.Error() != tc.msg {
				t.Errorf("message:\n got: %s\nwant: %s", pe.Error(), tc.msg)
			}
		})
	}
}

// roundTripDDL are extra tables for the SHOW CREATE TABLE round trip.
var roundTripDDL = []string{
	"CREATE TABLE `odd-name` (`key` STRING COMMENT 'it''s the key', `value` ROW<`a b` INT 'desc ''q''', c ARRAY<MAP<STRING, BYTES>>>, PRIMARY KEY (`key`) NOT ENFORCED) COMMENT 'odd ''table''' WITH ('my.opt' = 'a''b', 'table.log.ttl' = '1d')",
	"CREATE TABLE wm2 (a BIGINT, ts TIMESTAMP_LTZ(3), c AS a * 2, d AS CAST(a AS STRING), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND, e STRING)",
	"CREATE TABLE p2 (a INT, b STRING, c DATE, v DOUBLE NOT NULL, PRIMARY KEY (a, b, c) NOT ENFORCED) PARTITIONED BY (b, c) WITH ('bucket.num' = '3', 'table.auto-partition.key' = 'c')",
	"CREATE TABLE logk (a INT, b STRING) WITH ('bucket.key' = 'b,a', 'bucket.num' = '2')",
	"CREATE TABLE agg2 (id INT, s STRING, n BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('table.merge-engine' = 'aggregation', 'fields.s.agg' = 'listagg', 'fields.s.listagg.delimiter' = ',', 'fields.n.agg' = 'max', 'auto-increment.fields' = 'n')",
}

// TestShowCreateTableRoundTrip renders every fixture table and checks that
// the text plans back into the same descriptor.
func TestShowCreateTableRoundTrip(t *testing.T) {
	cat := newFakeCatalog(t)
	var infos []*schema.TableInfo
	for _, info := range cat.tables {
		infos = append(infos, info)
	}
	for _, ddl := range roundTripDDL {
		p, err := plan(t, cat, nil, ddl)
		if err != nil {
			t.Fatalf("%s: %v", ddl, err)
		}
		ct := p.(*CreateTable)
		infos = append(infos, &schema.TableInfo{Path: ct.Path, Descriptor: ct.Descriptor})
	}
	for _, info := range infos {
		t.Run(info.Path.String(), func(t *testing.T) {
			text := RenderCreateTable(info)
			p, err := plan(t, cat, nil, text)
			if err != nil {
				t.Fatalf("re-planning failed: %v\n%s", err, text)
			}
			ct, ok := p.(*CreateTable)
			if !ok {
				t.Fatalf("plan is %T", p)
			}
			if ct.Path != info.Path {
				t.Errorf("path %v, want %v", ct.Path, info.Path)
			}
			if !reflect.DeepEqual(ct.Descriptor, info.Descriptor) {
				t.Errorf("descriptor differs after round trip\ntext:\n%s\ngot:\n%s\nwant:\n%s", text,
					(&CreateTable{Descriptor: ct.Descriptor}).String(), (&CreateTable{Descriptor: info.Descriptor}).String())
			}
			if again := RenderCreateTable(&schema.TableInfo{Path: ct.Path, Descriptor: ct.Descriptor}); again != text {
				t.Errorf("rendering is not stable:\n%s\n---\n%s", text, again)
			}
		})
	}
}

func TestRenderCreateTableText(t *testing.T) {
	cat := newFakeCatalog(t)
	got := RenderCreateTable(cat.tables[schema.TablePath{Database: "fluss", Table: "sales"}])
	want := "CREATE TABLE `fluss`.`sales` (\n" +
		"  `dt` STRING NOT NULL,\n" +
		"  `shop_id` BIGINT NOT NULL,\n" +
		"  `item` STRING NOT NULL,\n" +
		"  `qty` INT,\n" +
		"  `price` DOUBLE,\n" +
		"  PRIMARY KEY (`dt`, `shop_id`, `item`) NOT ENFORCED\n" +
		")\n" +
		"PARTITIONED BY (`dt`)\n" +
		"WITH (\n" +
		"  'bucket.num' = '2',\n" +
		"  'bucket.key' = 'shop_id'\n" +
		")"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestDescribeRows(t *testing.T) {
	cat := newFakeCatalog(t)
	rows := DescribeRows(&cat.tables[schema.TablePath{Database: "fluss", Table: "dict"}].Descriptor)
	want := [][]any{
		{"name", "STRING", false, "PRI,BUCKET", nil, nil},
		{"uid", "BIGINT", true, nil, "AUTO_INCREMENT", nil},
		{"note", "STRING", true, nil, nil, nil},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("got %v, want %v", rows, want)
	}
	rows = DescribeRows(&cat.tables[schema.TablePath{Database: "fluss", Table: "clicks"}].Descriptor)
	if len(rows) != 4 || rows[3][1] != "AS CAST(ts AS TIMESTAMP_LTZ(3))" || rows[2][4] != "WATERMARK AS ts - INTERVAL '5' SECOND" {
		t.Errorf("clicks rows: %v", rows)
	}
	if len(DescribeColumns) != len(rows[0]) {
		t.Errorf("DescribeColumns has %d columns, rows %d", len(DescribeColumns), len(rows[0]))
	}
}

func TestQueryPlansHaveOutput(t *testing.T) {
	cat := newFakeCatalog(t)
	for _, sql := range []string{
		"SELECT * FROM orders WHERE order_id = 1", "SELECT * FROM sales WHERE dt = 'a' AND shop_id = 1",
		"SELECT COUNT(*) FROM events", "SELECT * FROM events LIMIT 1", "SELECT * FROM events", "SELECT * FROM orders",
		"SELECT * FROM `orders$changelog`", "SELECT 1", "SHOW TABLES", "DESCRIBE orders", "EXPLAIN SELECT 1", "SET",
	} {
		p, err := plan(t, cat, nil, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		q, ok := p.(QueryPlan)
		if !ok || len(q.OutputColumns()) == 0 {
			t.Errorf("%s: %T has no output columns", sql, p)
		}
	}
}

// FuzzPlan parses and plans arbitrary SQL against the fake catalog; it
// must never panic, and every error must be a parse error, a
// *planner.Error or a catalog error.
func FuzzPlan(f *testing.F) {
	files, _ := filepath.Glob("testdata/plans/*.sql")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, block := range strings.Split(string(src), "\n\n") {
			var lines []string
			for _, l := range strings.Split(block, "\n") {
				if !strings.HasPrefix(strings.TrimSpace(l), "--") {
					lines = append(lines, l)
				}
			}
			if s := strings.TrimSpace(strings.Join(lines, "\n")); s != "" {
				f.Add(s)
			}
		}
	}
	cat := newFakeCatalog(f)
	sessions := []*Session{nil, {LenientDDL: true, Options: map[string]string{"fluss.client-filter": "true", "execution.runtime-mode": "streaming"}}}
	f.Fuzz(func(t *testing.T, sql string) {
		st, err := parser.Parse(sql)
		if err != nil {
			return
		}
		for _, sess := range sessions {
			p, err := Build(context.Background(), st, cat, sess)
			if err != nil {
				continue
			}
			_ = p.String()
			if q, ok := p.(QueryPlan); ok {
				_ = q.OutputColumns()
			}
			if ct, ok := p.(*CreateTable); ok {
				_ = RenderCreateTable(&schema.TableInfo{Path: ct.Path, Descriptor: ct.Descriptor})
				_ = DescribeRows(&ct.Descriptor)
			}
		}
	})
}

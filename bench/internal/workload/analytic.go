package workload

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// The analytic workloads read two tables: a log of events, and a
// primary-key table of the keys the events name (one key per ten events).
// Event i is (i, LookupKey(i, keys), "cat-<i%1000>", i%10, i*0.5); key i
// of the key table is (i, "region-<i%20>", i%7). Every client runs the
// same query text over them (Query), so the answers can be compared.

// EventColumns is the schema of the events table.
func EventColumns() []schema.Column {
	return []schema.Column{
		schema.NewColumn("id", schema.BigInt().NotNull()),
		schema.NewColumn("k", schema.BigInt().NotNull()),
		schema.NewColumn("cat", schema.String()),
		schema.NewColumn("qty", schema.Int()),
		schema.NewColumn("v", schema.Double()),
	}
}

// EventRow returns event i of a table whose events name keys keys.
func EventRow(i, keys int) []any {
	var buf [16]byte
	cat := strconv.AppendInt(append(buf[:0], "cat-"...), int64(i%1000), 10)
	return []any{int64(i), LookupKey(i, keys), string(cat), int32(i % 10), float64(i) * 0.5}
}

// DimColumns is the schema of the key table, whose primary key is id.
func DimColumns() []schema.Column {
	return []schema.Column{
		schema.NewColumn("id", schema.BigInt().NotNull()),
		schema.NewColumn("region", schema.String()),
		schema.NewColumn("w", schema.Int()),
	}
}

// DimRow returns key i of the key table.
func DimRow(i int) []any {
	return []any{int64(i), "region-" + strconv.Itoa(i%20), int32(i % 7)}
}

// An analytic query, by the name the orchestrator hands a workload process.
type queryText struct {
	sql string
	// lookupJoin tells whether our planner must make the query a lookup
	// join: the engine workload checks EXPLAIN against it, so that a
	// planner change cannot silently turn one comparison into another.
	lookupJoin bool
}

var queries = map[string]queryText{
	"group-by": {sql: "SELECT cat, SUM(qty) AS qty, COUNT(*) AS n FROM {events} GROUP BY cat"},
	"filter-aggregate": {sql: "SELECT COUNT(*) AS n, SUM(qty) AS qty, SUM(id) AS ids FROM {events} " +
		"WHERE qty >= 5 AND v < 200000 AND cat <> 'cat-7'"},
	"lookup-join": {sql: "SELECT d.region, COUNT(*) AS n, SUM(e.qty * d.w) AS weighted " +
		"FROM {events} e JOIN {dims} d ON e.k = d.id GROUP BY d.region", lookupJoin: true},
	// The join of the events of one category (a thousandth of them, as
	// many keys): the lookup join looks up those keys only.
	"lookup-join-selective": {sql: "SELECT d.region, COUNT(*) AS n, SUM(e.qty * d.w) AS weighted " +
		"FROM {events} e JOIN {dims} d ON e.k = d.id WHERE e.cat = 'cat-7' GROUP BY d.region", lookupJoin: true},
	"scan-join-selective": {sql: "SELECT d.region, COUNT(*) AS n, SUM(e.qty * d.w) AS weighted " +
		"FROM {events} e JOIN {dims} d ON e.k = d.id + 0 WHERE e.cat = 'cat-7' GROUP BY d.region"},
	// The scan-join queries are the joins with their key hidden behind
	// + 0: the planner then reads the key table whole, as the scanning
	// peers do, and the engine joins the two reads by hashing.
	"scan-join": {sql: "SELECT d.region, COUNT(*) AS n, SUM(e.qty * d.w) AS weighted " +
		"FROM {events} e JOIN {dims} d ON e.k = d.id + 0 GROUP BY d.region"},
}

// Query returns the text of the named query over the given tables (the
// events table, and for a join the key table after a comma), and whether
// our planner must make it a lookup join.
func Query(name, tables string) (sql string, lookupJoin bool, err error) {
	q, ok := queries[name]
	if !ok {
		return "", false, fmt.Errorf("no query %q", name)
	}
	events, dims, _ := strings.Cut(tables, ",")
	if strings.Contains(q.sql, "{dims}") && dims == "" {
		return "", false, fmt.Errorf("query %q needs two tables, got %q", name, tables)
	}
	return strings.NewReplacer("{events}", events, "{dims}", dims).Replace(q.sql), q.lookupJoin, nil
}

// Digest sums up a query's answer so that the answers of different
// clients can be compared without caring for row order or for the last
// bits of floating-point sums: its row count and the sum of its integer
// values. pyfluss_bench.py computes the same, in digestFormat: the text is
// compared, not read, so it does not say "1 row".
func Digest(rows int, intSum int64) string {
	return fmt.Sprintf(digestFormat, rows, intSum)
}

// digestFormat is Digest's text, character for character that of
// pyfluss_bench.py's digest.
const digestFormat = "%d rows, integers sum to %d"

// LoadArrow appends rows 0..n-1, made by row, to the log table t as
// Arrow records of 8192 rows, and waits until all are acknowledged.
func LoadArrow(ctx context.Context, t *flussrpc.Table, n int, row func(int) []any) error {
	w, err := t.NewAppendWriter(flussrpc.AppendOptions{})
	if err != nil {
		return err
	}
	defer w.Close(ctx)
	err = arrowRecords(t.Info().Descriptor.Schema.Columns, n, row, func(rec arrow.RecordBatch) error {
		_, err := w.AppendArrow(ctx, rec)
		rec.Release()
		return err
	})
	if err != nil {
		return err
	}
	return w.Flush(ctx)
}

// arrowRecords makes rows 0..n-1 of cols into records of 8192 rows and
// hands each to use, which owns it.
func arrowRecords(cols []schema.Column, n int, row func(int) []any, use func(arrow.RecordBatch) error) error {
	rb, err := arrowipc.NewRowBuilder(cols, nil)
	if err != nil {
		return err
	}
	defer rb.Release()
	for k := 0; k < n; k += 8192 {
		for i := k; i < min(n, k+8192); i++ {
			if err := rb.Append(row(i)); err != nil {
				return err
			}
		}
		if err := use(rb.NewRecord()); err != nil {
			return err
		}
	}
	return nil
}

// LoadUpserts upserts rows 0..n-1, made by row, into the primary-key
// table t, and waits until all are acknowledged.
func LoadUpserts(ctx context.Context, t *flussrpc.Table, n int, row func(int) []any) error {
	w, err := t.NewUpsertWriter(flussrpc.UpsertOptions{})
	if err != nil {
		return err
	}
	defer w.Close(ctx)
	for i := 0; i < n; i++ {
		if _, err := w.Upsert(ctx, row(i)); err != nil {
			return err
		}
	}
	return w.Flush(ctx)
}

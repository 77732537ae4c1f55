package workload

import (
	"strconv"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// The rows every client writes and reads: row i is (i, "name-<i>", i*0.5).
// The Java and Python peers build the same values from the same rule, so
// that each client moves the same bytes.

// Columns is the schema of every benchmark table.
func Columns() []schema.Column {
	return []schema.Column{
		schema.NewColumn("id", schema.BigInt().NotNull()),
		schema.NewColumn("name", schema.String()),
		schema.NewColumn("v", schema.Double()),
	}
}

// Row returns row i in the codec value model. The name is built as Java's
// "name-" + i is, in one allocation: fmt.Sprintf cost more than the
// client's whole Append, and would be timed as the client's.
func Row(i int) []any {
	var buf [24]byte
	name := strconv.AppendInt(append(buf[:0], "name-"...), int64(i), 10)
	return []any{int64(i), string(name), float64(i) * 0.5}
}

// Buckets is the bucket count of every benchmark table.
const Buckets = 4

// TableDesc is a log table (pk false) or a primary-key table on id.
func TableDesc(pk bool) (schema.TableDescriptor, error) {
	if pk {
		return Desc(Columns(), "id")
	}
	return Desc(Columns())
}

// Desc is a table of cols with Buckets buckets, a primary-key table on
// the columns pk if any.
func Desc(cols []schema.Column, pk ...string) (schema.TableDescriptor, error) {
	s, err := schema.NewSchema(cols, pk, nil)
	if err != nil {
		return schema.TableDescriptor{}, err
	}
	n := Buckets
	return schema.TableDescriptor{Schema: s, BucketCount: &n}, nil
}

// LookupKey is the key of the j-th lookup of a run over a table of rows
// rows: a stride through the ids that every peer computes the same way.
func LookupKey(j, rows int) int64 {
	return int64(j) * 7919 % int64(rows)
}

package arrowipc

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

const benchRows = 8192

// benchColumns is the 10-column row of the benchmarks: ids and a
// timestamp, two doubles, an int, a boolean and strings of 8/16/48 bytes.
func benchColumns() []schema.Column {
	return []schema.Column{
		col("id", schema.BigInt().NotNull()),
		col("user_id", schema.BigInt()),
		col("ts", schema.Timestamp(3)),
		col("d1", schema.Double()),
		col("d2", schema.Double()),
		col("n", schema.Int()),
		col("flag", schema.Boolean()),
		col("s8", schema.String()),
		col("s16", schema.String()),
		col("s48", schema.String()),
	}
}

func benchData() [][]any {
	rows := make([][]any, benchRows)
	for i := range rows {
		rows[i] = []any{
			int64(i), int64(i % 977), codec.TimestampNTZ{Millis: 1700000000000 + int64(i)},
			float64(i) * 0.5, float64(i%13) / 7, int32(i % 100), i%3 == 0,
			fmt.Sprintf("k%07d", i), fmt.Sprintf("user-%011d", i%5000),
			"event=" + strings.Repeat("x", 30) + fmt.Sprintf("%012d", i),
		}
	}
	return rows
}

func benchName(c Compression) string {
	if c.Type == schema.CompressionZstd {
		return fmt.Sprintf("ZSTD-%d", c.ZstdLevel)
	}
	return c.Type
}

// BenchmarkEncodeRows measures rows ([]any) → RowBuilder → one Arrow IPC
// message, reusing the builder and the output buffer across batches.
func BenchmarkEncodeRows(b *testing.B) {
	cols := benchColumns()
	rows := benchData()
	for _, c := range allCompressions[:3] {
		b.Run(benchName(c), func(b *testing.B) {
			rb, _ := NewRowBuilder(cols, nil)
			defer rb.Release()
			enc, _ := NewEncoder(cols, c, nil)
			var out []byte
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, r := range rows {
					if err := rb.Append(r); err != nil {
						b.Fatal(err)
					}
				}
				rec := rb.NewRecord()
				var err error
				out, err = enc.AppendMessage(out[:0], rec)
				rec.Release()
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*benchRows/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(len(out))/benchRows, "B/row")
		})
	}
}

// BenchmarkDecodeRows measures one Arrow IPC message → []any rows.
func BenchmarkDecodeRows(b *testing.B) {
	cols := benchColumns()
	rows := benchData()
	for _, c := range allCompressions[:3] {
		b.Run(benchName(c), func(b *testing.B) {
			msg := encodeRows(b, cols, c, nil, rows)
			dec, _ := NewDecoder(cols, nil, Limits{})
			defer dec.Release()
			var out [][]any
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var err error
				out, err = dec.DecodeRows(out[:0], msg, benchRows)
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*benchRows/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkDecodeRecord measures one Arrow IPC message → arrow record
// (zero-copy when uncompressed).
func BenchmarkDecodeRecord(b *testing.B) {
	cols := benchColumns()
	rows := benchData()
	for _, c := range allCompressions[:3] {
		b.Run(benchName(c), func(b *testing.B) {
			msg := encodeRows(b, cols, c, nil, rows)
			dec, _ := NewDecoder(cols, nil, Limits{})
			defer dec.Release()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rec, err := dec.Decode(msg, benchRows)
				if err != nil {
					b.Fatal(err)
				}
				rec.Release()
			}
			b.ReportMetric(float64(b.N)*benchRows/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

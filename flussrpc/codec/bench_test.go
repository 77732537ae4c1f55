package codec

import (
	"testing"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// benchRow is a typical flat row: ids, text, amounts, timestamps.
func benchRow(b *testing.B) ([]schema.DataType, []any) {
	types := []schema.DataType{
		schema.BigInt().NotNull(), schema.Int(), schema.String(), schema.String(), schema.Double(),
		schema.Decimal(12, 2), schema.TimestampLTZ(3), schema.Boolean(), schema.Date(), schema.Bytes(),
	}
	row := []any{
		int64(1234567890123), int32(42), "some-user@example.com", "a moderately long description text",
		3.14159, mustDec(b, 1999, 12, 2), TimestampLTZ{Millis: 1698235273182}, true, Date(19655), []byte{1, 2, 3, 4},
	}
	return types, row
}

func BenchmarkCompactedEncode(b *testing.B) {
	types, row := benchRow(b)
	enc, _ := NewCompactedEncoder(types)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := enc.Encode(row); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompactedDecode(b *testing.B) {
	types, row := benchRow(b)
	enc, _ := NewCompactedEncoder(types)
	data, _ := enc.Encode(row)
	dec, _ := NewCompactedDecoder(types)
	dst := make([]any, len(types))
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := dec.DecodeInto(dst, data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIndexedEncode(b *testing.B) {
	types, row := benchRow(b)
	enc, _ := NewIndexedEncoder(types)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := enc.Encode(row); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFlussBucket(b *testing.B) {
	key := []byte("2bb87d68-baf9-4e64-90f9-f80910419fa6")
	b.ReportAllocs()
	for b.Loop() {
		_, _ = FlussBucketing{}.Bucket(key, 16)
	}
}

package arrowipc

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// FlussType returns the Fluss type that holds the values of an Arrow
// type, the inverse of InstantType where one exists: a timestamp with a
// time zone is a TIMESTAMP_LTZ, one without a TIMESTAMP, its unit giving
// the precision (0, 3, 6 or 9); unsigned integers take the next wider
// signed type (UINT64 a DECIMAL(20, 0)); every string and binary layout
// is STRING or BYTES, a fixed-size binary a BINARY(n). The result is
// nullable. Types Fluss has no counterpart for (intervals, durations,
// unions, DECIMAL wider than 38 digits) are an error.
func FlussType(dt arrow.DataType) (schema.DataType, error) {
	switch x := dt.(type) {
	case *arrow.BooleanType:
		return schema.Boolean(), nil
	case *arrow.Int8Type:
		return schema.TinyInt(), nil
	case *arrow.Int16Type, *arrow.Uint8Type:
		return schema.SmallInt(), nil
	case *arrow.Int32Type, *arrow.Uint16Type:
		return schema.Int(), nil
	case *arrow.Int64Type, *arrow.Uint32Type:
		return schema.BigInt(), nil
	case *arrow.Uint64Type:
		return schema.Decimal(20, 0), nil
	case *arrow.Float16Type, *arrow.Float32Type:
		return schema.Float(), nil
	case *arrow.Float64Type:
		return schema.Double(), nil
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return schema.String(), nil
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType:
		return schema.Bytes(), nil
	case *arrow.FixedSizeBinaryType:
		return schema.Binary(x.ByteWidth), nil
	case *arrow.Decimal128Type:
		return schema.Decimal(int(x.Precision), int(x.Scale)), nil
	case *arrow.Decimal32Type:
		return schema.Decimal(int(x.Precision), int(x.Scale)), nil
	case *arrow.Decimal64Type:
		return schema.Decimal(int(x.Precision), int(x.Scale)), nil
	case *arrow.Date32Type, *arrow.Date64Type:
		return schema.Date(), nil
	case *arrow.Time32Type:
		return schema.Time(unitPrecision(x.Unit)), nil
	case *arrow.Time64Type:
		return schema.Time(unitPrecision(x.Unit)), nil
	case *arrow.TimestampType:
		if x.TimeZone != "" {
			return schema.TimestampLTZ(unitPrecision(x.Unit)), nil
		}
		return schema.Timestamp(unitPrecision(x.Unit)), nil
	case *arrow.NullType:
		return schema.String(), nil
	case *arrow.MapType:
		k, err := FlussType(x.KeyType())
		if err != nil {
			return schema.DataType{}, err
		}
		v, err := FlussType(x.ItemType())
		if err != nil {
			return schema.DataType{}, err
		}
		return schema.MapOf(k.NotNull(), v), nil
	case arrow.ListLikeType:
		e, err := FlussType(x.Elem())
		if err != nil {
			return schema.DataType{}, err
		}
		return schema.ArrayOf(e), nil
	case *arrow.StructType:
		fields := make([]schema.Field, x.NumFields())
		for i, f := range x.Fields() {
			t, err := FlussType(f.Type)
			if err != nil {
				return schema.DataType{}, err
			}
			fields[i] = schema.NewField(f.Name, t)
		}
		return schema.RowOf(fields...), nil
	}
	return schema.DataType{}, fmt.Errorf("arrowipc: no Fluss type holds Arrow %s", dt)
}

// unitPrecision is the fractional digits of a time unit.
func unitPrecision(u arrow.TimeUnit) int {
	switch u {
	case arrow.Second:
		return 0
	case arrow.Millisecond:
		return 3
	case arrow.Microsecond:
		return 6
	}
	return 9
}

package codec

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// PartitionSeparator joins partition values into a partition name.
const PartitionSeparator = "$"

// PartitionValueString converts a partition column value to the string
// Fluss uses in partition names (Java PartitionUtils.convertValueOfType).
// It must match Java exactly because the name is the routing key.
func PartitionValueString(t schema.DataType, v any) (string, error) {
	if v == nil {
		return "", fmt.Errorf("codec: partition value of type %s must not be NULL", t)
	}
	switch t.Root {
	case schema.RootChar, schema.RootString:
		return asString(t, v)
	case schema.RootBoolean:
		b, err := asBool(t, v)
		return strconv.FormatBool(b), err
	case schema.RootBinary, schema.RootBytes:
		b, err := asBytes(t, v)
		return hex.EncodeToString(b), err
	case schema.RootTinyInt, schema.RootSmallInt, schema.RootInt, schema.RootBigInt:
		return partitionInt(t, v)
	case schema.RootDate:
		d, err := asDate(t, v)
		return Date(d).String(), err
	case schema.RootTime:
		ms, err := AsTime(t, v)
		return partitionTime(ms), err
	case schema.RootFloat:
		f, err := asFloat32(t, v)
		return partitionFloat(float64(f), 32), err
	case schema.RootDouble:
		f, err := asFloat64(t, v)
		return partitionFloat(f, 64), err
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		ms, nano, err := asTimestamp(t, v)
		return partitionTimestamp(ms, nano), err
	}
	return "", fmt.Errorf("codec: type %s cannot be a partition key", t)
}

func partitionInt(t schema.DataType, v any) (string, error) {
	w := uint(64)
	switch t.Root {
	case schema.RootTinyInt:
		w = 8
	case schema.RootSmallInt:
		w = 16
	case schema.RootInt:
		w = 32
	}
	n, err := asIntN(t, v, -1<<(w-1), 1<<(w-1)-1)
	return strconv.FormatInt(n, 10), err
}

// partitionTime renders millis of day as HH-mm-ss_SSS with floor division,
// like Java (hours are not wrapped at 24).
func partitionTime(ms int32) string {
	m := int64(ms)
	h := floorDiv(m, 3600000)
	rest := floorMod(m, 3600000)
	return fmt.Sprintf("%02d-%02d-%02d_%03d", h, rest/60000, rest%60000/1000, floorMod(m, 1000))
}

// partitionFloat is Java's String.valueOf(float|double) with '.' → '_',
// and NaN / Inf / -Inf for the special values.
func partitionFloat(f float64, bitSize int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	return strings.ReplaceAll(JavaFloatString(f, bitSize), ".", "_")
}

// JavaFloatString formats f the way Java's Float.toString (bitSize 32) or
// Double.toString (64) does for finite values: the shortest digits that
// round-trip, in plain notation with at least one fractional digit for
// 1e-3 <= |f| < 1e7, otherwise as d.dddE±n. This follows the JDK 19+
// algorithm; older JDKs printed extra digits for a few values.
func JavaFloatString(f float64, bitSize int) string {
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	e := strconv.FormatFloat(f, 'e', -1, bitSize) // e.g. "-1.2345e+07"
	if !strings.Contains(e, ".") {
		// Java never prints a single significant digit: when one digit would
		// round-trip it picks the closest two-digit decimal (4.9E-324).
		e = strconv.FormatFloat(f, 'e', 1, bitSize)
	}
	neg := strings.HasPrefix(e, "-")
	e = strings.TrimPrefix(e, "-")
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	digits := strings.TrimRight(strings.Replace(mant, ".", "", 1), "0")
	if digits == "" {
		digits = "0"
	}
	var out string
	if abs := math.Abs(f); abs >= 1e-3 && abs < 1e7 {
		out = plainDigits(digits, exp)
	} else {
		frac := digits[1:]
		if frac == "" {
			frac = "0"
		}
		out = digits[:1] + "." + frac + "E" + strconv.Itoa(exp)
	}
	if neg {
		return "-" + out
	}
	return out
}

// plainDigits places the decimal point in significant digits d×10^exp.
func plainDigits(d string, exp int) string {
	if exp < 0 {
		return "0." + strings.Repeat("0", -exp-1) + d
	}
	if exp+1 >= len(d) {
		return d + strings.Repeat("0", exp+1-len(d)) + ".0"
	}
	return d[:exp+1] + "." + d[exp+1:]
}

// partitionTimestamp renders yyyy-MM-dd-HH-mm-ss_ plus the nano-of-second
// fraction without trailing zeros (empty when zero), in UTC.
func partitionTimestamp(ms int64, nanoOfMilli int32) string {
	t := time.UnixMilli(ms).UTC()
	nanos := t.Nanosecond() + int(nanoOfMilli)
	frac := strings.TrimRight(fmt.Sprintf("%09d", nanos), "0")
	return fmt.Sprintf("%04d-%02d-%02d-%02d-%02d-%02d_%s",
		t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second(), frac)
}

// PartitionName joins already converted partition values with "$".
func PartitionName(values []string) string { return strings.Join(values, PartitionSeparator) }

// PartitionDisplayName renders "k1=v1/k2=v2" (display only, never routing).
func PartitionDisplayName(keys, values []string) string {
	var b strings.Builder
	for i := range keys {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(keys[i])
		b.WriteByte('=')
		if i < len(values) {
			b.WriteString(values[i])
		}
	}
	return b.String()
}

// PartitionNameOf computes the partition name of a full row, given the
// types of all columns and the positions of the partition keys in order.
func PartitionNameOf(types []schema.DataType, partitionIdx []int, row []any) (string, error) {
	parts := make([]string, len(partitionIdx))
	for i, k := range partitionIdx {
		if k < 0 || k >= len(types) || k >= len(row) {
			return "", fmt.Errorf("codec: partition column index %d out of range", k)
		}
		s, err := PartitionValueString(types[k], row[k])
		if err != nil {
			return "", err
		}
		parts[i] = s
	}
	return PartitionName(parts), nil
}

package codec

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/gofluss/fluss/internal/plural"
)

// Decimal is a Fluss DECIMAL(p, s) value: an unscaled integer plus
// precision and scale. Values whose unscaled part fits in an int64 are kept
// without allocation; larger ones (only possible for precision > 18) use a
// *big.Int. The zero value is 0 with precision 0, which no column accepts;
// build values with the constructors.
type Decimal struct {
	small     int64
	big       *big.Int // nil when the value is in small
	precision uint8
	scale     uint8
}

var (
	errDecimalPrecision = errors.New("codec: decimal precision must be 1..38 and scale 0..precision")
	bigTen              = big.NewInt(10)
)

// pow10 holds 10^0 .. 10^18 for digit-count checks without big arithmetic.
var pow10 = func() (p [19]int64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

func checkPS(precision, scale int) error {
	if precision < 1 || precision > 38 || scale < 0 || scale > precision {
		return errDecimalPrecision
	}
	return nil
}

// NewDecimal returns the decimal unscaled×10^-scale with the given
// precision; it fails when the unscaled value has more than precision digits.
func NewDecimal(unscaled int64, precision, scale int) (Decimal, error) {
	if err := checkPS(precision, scale); err != nil {
		return Decimal{}, err
	}
	if precision <= 18 {
		if unscaled >= pow10[precision] || unscaled <= -pow10[precision] {
			return Decimal{}, fmt.Errorf("codec: unscaled value %d has more than %s", unscaled, plural.Count(precision, "digit"))
		}
	}
	return Decimal{small: unscaled, precision: uint8(precision), scale: uint8(scale)}, nil
}

// NewDecimalBig is NewDecimal for an arbitrary-size unscaled value. The
// big.Int is copied.
func NewDecimalBig(unscaled *big.Int, precision, scale int) (Decimal, error) {
	if err := checkPS(precision, scale); err != nil {
		return Decimal{}, err
	}
	if unscaled.IsInt64() {
		return NewDecimal(unscaled.Int64(), precision, scale)
	}
	limit := new(big.Int).Exp(bigTen, big.NewInt(int64(precision)), nil)
	if new(big.Int).Abs(unscaled).Cmp(limit) >= 0 {
		return Decimal{}, fmt.Errorf("codec: unscaled value %s has more than %s", unscaled, plural.Count(precision, "digit"))
	}
	return Decimal{big: new(big.Int).Set(unscaled), precision: uint8(precision), scale: uint8(scale)}, nil
}

// ParseDecimal parses a plain decimal string ("-12.345", "7", ".5") into
// DECIMAL(precision, scale). Extra fractional digits are an error, not
// rounded, so that no data is silently changed.
func ParseDecimal(s string, precision, scale int) (Decimal, error) {
	if err := checkPS(precision, scale); err != nil {
		return Decimal{}, err
	}
	digits, err := scaledDigits(s, scale)
	if err != nil {
		return Decimal{}, err
	}
	v, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return Decimal{}, fmt.Errorf("codec: invalid decimal %q", s)
	}
	return NewDecimalBig(v, precision, scale)
}

// scaledDigits turns "-1.5" with scale 3 into "-1500".
func scaledDigits(s string, scale int) (string, error) {
	t := strings.TrimSpace(s)
	sign := ""
	if t != "" && (t[0] == '-' || t[0] == '+') {
		if t[0] == '-' {
			sign = "-"
		}
		t = t[1:]
	}
	intPart, frac, _ := strings.Cut(t, ".")
	if intPart == "" && frac == "" || strings.ContainsAny(intPart+frac, "+-eE. ") {
		return "", fmt.Errorf("codec: invalid decimal %q", s)
	}
	if len(frac) > scale {
		if strings.Trim(frac[scale:], "0") != "" {
			return "", fmt.Errorf("codec: decimal %q has more than %s", s, plural.Count(scale, "fractional digit"))
		}
		frac = frac[:scale]
	}
	return sign + intPart + frac + strings.Repeat("0", scale-len(frac)), nil
}

// Precision returns the declared precision.
func (d Decimal) Precision() int { return int(d.precision) }

// Scale returns the declared scale.
func (d Decimal) Scale() int { return int(d.scale) }

// IsCompact reports whether the precision is at most 18, i.e. whether the
// row formats store the value as an int64.
func (d Decimal) IsCompact() bool { return d.precision <= 18 }

// UnscaledInt64 returns the unscaled value if it fits in an int64.
func (d Decimal) UnscaledInt64() (int64, bool) {
	if d.big != nil {
		return 0, false
	}
	return d.small, true
}

// Unscaled returns the unscaled value as a new big.Int.
func (d Decimal) Unscaled() *big.Int {
	if d.big != nil {
		return new(big.Int).Set(d.big)
	}
	return big.NewInt(d.small)
}

// String renders the exact value in plain notation, e.g. "-0.05", "12.30".
func (d Decimal) String() string {
	var digits string
	if d.big != nil {
		digits = d.big.String()
	} else {
		digits = fmt.Sprint(d.small)
	}
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	if s := int(d.scale); s > 0 {
		if len(digits) <= s {
			digits = strings.Repeat("0", s-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-s] + "." + digits[len(digits)-s:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}

// Equal reports whether two decimals have the same value, precision and scale.
func (d Decimal) Equal(o Decimal) bool {
	if d.precision != o.precision || d.scale != o.scale {
		return false
	}
	if d.big == nil && o.big == nil {
		return d.small == o.small
	}
	return d.Unscaled().Cmp(o.Unscaled()) == 0
}

// unscaledBytes appends the big-endian minimal two's-complement form of the
// unscaled value (what Java's BigInteger.toByteArray returns).
func (d Decimal) unscaledBytes(dst []byte) []byte {
	if d.big == nil {
		return appendTwosComplement64(dst, d.small)
	}
	return appendTwosComplementBig(dst, d.big)
}

func appendTwosComplement64(dst []byte, v int64) []byte {
	n := 8
	// Drop leading bytes that only repeat the sign of the next byte.
	for n > 1 {
		top := byte(v >> (8 * (n - 1)))
		next := byte(v >> (8 * (n - 2)))
		if (top == 0 && next&0x80 == 0) || (top == 0xff && next&0x80 != 0) {
			n--
			continue
		}
		break
	}
	for i := n - 1; i >= 0; i-- {
		dst = append(dst, byte(v>>(8*i)))
	}
	return dst
}

func appendTwosComplementBig(dst []byte, v *big.Int) []byte {
	if v.Sign() >= 0 {
		mag := v.Bytes()
		if len(mag) == 0 || mag[0]&0x80 != 0 {
			dst = append(dst, 0)
		}
		return append(dst, mag...)
	}
	// Two's complement of a negative number: invert (|v| - 1).
	m := new(big.Int).Neg(v)
	m.Sub(m, big.NewInt(1))
	mag := m.Bytes()
	if len(mag) == 0 || mag[0]&0x80 != 0 {
		dst = append(dst, 0xff)
	}
	for _, b := range mag {
		dst = append(dst, ^b)
	}
	return dst
}

// decimalFromBytes decodes a big-endian two's-complement unscaled value.
func decimalFromBytes(b []byte, precision, scale int) (Decimal, error) {
	if len(b) == 0 {
		return Decimal{}, errors.New("codec: empty decimal bytes")
	}
	if len(b) <= 8 {
		v := int64(int8(b[0]))
		for _, x := range b[1:] {
			v = v<<8 | int64(x)
		}
		return NewDecimal(v, precision, scale)
	}
	if len(b) > 17 { // 10^38 needs 17 bytes; anything longer cannot fit
		return Decimal{}, fmt.Errorf("codec: decimal of %s exceeds precision %d", plural.Count(len(b), "byte"), precision)
	}
	v := new(big.Int).SetBytes(b)
	if b[0]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return NewDecimalBig(v, precision, scale)
}

// rescale returns d re-tagged with the column's precision and scale; the
// scale must match exactly (rescaling would change the value's meaning) and
// the digits must fit.
func (d Decimal) rescale(precision, scale int) (Decimal, error) {
	if int(d.scale) != scale {
		return Decimal{}, fmt.Errorf("codec: decimal %s has scale %d, column needs %d", d, d.scale, scale)
	}
	if int(d.precision) == precision {
		return d, nil
	}
	if d.big == nil {
		return NewDecimal(d.small, precision, scale)
	}
	return NewDecimalBig(d.big, precision, scale)
}

// Date is a DATE value: days since 1970-01-01.
type Date int32

// DateOf returns the Date of t's calendar day (in t's location).
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	u := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return Date(floorDiv(u.Unix(), 86400))
}

// Time returns the date as midnight UTC.
func (d Date) Time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// String formats the date as yyyy-MM-dd.
func (d Date) String() string { return d.Time().Format("2006-01-02") }

// Time is a TIME value: milliseconds since midnight (Fluss rows store no
// sub-millisecond part).
type Time int32

// String formats the time as HH:mm:ss.SSS.
func (t Time) String() string {
	ms := int64(t)
	return fmt.Sprintf("%02d:%02d:%02d.%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}

// TimestampNTZ is a TIMESTAMP (without time zone) value: the wall-clock
// date-time expressed as if it were UTC, split into epoch milliseconds and
// the nanoseconds within that millisecond (0..999999).
type TimestampNTZ struct {
	Millis      int64
	NanoOfMilli int32
}

// TimestampLTZ is a TIMESTAMP_LTZ value: an instant, as epoch milliseconds
// plus nanoseconds within the millisecond (0..999999).
type TimestampLTZ struct {
	Millis      int64
	NanoOfMilli int32
}

func splitNanos(t time.Time) (int64, int32) {
	ns := t.UnixNano() // fine for years 1678..2262; use seconds for the rest
	if t.Year() < 1678 || t.Year() > 2261 {
		ms := t.Unix()*1000 + int64(t.Nanosecond()/1e6)
		return ms, int32(t.Nanosecond() % 1e6)
	}
	return floorDiv(ns, 1e6), int32(floorMod(ns, 1e6))
}

func joinNanos(ms int64, nano int32) time.Time {
	return time.UnixMilli(ms).Add(time.Duration(nano)).UTC()
}

// TimestampNTZOf returns the wall clock of t (its location is dropped).
func TimestampNTZOf(t time.Time) TimestampNTZ {
	wall := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	ms, n := splitNanos(wall)
	return TimestampNTZ{Millis: ms, NanoOfMilli: n}
}

// Time returns the wall-clock value as a UTC time.Time.
func (t TimestampNTZ) Time() time.Time { return joinNanos(t.Millis, t.NanoOfMilli) }

// TimestampLTZOf returns the instant t.
func TimestampLTZOf(t time.Time) TimestampLTZ {
	ms, n := splitNanos(t)
	return TimestampLTZ{Millis: ms, NanoOfMilli: n}
}

// Time returns the instant in UTC.
func (t TimestampLTZ) Time() time.Time { return joinNanos(t.Millis, t.NanoOfMilli) }

// Map is a MAP value: parallel key and value slices of equal length.
// Keys must not be nil (Fluss map keys are non-null in practice).
type Map struct {
	Keys   []any
	Values []any
}

// ChangeType is the per-record change kind of log records.
type ChangeType byte

// Change types (the byte values used on the wire).
const (
	AppendOnly   ChangeType = 0 // +A, rows of log tables
	Insert       ChangeType = 1 // +I
	UpdateBefore ChangeType = 2 // -U
	UpdateAfter  ChangeType = 3 // +U
	Delete       ChangeType = 4 // -D
)

// String returns the short form used by Fluss (+A, +I, -U, +U, -D).
func (c ChangeType) String() string {
	switch c {
	case AppendOnly:
		return "+A"
	case Insert:
		return "+I"
	case UpdateBefore:
		return "-U"
	case UpdateAfter:
		return "+U"
	case Delete:
		return "-D"
	}
	return fmt.Sprintf("ChangeType(%d)", byte(c))
}

// Valid reports whether c is a known change type.
func (c ChangeType) Valid() bool { return c <= Delete }

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// float32Bits and friends keep math imports in one place for the encoders.
func float32Bits(f float32) uint32 { return math.Float32bits(f) }
func float64Bits(f float64) uint64 { return math.Float64bits(f) }
func float32From(b uint32) float32 { return math.Float32frombits(b) }
func float64From(b uint64) float64 { return math.Float64frombits(b) }

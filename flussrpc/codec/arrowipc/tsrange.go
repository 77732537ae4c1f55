package arrowipc

import (
	"fmt"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// tsRange is the span of timestamps an Arrow timestamp column of one unit
// can hold: its values are int64 counts of the unit since the epoch, so
// TIMESTAMP(7..9) (nanoseconds) only covers 1677-09-21 … 2262-04-11 and
// TIMESTAMP(4..6) (microseconds) ±292 thousand years. The row formats
// (INDEXED, COMPACTED) store epoch milliseconds plus nano-of-milli and have
// no such limit, which is why only the Arrow writer checks. Java's
// ArrowTimestampNtzWriter multiplies without a check and wraps; storing a
// different instant than the one given would lose data silently.
type tsRange struct {
	lo, hi millisNanos // inclusive
}

// unitRange returns the range of an Arrow timestamp of unit. Seconds and
// milliseconds are derived from epoch milliseconds without multiplying, so
// they hold every value a millisNanos can express.
func unitRange(unit arrow.TimeUnit) tsRange {
	var perMilli, nanosPerUnit int64
	switch unit {
	case arrow.Microsecond:
		perMilli, nanosPerUnit = 1000, 1000
	case arrow.Nanosecond:
		perMilli, nanosPerUnit = 1000000, 1
	default:
		return tsRange{lo: millisNanos{math.MinInt64, 0}, hi: millisNanos{math.MaxInt64, 999999}}
	}
	// The stored value is ms × perMilli + ns / nanosPerUnit; split the int64
	// extremes into that form (floor division keeps the remainder ≥ 0).
	loMs := math.MinInt64 / perMilli
	if loMs*perMilli != math.MinInt64 {
		loMs--
	}
	hiMs := math.MaxInt64 / perMilli
	return tsRange{
		lo: millisNanos{loMs, int32((math.MinInt64 - loMs*perMilli) * nanosPerUnit)},
		hi: millisNanos{hiMs, int32((math.MaxInt64-hiMs*perMilli)*nanosPerUnit + nanosPerUnit - 1)},
	}
}

func (r tsRange) holds(x millisNanos) bool {
	return !x.before(r.lo) && !r.hi.before(x)
}

func (x millisNanos) before(y millisNanos) bool {
	return x.ms < y.ms || x.ms == y.ms && x.ns < y.ns
}

// outside explains why x cannot be stored, naming x and the range as
// timestamps (UTC for TIMESTAMP_LTZ, wall clock for TIMESTAMP).
func (r tsRange) outside(x millisNanos, ltz bool) string {
	return fmt.Sprintf("%s is outside the range an ARROW log table can store for this precision, %s … %s",
		x.format(ltz), r.lo.format(ltz), r.hi.format(ltz))
}

// format renders x without going through UnixNano, which is exactly what
// overflows here.
func (x millisNanos) format(ltz bool) string {
	sec := x.ms / 1000
	ms := x.ms % 1000
	if ms < 0 {
		sec, ms = sec-1, ms+1000
	}
	t := time.Unix(sec, ms*1e6+int64(x.ns)).UTC()
	if ltz {
		return t.Format("2006-01-02 15:04:05.999999999Z07:00")
	}
	return t.Format("2006-01-02 15:04:05.999999999")
}

// timestampConv turns a value of the TIMESTAMP or TIMESTAMP_LTZ column t
// into epoch milliseconds and nano-of-milli, refusing what rng cannot hold.
func timestampConv(t schema.DataType, rng tsRange) func(v any) (millisNanos, error) {
	ltz := t.Root == schema.RootTimestampLTZ
	return func(v any) (millisNanos, error) {
		var mn millisNanos
		switch x := v.(type) {
		case codec.TimestampNTZ:
			if ltz {
				return mn, typeErr(t, v, "want codec.TimestampLTZ")
			}
			mn = millisNanos{x.Millis, x.NanoOfMilli}
		case codec.TimestampLTZ:
			if !ltz {
				return mn, typeErr(t, v, "want codec.TimestampNTZ")
			}
			mn = millisNanos{x.Millis, x.NanoOfMilli}
		case time.Time:
			// Epoch milliseconds of an int64 end ±292 million years out;
			// beyond them the conversion itself would wrap.
			if sec := x.Unix(); sec > math.MaxInt64/1000-1 || sec < math.MinInt64/1000+1 {
				return mn, typeErr(t, v, "outside the ±292 million years of epoch milliseconds")
			}
			if ltz {
				l := codec.TimestampLTZOf(x)
				mn = millisNanos{l.Millis, l.NanoOfMilli}
			} else {
				n := codec.TimestampNTZOf(x)
				mn = millisNanos{n.Millis, n.NanoOfMilli}
			}
		default:
			return mn, typeErr(t, v, "want a codec timestamp")
		}
		if mn.ns < 0 || mn.ns > 999999 {
			return mn, typeErr(t, v, "nano-of-milli outside 0..999999")
		}
		if !rng.holds(mn) {
			return mn, typeErr(t, v, rng.outside(mn, ltz))
		}
		return mn, nil
	}
}

// RangeCheck returns a check of whole rows of cols against the timestamp
// range of ARROW log batches, or nil when no column (or nested field) has
// a microsecond or nanosecond timestamp. A primary-key table whose
// table.log.format is ARROW needs it: the server turns every write into an
// ARROW changelog record and would wrap such a value there, silently, even
// though the row format of the key-value store holds it.
func RangeCheck(cols []schema.Column) func(row []any) error {
	checks := make([]func(any) error, len(cols))
	some := false
	for i, c := range cols {
		checks[i] = valueRangeCheck(c.Type)
		some = some || checks[i] != nil
	}
	if !some {
		return nil
	}
	return func(row []any) error {
		for i, check := range checks {
			if check == nil || i >= len(row) {
				continue
			}
			if err := check(row[i]); err != nil {
				return fmt.Errorf("arrowipc: column %q: %w", cols[i].Name, err)
			}
		}
		return nil
	}
}

// valueRangeCheck checks one value of t, walking into arrays, maps and
// rows; nil when t contains no timestamp that can fall outside its unit.
// Values of the wrong shape are left to the row encoder to report.
func valueRangeCheck(t schema.DataType) func(any) error {
	switch t.Root {
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		unit, err := timeUnit(t)
		if err != nil || unit == arrow.Second || unit == arrow.Millisecond {
			return nil
		}
		conv := timestampConv(t, unitRange(unit))
		return func(v any) error {
			if v == nil {
				return nil
			}
			_, err := conv(v)
			return err
		}
	case schema.RootArray:
		elem := valueRangeCheck(*t.Elem)
		if elem == nil {
			return nil
		}
		return func(v any) error {
			xs, _ := v.([]any)
			return firstErr(len(xs), func(i int) error { return elem(xs[i]) })
		}
	case schema.RootMap:
		key, val := valueRangeCheck(*t.Key), valueRangeCheck(*t.Value)
		if key == nil && val == nil {
			return nil
		}
		return func(v any) error {
			m, _ := v.(codec.Map)
			return firstErr(len(m.Keys), func(i int) error {
				if key != nil {
					if err := key(m.Keys[i]); err != nil {
						return err
					}
				}
				if val != nil && i < len(m.Values) {
					return val(m.Values[i])
				}
				return nil
			})
		}
	case schema.RootRow:
		fields := make([]func(any) error, len(t.Fields))
		some := false
		for i, f := range t.Fields {
			fields[i] = valueRangeCheck(f.Type)
			some = some || fields[i] != nil
		}
		if !some {
			return nil
		}
		return func(v any) error {
			xs, _ := v.([]any)
			return firstErr(min(len(xs), len(fields)), func(i int) error {
				if fields[i] == nil {
					return nil
				}
				return fields[i](xs[i])
			})
		}
	}
	return nil
}

func firstErr(n int, f func(i int) error) error {
	for i := 0; i < n; i++ {
		if err := f(i); err != nil {
			return err
		}
	}
	return nil
}

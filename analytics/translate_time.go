package analytics

import (
	"fmt"
	"strings"

	"github.com/gofluss/fluss/parser"
)

// Flink's time functions in DuckDB. The engine's time zone is the
// session's (session.setZone), so the functions that read or write the
// wall-clock time of an instant (a TIMESTAMP_LTZ, an epoch number) do so
// in that zone, as Flink's do.

// defaultTimeFormat is the format of Flink's TO_TIMESTAMP,
// UNIX_TIMESTAMP and FROM_UNIXTIME when none is given.
const defaultTimeFormat = "yyyy-MM-dd HH:mm:ss"

// epochOrigin is date_bin's default origin (DuckDB's time_bucket counts
// from 2000-01-03 instead).
const epochOrigin = "TIMESTAMP '1970-01-01 00:00:00'"

// format returns the strftime/strptime form of the Java date format that
// argument i of f is (a string literal), or records an error.
func (w *writer) format(f *parser.FuncCall, i int, parse bool) (string, bool) {
	java := defaultTimeFormat
	if i < len(f.Args) {
		l, ok := f.Args[i].(*parser.Literal)
		if !ok || l.Kind != parser.LitString {
			w.fail("%s: the format must be a string literal, not %s", strings.ToUpper(f.Name), parser.FormatExpr(f.Args[i]))
			return "", false
		}
		java = l.Text
	}
	s, err := javaPattern(java, parse)
	if err != nil {
		w.fail("%s: format '%s': %v", strings.ToUpper(f.Name), java, err)
		return "", false
	}
	return s, true
}

// javaPattern converts a java.text.SimpleDateFormat pattern (Flink's date
// formats) to DuckDB's strftime (parse: strptime) directives.
func javaPattern(p string, parse bool) (string, error) {
	var b strings.Builder
	lit := func(c byte) {
		if c == '%' {
			b.WriteString("%%")
		} else {
			b.WriteByte(c)
		}
	}
	for i := 0; i < len(p); {
		c := p[i]
		if c == '\'' {
			// 'text' is literal text; '' is a quote, inside or outside.
			if i+1 < len(p) && p[i+1] == '\'' {
				b.WriteByte('\'')
				i += 2
				continue
			}
			j := i + 1
			for ; ; j++ {
				if j >= len(p) {
					return "", fmt.Errorf("unterminated quote")
				}
				if p[j] == '\'' {
					if j+1 >= len(p) || p[j+1] != '\'' {
						break
					}
					j++
				}
				lit(p[j])
			}
			i = j + 1
			continue
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			lit(c)
			i++
			continue
		}
		n := 1
		for i+n < len(p) && p[i+n] == c {
			n++
		}
		d, err := directive(c, n, parse)
		if err != nil {
			return "", err
		}
		b.WriteString(d)
		i += n
	}
	return b.String(), nil
}

// directive is the strftime directive of n repetitions of the pattern
// letter c. Single letters (d, H, ...) print without padding; parsing
// reads either.
func directive(c byte, n int, parse bool) (string, error) {
	unpadded := func(d string) (string, error) {
		switch {
		case n == 1 && !parse:
			return "%-" + d, nil
		case n <= 2:
			return "%" + d, nil
		}
		return "", fmt.Errorf("%s is not a date format field", strings.Repeat(string(c), n))
	}
	switch c {
	case 'y':
		if n == 2 {
			return "%y", nil
		}
		return "%Y", nil
	case 'M':
		switch {
		case n == 3:
			return "%b", nil
		case n >= 4:
			return "%B", nil
		}
		return unpadded("m")
	case 'd':
		return unpadded("d")
	case 'H':
		return unpadded("H")
	case 'h':
		return unpadded("I")
	case 'm':
		return unpadded("M")
	case 's':
		return unpadded("S")
	case 'S':
		switch n {
		case 3:
			return "%g", nil
		case 6:
			return "%f", nil
		case 9:
			return "%n", nil
		}
	case 'a':
		return "%p", nil
	case 'E':
		if n >= 4 {
			return "%A", nil
		}
		return "%a", nil
	case 'D':
		if n == 3 || n == 1 && parse {
			return "%j", nil
		}
		if n == 1 {
			return "%-j", nil
		}
	case 'Z':
		return "%z", nil
	case 'z':
		return "%Z", nil
	}
	return "", fmt.Errorf("the field %s is not supported", strings.Repeat(string(c), n))
}

// timeArg writes a time argument; a string literal is read as a
// TIMESTAMP first, as Flink reads it.
func (w *writer) timeArg(e parser.Expr) {
	if l, ok := e.(*parser.Literal); ok && l.Kind == parser.LitString {
		w.str("CAST(", sqlString(l.Text), " AS TIMESTAMP)")
		return
	}
	w.expr(e)
}

// dateFormat is DATE_FORMAT(time, format).
func dateFormat(w *writer, f *parser.FuncCall) {
	pattern, ok := w.format(f, 1, false)
	if !ok {
		return
	}
	w.str("strftime(")
	w.timeArg(f.Args[0])
	w.str(", ", sqlString(pattern), ")")
}

// parseTime is TO_TIMESTAMP(s [, format]), a TIMESTAMP(3), and
// TO_DATE(s [, format]): NULL when s does not parse, as in Flink.
func parseTime(date bool) func(*writer, *parser.FuncCall) {
	return func(w *writer, f *parser.FuncCall) {
		parse := func() {
			if len(f.Args) == 1 {
				w.str("TRY_CAST(")
				w.expr(f.Args[0])
				w.str(" AS TIMESTAMP)")
				return
			}
			if pattern, ok := w.format(f, 1, true); ok {
				w.str("try_strptime(")
				w.expr(f.Args[0])
				w.str(", ", sqlString(pattern), ")")
			}
		}
		if date {
			w.str("CAST(")
			parse()
			w.str(" AS DATE)")
			return
		}
		w.truncated(3, parse)
	}
}

// toTimestampLTZ is TO_TIMESTAMP_LTZ(epoch [, precision]): the instant
// epoch seconds (precision 0) or milliseconds (3, the default) after
// 1970-01-01 UTC.
func toTimestampLTZ(w *writer, f *parser.FuncCall) {
	p := "3"
	if len(f.Args) == 2 {
		l, ok := f.Args[1].(*parser.Literal)
		if !ok || l.Kind != parser.LitInt || l.Text != "0" && l.Text != "3" {
			w.fail("TO_TIMESTAMP_LTZ: the precision must be 0 or 3, not %s", parser.FormatExpr(f.Args[1]))
			return
		}
		p = l.Text
	}
	if p == "0" {
		w.str("to_timestamp(")
		w.expr(f.Args[0])
		w.str(")")
		return
	}
	w.str("(TIMESTAMPTZ '1970-01-01 00:00:00+00' + to_milliseconds(")
	w.expr(f.Args[0])
	w.str("))")
}

// unixTimestamp is UNIX_TIMESTAMP([s [, format]]): epoch seconds of now
// or of s.
func unixTimestamp(w *writer, f *parser.FuncCall) {
	if len(f.Args) == 0 {
		w.str("(epoch_ms(current_timestamp) // 1000)")
		return
	}
	pattern, ok := w.format(f, 1, true)
	if !ok {
		return
	}
	// The wall-clock time read is the session zone's.
	w.str("(epoch_ms(CAST(try_strptime(")
	w.expr(f.Args[0])
	w.str(", ", sqlString(pattern), ") AS TIMESTAMPTZ)) // 1000)")
}

// fromUnixtime is FROM_UNIXTIME(seconds [, format]): the string of the
// instant.
func fromUnixtime(w *writer, f *parser.FuncCall) {
	pattern, ok := w.format(f, 1, false)
	if !ok {
		return
	}
	w.str("strftime(to_timestamp(")
	w.expr(f.Args[0])
	w.str("), ", sqlString(pattern), ")")
}

// dayOfWeek is DAYOFWEEK(t): 1 for Sunday to 7 for Saturday (DuckDB's
// counts from 0).
func dayOfWeek(w *writer, f *parser.FuncCall) {
	w.str("(dayofweek(")
	w.expr(f.Args[0])
	w.str(") + 1)")
}

// dateBin is date_bin(interval, t [, origin]) (DataFusion's, as Grafana's
// $__dateBin writes it): the start of t's bucket of the interval counted
// from origin, 1970-01-01 by default.
func dateBin(w *writer, f *parser.FuncCall) {
	w.str("time_bucket(")
	w.exprList(f.Args[:2])
	w.str(", ")
	w.argOr(f, 2, epochOrigin)
	w.str(")")
}

// floorCeil is FLOOR(t TO unit) and CEIL(t TO unit). Flink's weeks start
// on Sunday, DuckDB's on Monday; CEIL is the FLOOR of the instant just
// before t plus one unit (t itself when it is on a unit's start).
func (w *writer) floorCeil(x *parser.FloorCeilExpr) {
	unit := strings.ToLower(x.Unit)
	switch {
	case unit == "week" && !x.Ceil:
		w.str("(date_trunc('week', ")
		w.operand(x.X, precMul)
		w.str(" + INTERVAL 1 DAY) - INTERVAL 1 DAY)")
	case unit == "week":
		w.str("(date_trunc('week', ")
		w.operand(x.X, precMul)
		w.str(" + INTERVAL 1 DAY - INTERVAL 1 MICROSECOND) + INTERVAL 6 DAY)")
	case !x.Ceil:
		w.str("date_trunc(", sqlString(unit), ", ")
		w.expr(x.X)
		w.str(")")
	default:
		w.str("(date_trunc(", sqlString(unit), ", ")
		w.operand(x.X, precMul)
		w.str(" - INTERVAL 1 MICROSECOND) + INTERVAL 1 ", x.Unit, ")")
	}
}

// extractUnits are the EXTRACT units DuckDB reads as Flink does.
var extractUnits = map[string]bool{"YEAR": true, "QUARTER": true, "MONTH": true, "WEEK": true, "DAY": true, "HOUR": true, "MINUTE": true,
	"SECOND": true, "MILLISECOND": true, "MICROSECOND": true, "DOY": true}

// extract is EXTRACT(unit FROM t); Flink's DOW counts from 1 (Sunday),
// DuckDB's from 0.
func (w *writer) extract(x *parser.ExtractExpr) {
	switch {
	case x.Unit == "DOW":
		w.str("(extract(dow FROM ")
		w.expr(x.X)
		w.str(") + 1)")
	case extractUnits[x.Unit]:
		w.str("extract(", strings.ToLower(x.Unit), " FROM ")
		w.expr(x.X)
		w.str(")")
	default:
		w.fail("EXTRACT(%s FROM ...) is not supported", x.Unit)
	}
}

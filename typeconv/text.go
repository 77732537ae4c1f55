package typeconv

import (
	"errors"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// decText is an exact decimal number parsed from text: (-1)^neg × digits ×
// 10^exp, with digits free of leading and trailing zeros ("" for zero).
// Keeping the exponent separate means "1e999999999" never allocates.
type decText struct {
	neg    bool
	digits string
	exp    int
}

var errSyntax = errors.New("invalid number syntax")

// maxExponent bounds the exponent accepted in decimal text; anything larger
// is out of range (or all fraction) for every Fluss type.
const maxExponent = 100000

// parseDecText parses "-12.34", "+.5", "7.", "1.5e-3", "1E6" (surrounding
// spaces allowed). NaN and infinities are not decimal numbers.
func parseDecText(s string) (decText, error) {
	s = strings.TrimSpace(s)
	var d decText
	if s != "" && (s[0] == '+' || s[0] == '-') {
		d.neg = s[0] == '-'
		s = s[1:]
	}
	mant, expPart, hasExp := strings.Cut(s, "e")
	if !hasExp {
		mant, expPart, hasExp = strings.Cut(s, "E")
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart == "" && frac == "" || !allDigits(intPart) || !allDigits(frac) {
		return decText{}, errSyntax
	}
	exp := 0
	if hasExp {
		es := expPart
		eneg := false
		if es != "" && (es[0] == '+' || es[0] == '-') {
			eneg = es[0] == '-'
			es = es[1:]
		}
		if es == "" || !allDigits(es) {
			return decText{}, errSyntax
		}
		es = strings.TrimLeft(es, "0")
		if len(es) > 6 {
			exp = maxExponent + 1
		} else if es != "" {
			exp, _ = strconv.Atoi(es)
		}
		if exp > maxExponent {
			exp = maxExponent + 1
		}
		if eneg {
			exp = -exp
		}
	}
	digits := intPart + frac
	exp -= len(frac)
	digits = strings.TrimLeft(digits, "0")
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	d.digits = trimmed
	if d.digits == "" {
		d.neg, d.exp = false, 0
		return d, nil
	}
	d.exp = exp
	return d, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isZero reports whether the number is 0.
func (d decText) isZero() bool { return d.digits == "" }

// intDigits is the number of digits before the decimal point (0 for |d| < 1).
func (d decText) intDigits() int {
	n := len(d.digits) + d.exp
	if n < 0 {
		return 0
	}
	return n
}

// scaled returns d × 10^scale as an integer. It fails with ErrFraction when
// that is not an integer and with ErrOutOfRange when it has more than
// maxDigits digits.
func (d decText) scaled(scale, maxDigits int) (*big.Int, error) {
	if d.isZero() {
		return new(big.Int), nil
	}
	e := d.exp + scale
	if e < 0 {
		return nil, ErrFraction
	}
	if len(d.digits)+e > maxDigits {
		return nil, ErrOutOfRange
	}
	v, ok := new(big.Int).SetString(d.digits+strings.Repeat("0", e), 10)
	if !ok {
		return nil, errSyntax
	}
	if d.neg {
		v.Neg(v)
	}
	return v, nil
}

// decTextOfRat returns the exact decimal form of r, or ErrFraction when r
// has no finite decimal expansion with at most maxFrac fractional digits.
func decTextOfRat(r *big.Rat, maxFrac int) (decText, error) {
	if r.IsInt() {
		return parseDecText(r.Num().String())
	}
	// r = num/den is a finite decimal iff den = 2^a 5^b; then
	// r × 10^max(a,b) is an integer.
	den := new(big.Int).Set(r.Denom())
	q, m := new(big.Int), new(big.Int)
	// divideOut divides den by p as often as it goes, at most maxFrac times.
	divideOut := func(p int64) (int, bool) {
		n, bp := 0, big.NewInt(p)
		for {
			q.QuoRem(den, bp, m)
			if m.Sign() != 0 {
				return n, true
			}
			den.Set(q)
			n++
			if n > maxFrac {
				return n, false
			}
		}
	}
	a, ok := divideOut(2)
	if !ok {
		return decText{}, ErrFraction
	}
	b, ok := divideOut(5)
	if !ok {
		return decText{}, ErrFraction
	}
	if den.Cmp(big.NewInt(1)) != 0 {
		return decText{}, ErrFraction
	}
	k := max(a, b)
	n := new(big.Int).Mul(r.Num(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil))
	n.Quo(n, r.Denom())
	d, err := parseDecText(n.String())
	if err != nil {
		return decText{}, err
	}
	if !d.isZero() {
		d.exp -= k
	}
	return d, nil
}

// Accepted text forms of timestamps. time.Parse accepts a fractional second
// after the seconds even when the layout has none.
var timestampLayouts = []string{
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05 Z07:00",
	"2006-01-02T15:04:05Z07:00:00",
	"2006-01-02 15:04:05Z07:00:00",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05",
	"2006-01-02T15:04Z07:00",
	"2006-01-02 15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02 15:04",
	"2006-01-02",
}

// parseTimestampText parses a timestamp string in loc (used when the text
// has no offset).
func parseTimestampText(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range timestampLayouts {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errors.New("want yyyy-mm-dd[ hh:mm[:ss[.fffffffff]]][Z|±hh:mm]")
}

// parseDateText parses yyyy-mm-dd.
func parseDateText(s string) (time.Time, error) {
	t, err := time.Parse("2006-01-02", strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, errors.New("want yyyy-mm-dd")
	}
	return t, nil
}

// parseTimeText parses hh:mm[:ss[.fffffffff]] into nanoseconds of the day.
func parseTimeText(s string) (int64, error) {
	s = strings.TrimSpace(s)
	bad := errors.New("want hh:mm[:ss[.fffffffff]]")
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, bad
	}
	num := func(p string, max int) (int64, bool) {
		if len(p) != 2 || !allDigits(p) {
			return 0, false
		}
		n, _ := strconv.Atoi(p)
		return int64(n), n <= max
	}
	h, ok1 := num(parts[0], 23)
	m, ok2 := num(parts[1], 59)
	if !ok1 || !ok2 {
		return 0, bad
	}
	var sec, frac int64
	if len(parts) == 3 {
		ss, fs, hasFrac := strings.Cut(parts[2], ".")
		var ok bool
		if sec, ok = num(ss, 59); !ok {
			return 0, bad
		}
		if hasFrac {
			if fs == "" || len(fs) > 9 || !allDigits(fs) {
				return 0, bad
			}
			n, _ := strconv.Atoi(fs + strings.Repeat("0", 9-len(fs)))
			frac = int64(n)
		}
	}
	return ((h*60+m)*60+sec)*int64(time.Second) + frac, nil
}

package flinkyaml

import (
	"math"
	"strconv"
	"strings"
)

// javaDouble renders f like Java's Double.toString (shortest digits, as in
// JDK 19 and later): plain decimals with at least one fractional digit for
// 1e-3 <= |f| < 1e7, computerized scientific notation ("1.0E7", "1.5E-4")
// otherwise. Older JDKs sometimes print one more digit; that difference is
// accepted here.
func javaDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	if f >= 1e-3 && f < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return sign + s
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return sign + mant + "E" + strconv.Itoa(e)
}

package units

import (
	"fmt"
	"math"
	"strings"
	"unicode"
)

// javaTrim mirrors java.lang.String.trim: it strips every character up to
// U+0020 (all ASCII control characters and the space) from both ends, but no
// other Unicode space. In UTF-8 those characters are exactly the bytes <= 0x20.
func javaTrim(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	return s[i:j]
}

// javaLower mirrors String.toLowerCase(Locale.US) (and Locale.ENGLISH) for the
// purpose of matching unit labels: Go lower-cases U+0130 to "i" where Java
// produces "i\u0307", so "1 MİN" must not match "min".
func javaLower(s string) string {
	if !strings.ContainsRune(s, 'İ') {
		return strings.ToLower(s)
	}
	return strings.ToLower(strings.ReplaceAll(s, "İ", "i\u0307"))
}

// javaEqualFold mirrors String.equalsIgnoreCase: same number of UTF-16 units,
// and each pair equal after Character.toUpperCase or, failing that,
// Character.toLowerCase of the upper-cased chars.
func javaEqualFold(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) != len(rb) {
		return false
	}
	for i := range ra {
		x, y := ra[i], rb[i]
		if x == y {
			continue
		}
		ux, uy := unicode.ToUpper(x), unicode.ToUpper(y)
		if ux != uy && unicode.ToLower(ux) != unicode.ToLower(uy) {
			return false
		}
	}
	return true
}

// numErr says why javaParseInt refused its input.
type numErr int

const (
	numOK     numErr = iota
	numSyntax        // not a number in that radix
	numRange         // a number, but outside the type's range
)

// javaParseInt mirrors Long.parseLong(s, radix) (bits 64) and
// Integer.parseInt(s, radix) (bits 32): an optional '+' or '-', then at least
// one digit as Character.digit reads it, which includes every Unicode decimal
// digit of the Basic Multilingual Plane (so "٢٠" is 20) but no space, no
// underscore and no supplementary-plane digit (Java reads those as two
// surrogate chars, neither a digit).
func javaParseInt(s string, radix int64, bits int) (int64, numErr) {
	if s == "" {
		return 0, numSyntax
	}
	minVal := int64(math.MinInt64)
	if bits == 32 {
		minVal = math.MinInt32
	}
	limit := minVal + 1 // -MAX
	rs := []rune(s)
	i, negative := 0, false
	if rs[0] < '0' {
		switch rs[0] {
		case '-':
			negative, limit = true, minVal
		case '+':
		default:
			return 0, numSyntax
		}
		if len(rs) == 1 {
			return 0, numSyntax
		}
		i = 1
	}
	// Java accumulates negatively so that MIN_VALUE parses; keep that shape.
	multmin := limit / radix
	var result int64
	status := numOK
	for ; i < len(rs); i++ {
		d := javaDigit(rs[i], radix)
		if d < 0 {
			return 0, numSyntax
		}
		if status == numRange {
			continue // keep scanning: a later non-digit makes it a syntax error
		}
		if result < multmin {
			status = numRange
			continue
		}
		result *= radix
		if result < limit+d {
			status = numRange
			continue
		}
		result -= d
	}
	if status != numOK {
		return 0, status
	}
	if negative {
		return result, numOK
	}
	return -result, numOK
}

// javaDigit mirrors Character.digit(char, radix) for one rune; it returns -1
// when the rune is not a digit in radix.
func javaDigit(r rune, radix int64) int64 {
	d := int64(-1)
	switch {
	case r >= '0' && r <= '9':
		d = int64(r - '0')
	case r >= 'a' && r <= 'z':
		d = int64(r-'a') + 10
	case r >= 'A' && r <= 'Z':
		d = int64(r-'A') + 10
	case r >= 0xFF21 && r <= 0xFF3A: // fullwidth A-Z
		d = int64(r-0xFF21) + 10
	case r >= 0xFF41 && r <= 0xFF5A: // fullwidth a-z
		d = int64(r-0xFF41) + 10
	case r <= 0xFFFF && unicode.Is(unicode.Nd, r):
		d = ndValue(r)
	}
	if d >= radix {
		return -1
	}
	return d
}

// ndValue is the value of a decimal digit (category Nd). Unicode encodes each
// script's digits as one contiguous run from 0 to 9.
func ndValue(r rune) int64 {
	start := r
	for start > 0 && r-start < 100 && unicode.Is(unicode.Nd, start-1) {
		start--
	}
	return int64(r-start) % 10
}

// isJavaDigit mirrors Character.isDigit(char).
func isJavaDigit(r rune) bool {
	return r <= 0xFFFF && unicode.Is(unicode.Nd, r)
}

// numberFormat renders Java's NumberFormatException.forInputString message.
func numberFormat(s string, radix int64) string {
	if radix == 10 {
		return fmt.Sprintf("For input string: %q", s)
	}
	return fmt.Sprintf("For input string: %q under radix %d", s, radix)
}

package units

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// hadoopPrefixes are StringUtils.TraditionalBinaryPrefix, matched on the
// upper-cased last character.
var hadoopPrefixes = map[rune]int64{
	'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30, 'T': 1 << 40, 'P': 1 << 50, 'E': 1 << 60,
}

// ParseHadoopBytes reads s as Hadoop's Configuration.getLongBytes does
// (H3.4.1 Configuration.java:L1624-1629 → StringUtils.TraditionalBinaryPrefix
// .string2long, StringUtils.java:L906-928): trimmed; if the last character is
// a digit the whole text is a Long; otherwise the last character must be one
// of k m g t p e (any case, powers of 1024) and the rest, untrimmed, a Long.
// So "1m" and "-1k" are valid, "1mb", "1 m" and "1.5g" are not.
func ParseHadoopBytes(s string) (int64, error) {
	t := javaTrim(s)
	if t == "" {
		return 0, errorf(s, "empty value: Hadoop's getLongBytes fails on it (StringIndexOutOfBoundsException)")
	}
	last, size := utf8.DecodeLastRuneInString(t)
	if isJavaDigit(last) {
		v, st := javaParseInt(t, 10, 64)
		if st != numOK {
			return 0, errorf(s, numberFormat(t, 10)+hadoopNumberHint(t, st))
		}
		return v, nil
	}
	prefix, ok := hadoopPrefixes[unicode.ToUpper(last)]
	if !ok || last > unicode.MaxASCII {
		return 0, errorf(s, fmt.Sprintf("Invalid size prefix '%c' in '%s'. Allowed prefixes are k, m, g, t, p, e(case insensitive)", last, t)+hadoopPrefixHint(t))
	}
	numText := t[:len(t)-size]
	num, st := javaParseInt(numText, 10, 64)
	if st != numOK {
		return 0, errorf(s, numberFormat(numText, 10)+hadoopSizeHint(t, numText, st, prefix, last))
	}
	if num > math.MaxInt64/prefix || num < math.MinInt64/prefix {
		return 0, errorf(s, t+" does not fit in a Long")
	}
	return num * prefix, nil
}

// hadoopPrefixHint explains a wrong last character: "10kb", "128MB", "1024b".
func hadoopPrefixHint(t string) string {
	lower := strings.ToLower(t)
	for _, unit := range []string{"kib", "mib", "gib", "tib", "kb", "mb", "gb", "tb", "pb", "eb"} {
		if num, ok := strings.CutSuffix(lower, unit); ok {
			num = strings.TrimRight(num, " ")
			if _, st := javaParseInt(num, 10, 64); st == numOK {
				return fmt.Sprintf("; Hadoop takes a single letter: write %q", num+unit[:1])
			}
		}
	}
	if num, ok := strings.CutSuffix(lower, "b"); ok {
		if _, st := javaParseInt(strings.TrimRight(num, " "), 10, 64); st == numOK {
			return fmt.Sprintf("; Hadoop has no \"b\" suffix: write the number of bytes %q", strings.TrimRight(num, " "))
		}
	}
	return ""
}

// hadoopSizeHint explains a bad number before a valid suffix: "1 m", "1.5g".
func hadoopSizeHint(t, numText string, st numErr, prefix int64, letter rune) string {
	trimmed := strings.TrimRight(numText, " \t")
	if trimmed != numText {
		if _, st := javaParseInt(trimmed, 10, 64); st == numOK {
			return fmt.Sprintf("; Hadoop does not allow a space before the suffix: write %q", trimmed+string(letter))
		}
	}
	if num, _, ok := splitDecimal(numText); ok {
		hint := "; Hadoop sizes are integers"
		if n, exact := scaleDecimal(num, prefix); exact {
			hint += fmt.Sprintf(": write %q", HadoopBytesString(n))
		}
		return hint
	}
	return hadoopNumberHint(numText, st)
}

// hadoopNumberHint explains a plain number Java's parseLong refuses.
func hadoopNumberHint(t string, st numErr) string {
	if st == numRange {
		return "; the value is outside the range of a Java long"
	}
	if strings.ContainsAny(t, ".,") {
		return "; the value must be a whole number"
	}
	return ""
}

package units

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"
)

// MaxDuration is what the duration parsers return for a value Flink or Hadoop
// accepts but time.Duration cannot hold (about 292 years).
const MaxDuration = time.Duration(math.MaxInt64)

// flinkTimeUnit is one constant of Flink's TimeUtils.TimeUnit enum.
type flinkTimeUnit struct {
	name   string
	d      time.Duration
	secs   int64 // seconds per unit, 0 below a second: Java's Duration.of overflows at secs*n > Long.MAX_VALUE
	labels []string
}

// flinkTimeUnits are the labels of F1.20 TimeUtils.java:L175-182 in enum order
// (plural() adds the "s" forms). "m" is a MINUTES label only from Flink 1.15
// (FLINK-24886); flinkTimeUnitFor drops it for older versions.
var flinkTimeUnits = []flinkTimeUnit{
	{"DAYS", 24 * time.Hour, 86400, []string{"d", "day", "days"}},
	{"HOURS", time.Hour, 3600, []string{"h", "hour", "hours"}},
	{"MINUTES", time.Minute, 60, []string{"min", "m", "minute", "minutes"}},
	{"SECONDS", time.Second, 1, []string{"s", "sec", "secs", "second", "seconds"}},
	{"MILLISECONDS", time.Millisecond, 0, []string{"ms", "milli", "millis", "millisecond", "milliseconds"}},
	{"MICROSECONDS", time.Microsecond, 0, []string{"µs", "micro", "micros", "microsecond", "microseconds"}},
	{"NANOSECONDS", time.Nanosecond, 0, []string{"ns", "nano", "nanos", "nanosecond", "nanoseconds"}},
}

func flinkTimeUnitFor(label string, minutesM bool) (flinkTimeUnit, bool) {
	if label == "m" && !minutesM {
		return flinkTimeUnit{}, false
	}
	for _, u := range flinkTimeUnits {
		for _, l := range u.labels {
			if l == label {
				return u, true
			}
		}
	}
	return flinkTimeUnit{}, false
}

// flinkAllTimeUnits renders TimeUnit.getAllUnits() for the error message.
func flinkAllTimeUnits(minutesM bool) string {
	parts := make([]string, 0, len(flinkTimeUnits))
	for _, u := range flinkTimeUnits {
		labels := u.labels
		if u.name == "MINUTES" && !minutesM {
			labels = []string{"min", "minute", "minutes"}
		}
		parts = append(parts, u.name+": ("+strings.Join(labels, " | ")+")")
	}
	return strings.Join(parts, ", ")
}

// ParseFlinkDuration reads s as Flink's TimeUtils.parseDuration does
// (F1.20 TimeUtils.java:L61-106): the text is trimmed, leading ASCII digits
// are the number, the rest (trimmed, lower-cased) is the unit; no unit means
// milliseconds. minutesM says whether "m" means minutes (Flink >= 1.15; before
// that "m" is an unknown unit). Negative numbers, decimals, ISO-8601 and
// several numbers are refused. Numbers beyond a Java long, or beyond a Java
// Duration once multiplied by the unit, are refused as in Flink 1.x; Flink 2.x
// also accepts digit strings beyond a long when the duration still fits, such
// as "9223372036854775807000001 ns", which this parser refuses.
func ParseFlinkDuration(s string, minutesM bool) (time.Duration, error) {
	n, u, err := parseFlinkDuration(s, minutesM)
	if err != nil {
		return 0, err
	}
	return mulSat(n, u), nil
}

// parseFlinkDuration returns the number and the unit exactly as written.
func parseFlinkDuration(s string, minutesM bool) (int64, time.Duration, error) {
	t := javaTrim(s)
	if t == "" {
		return 0, 0, errorf(s, "argument is an empty- or whitespace-only string")
	}
	pos := 0
	for pos < len(t) && t[pos] >= '0' && t[pos] <= '9' {
		pos++
	}
	number := t[:pos]
	label := javaLower(javaTrim(t[pos:]))
	if number == "" {
		return 0, 0, errorf(s, "text does not start with a number"+flinkNoNumberHint(t, "durations", func(d string) (string, bool) {
			return flinkDecimalDuration(d, minutesM)
		}))
	}
	value, st := javaParseInt(number, 10, 64)
	if st != numOK {
		return 0, 0, errorf(s, fmt.Sprintf("The value '%s' cannot be re represented as 64bit number (numeric overflow).", number))
	}
	if label == "" {
		return value, time.Millisecond, nil
	}
	u, ok := flinkTimeUnitFor(label, minutesM)
	if !ok {
		return 0, 0, errorf(s, flinkUnitReason(t, label, minutesM))
	}
	if u.secs > 0 && value > math.MaxInt64/u.secs {
		return 0, 0, errorf(s, fmt.Sprintf("%q does not fit in a Java Duration (java.lang.ArithmeticException: long overflow)", t))
	}
	return value, u.d, nil
}

// flinkUnitReason explains an unknown duration unit label.
func flinkUnitReason(t, label string, minutesM bool) string {
	switch label {
	case "m":
		return `"m" means minutes only from Flink 1.15; use "min"`
	case "us", "usec", "usecs":
		return fmt.Sprintf(`Flink does not accept %q; use "µs" or "micros"`, label)
	case "μs": // Greek small letter mu, not the micro sign
		return `Flink accepts the micro sign "µ" (U+00B5), not the Greek letter "μ" (U+03BC); use "micros"`
	case "mins":
		return `Flink does not accept "mins"; use "min"`
	case "hr", "hrs":
		return fmt.Sprintf(`Flink does not accept %q; use "h"`, label)
	}
	if hint, ok := flinkDecimalDuration(t, minutesM); ok {
		return hint
	}
	return fmt.Sprintf("Time interval unit label '%s' does not match any of the recognized units: %s", label, flinkAllTimeUnits(minutesM))
}

// flinkDecimalDuration explains a duration with a fraction ("1.5 min") and
// suggests the exact integer spelling when there is one.
func flinkDecimalDuration(t string, minutesM bool) (string, bool) {
	num, label, ok := splitDecimal(t)
	if !ok {
		return "", false
	}
	hint := fmt.Sprintf("Flink durations are integers: %q has a fraction", t)
	unit := time.Millisecond
	if label != "" {
		u, ok := flinkTimeUnitFor(javaLower(label), minutesM)
		if !ok {
			return hint, true
		}
		unit = u.d
	}
	if n, exact := scaleDecimal(num, int64(unit)); exact {
		hint += fmt.Sprintf("; write %q", FlinkDurationString(time.Duration(n)))
	}
	return hint, true
}

// flinkNoNumberHint explains text that does not start with a digit.
func flinkNoNumberHint(t, what string, decimal func(string) (string, bool)) string {
	switch {
	case t[0] == '-':
		return fmt.Sprintf("; Flink %s cannot be negative", what)
	case t[0] == '+':
		return `; a leading "+" is not accepted`
	case t[0] == '.' || t[0] == ',':
		if hint, ok := decimal(t); ok {
			return "; " + hint
		}
	case what == "durations" && len(t) > 1 && (t[0] == 'P' || t[0] == 'p'):
		return `; Flink does not read ISO-8601 durations such as "PT10M"; write e.g. "10 min"`
	}
	return ""
}

// splitDecimal splits "1.5 min" into "1.5" and "min"; ok is false unless the
// text is optional digits, one '.' or ',', digits, optional spaces and a unit.
func splitDecimal(t string) (num, label string, ok bool) {
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == len(t) || (t[i] != '.' && t[i] != ',') {
		return "", "", false
	}
	j := i + 1
	for j < len(t) && t[j] >= '0' && t[j] <= '9' {
		j++
	}
	if j == i+1 {
		return "", "", false
	}
	return "0" + t[:i] + "." + t[i+1:j], javaTrim(t[j:]), true
}

// scaleDecimal multiplies a decimal such as "1.5" by unit; exact is false
// when the product is not an integer or does not fit in an int64.
func scaleDecimal(num string, unit int64) (int64, bool) {
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, false
	}
	r.Mul(r, new(big.Rat).SetInt64(unit))
	if !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

// mulSat returns n*unit, saturated at ±MaxDuration.
func mulSat(n int64, unit time.Duration) time.Duration {
	u := int64(unit)
	switch {
	case n > 0 && n > math.MaxInt64/u:
		return MaxDuration
	case n < 0 && n < -math.MaxInt64/u:
		return -MaxDuration
	}
	return time.Duration(n * u)
}

// FlinkDurationMillis returns what Duration.toMillis() gives for the
// java.time.Duration Flink's TimeUtils.parseDuration returns for s: exact
// far beyond time.Duration's 292 years ("987654d" is 85,333,305,600 s), and
// saturated at the largest int64 where toMillis itself would throw
// ArithmeticException. Errors are ParseFlinkDuration's.
func FlinkDurationMillis(s string, minutesM bool) (int64, error) {
	n, u, err := parseFlinkDuration(s, minutesM)
	if err != nil {
		return 0, err
	}
	ms := new(big.Int).Mul(big.NewInt(n), big.NewInt(int64(u)))
	ms.Quo(ms, big.NewInt(int64(time.Millisecond)))
	if !ms.IsInt64() {
		return math.MaxInt64, nil
	}
	return ms.Int64(), nil
}

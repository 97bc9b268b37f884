package units

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// hadoopTimeSuffixes are Configuration.ParsedTimeDuration in enum order; the
// first suffix the value ends with wins, so "ms" is tried before "s" and "m".
var hadoopTimeSuffixes = []struct {
	suffix string
	unit   time.Duration
}{
	{"ns", time.Nanosecond},
	{"us", time.Microsecond},
	{"ms", time.Millisecond},
	{"s", time.Second},
	{"m", time.Minute},
	{"h", time.Hour},
	{"d", 24 * time.Hour},
}

// ParseHadoopDuration reads s as Hadoop's Configuration.getTimeDuration(name,
// default, unit) does (H3.4.1 Configuration.java:L1811-1859): trimmed,
// lower-cased, then the first of the suffixes ns us ms s m h d the value ends
// with is its unit ("m" is minutes); no suffix means unit. The number before
// the suffix must be a Java long: no fraction, no space before the suffix, no
// "min" or "sec". The result is converted to unit the way TimeUnit.convert
// does, truncating toward zero, so "7s" read as minutes is 0. unit must be one
// of ns, µs, ms, s, min, h or 24h. Hadoop 2.x did not lower-case, so there
// "30S" is refused; this parser follows 3.x.
func ParseHadoopDuration(s string, unit time.Duration) (time.Duration, error) {
	if !isHadoopUnit(unit) {
		return 0, errorf(s, fmt.Sprintf("unsupported unit %v: Hadoop's TimeUnit is one of ns, µs, ms, s, min, h, 24h", unit))
	}
	v := javaLower(javaTrim(s))
	numText, vUnit := v, unit
	for _, sfx := range hadoopTimeSuffixes {
		if strings.HasSuffix(v, sfx.suffix) {
			numText, vUnit = v[:len(v)-len(sfx.suffix)], sfx.unit
			break
		}
	}
	raw, st := javaParseInt(numText, 10, 64)
	if st != numOK {
		return 0, errorf(s, numberFormat(numText, 10)+hadoopDurationHint(v, numText, st, unit))
	}
	return mulSat(convertSat(raw, vUnit, unit), unit), nil
}

func isHadoopUnit(u time.Duration) bool {
	for _, sfx := range hadoopTimeSuffixes {
		if sfx.unit == u {
			return true
		}
	}
	return false
}

// convertSat mirrors returnUnit.convert(raw, from) of java.util.concurrent
// .TimeUnit: truncation toward zero when going to a coarser unit, saturation
// at Long.MIN_VALUE/MAX_VALUE when going to a finer one.
func convertSat(raw int64, from, to time.Duration) int64 {
	if from >= to {
		ratio := int64(from / to)
		switch {
		case raw > math.MaxInt64/ratio:
			return math.MaxInt64
		case raw < -(math.MaxInt64 / ratio):
			return math.MinInt64
		}
		return raw * ratio
	}
	return raw / int64(to/from)
}

// hadoopDurationHint explains a refused duration: "10 s", "10min", "1.5h".
func hadoopDurationHint(v, numText string, st numErr, unit time.Duration) string {
	if st == numRange {
		return "; the value is outside the range of a Java long"
	}
	if trimmed := strings.TrimRight(numText, " \t"); trimmed != numText {
		if _, st := javaParseInt(trimmed, 10, 64); st == numOK {
			return fmt.Sprintf("; Hadoop does not allow a space before the unit suffix: write %q", trimmed+v[len(numText):])
		}
	}
	if num, label, ok := splitDecimal(v); ok {
		hint := "; Hadoop durations are integers"
		u := unit
		if label != "" {
			u = hadoopWordUnit(label)
		}
		if n, exact := scaleDecimal(num, int64(u)); u != 0 && exact {
			hint += fmt.Sprintf(": write %q", hadoopDurationString(time.Duration(n)))
		}
		return hint
	}
	i := 0
	for i < len(v) && (v[i] == '-' || v[i] >= '0' && v[i] <= '9') {
		i++
	}
	if word := strings.TrimSpace(v[i:]); i > 0 && word != "" {
		if u := hadoopWordUnit(word); u != 0 {
			return fmt.Sprintf("; Hadoop's time suffixes are ns, us, ms, s, m, h, d: write %q", strings.TrimSpace(v[:i])+hadoopSuffix(u))
		}
		if word == "µs" || word == "μs" {
			return fmt.Sprintf("; Hadoop spells microseconds \"us\": write %q", v[:i]+"us")
		}
	}
	return ""
}

// hadoopWordUnit maps suffixes and spelled-out unit words to a unit.
func hadoopWordUnit(w string) time.Duration {
	switch w {
	case "ns", "nanos", "nanosecond", "nanoseconds":
		return time.Nanosecond
	case "us", "micros", "microsecond", "microseconds":
		return time.Microsecond
	case "ms", "millis", "millisecond", "milliseconds":
		return time.Millisecond
	case "s", "sec", "secs", "second", "seconds":
		return time.Second
	case "m", "min", "mins", "minute", "minutes":
		return time.Minute
	case "h", "hr", "hrs", "hour", "hours":
		return time.Hour
	case "d", "day", "days":
		return 24 * time.Hour
	}
	return 0
}

func hadoopSuffix(u time.Duration) string {
	for _, sfx := range hadoopTimeSuffixes {
		if sfx.unit == u {
			return sfx.suffix
		}
	}
	return ""
}

// hadoopDurationString spells d with the largest exact Hadoop suffix.
func hadoopDurationString(d time.Duration) string {
	for i := len(hadoopTimeSuffixes) - 1; i >= 0; i-- {
		sfx := hadoopTimeSuffixes[i]
		if d%sfx.unit == 0 {
			return fmt.Sprintf("%d%s", d/sfx.unit, sfx.suffix)
		}
	}
	return fmt.Sprintf("%dns", d)
}

package units

import (
	"fmt"
	"strconv"
	"time"
)

var byteUnits = []struct {
	n    uint64
	name string
}{
	{1 << 60, "EiB"}, {1 << 50, "PiB"}, {1 << 40, "TiB"}, {1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"},
}

// FormatBytes renders n bytes for a message in the largest binary unit it
// reaches: exact multiples as integers ("128 MiB"), others with one decimal
// ("1.5 GiB"), and values below 1 KiB in bytes ("1000 B").
func FormatBytes(n int64) string {
	sign, u := "", uint64(n) //nolint:gosec // G115: replaced below when n < 0
	if n < 0 {
		sign, u = "-", uint64(^n)+1 //nolint:gosec // G115: ^n >= 0; the magnitude of MinInt64 fits a uint64
	}
	for _, bu := range byteUnits {
		if u < bu.n {
			continue
		}
		if u%bu.n == 0 {
			return fmt.Sprintf("%s%d %s", sign, u/bu.n, bu.name)
		}
		return sign + strconv.FormatFloat(float64(u)/float64(bu.n), 'f', 1, 64) + " " + bu.name
	}
	return fmt.Sprintf("%s%d B", sign, u)
}

var durationUnits = []struct {
	d    time.Duration
	name string
}{
	{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "min"}, {time.Second, "s"},
	{time.Millisecond, "ms"}, {time.Microsecond, "µs"}, {time.Nanosecond, "ns"},
}

// FormatDuration renders d for a message in the largest unit among d, h, min,
// s, ms (then µs, ns) that divides it exactly: "10 min", "90 s", "36 h".
// Zero is "0 s".
func FormatDuration(d time.Duration) string {
	if d == 0 {
		return "0 s"
	}
	for _, u := range durationUnits {
		if d%u.d == 0 {
			return fmt.Sprintf("%d %s", d/u.d, u.name)
		}
	}
	return fmt.Sprintf("%d ns", d) // unreachable: every duration is whole nanoseconds
}

// flinkCanonicalUnits are labels every Flink version's parseDuration takes
// (before 1.10 only ms, s, min and h existed; "m" needs 1.15). Below a
// millisecond, "micros" and "ns" (1.10+) stay ASCII: "µs" would be misread by
// a JVM whose default charset is not UTF-8, and "us" is not a Flink unit.
var flinkCanonicalUnits = []struct {
	d    time.Duration
	name string
}{
	{time.Hour, "h"}, {time.Minute, "min"}, {time.Second, "s"}, {time.Millisecond, "ms"},
	{time.Microsecond, "micros"}, {time.Nanosecond, "ns"},
}

// FlinkDurationString spells d for a Flink config value that every Flink
// version reads: the largest exact unit among h, min, s and ms ("10 min",
// "30 s", "500 ms", "48 h" for two days), never "m" or "d"; zero is "0 ms"; a
// duration that is not whole milliseconds is written in "micros" or "ns".
func FlinkDurationString(d time.Duration) string {
	if d == 0 {
		return "0 ms"
	}
	for _, u := range flinkCanonicalUnits {
		if d%u.d == 0 {
			return fmt.Sprintf("%d %s", d/u.d, u.name)
		}
	}
	return fmt.Sprintf("%d ns", d) // unreachable: ns divides every duration
}

// HadoopBytesString spells n bytes for Hadoop's getLongBytes: the largest of
// g, m and k that divides it exactly ("1m", "128m"), else the plain number
// ("1048577").
func HadoopBytesString(n int64) string {
	if n != 0 {
		for _, u := range []struct {
			n    int64
			name string
		}{{1 << 30, "g"}, {1 << 20, "m"}, {1 << 10, "k"}} {
			if n%u.n == 0 {
				return fmt.Sprintf("%d%s", n/u.n, u.name)
			}
		}
	}
	return strconv.FormatInt(n, 10)
}

// FormatMillis renders ms milliseconds like FormatDuration, for values
// beyond time.Duration's range too: "85333305600 s" is "987654 d".
func FormatMillis(ms int64) string {
	if ms == 0 {
		return "0 s"
	}
	for _, u := range durationUnits {
		um := int64(u.d / time.Millisecond)
		if um == 0 {
			break
		}
		if ms%um == 0 {
			return fmt.Sprintf("%d %s", ms/um, u.name)
		}
	}
	return fmt.Sprintf("%d ms", ms)
}

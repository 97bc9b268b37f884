package units

import (
	"fmt"
	"math"
	"math/bits"
)

// flinkMemoryUnits are MemorySize.MemoryUnit (F1.20
// flink-core-api/.../MemorySize.java:L358-363): powers of 1024, no "p"/"e".
var flinkMemoryUnits = []struct {
	mult   int64
	labels []string
}{
	{1, []string{"b", "bytes"}},
	{1 << 10, []string{"k", "kb", "kibibytes"}},
	{1 << 20, []string{"m", "mb", "mebibytes"}},
	{1 << 30, []string{"g", "gb", "gibibytes"}},
	{1 << 40, []string{"t", "tb", "tebibytes"}},
}

const flinkAllMemoryUnits = "(b | bytes) / (k | kb | kibibytes) / (m | mb | mebibytes) / (g | gb | gibibytes) / (t | tb | tebibytes)"

func flinkMemoryUnitFor(label string) (int64, bool) {
	for _, u := range flinkMemoryUnits {
		for _, l := range u.labels {
			if l == label {
				return u.mult, true
			}
		}
	}
	return 0, false
}

// ParseFlinkMemorySize reads s as Flink's MemorySize.parseBytes does
// (F1.20 MemorySize.java:L267-334) and returns bytes: trimmed, leading ASCII
// digits, then an optional case-insensitive unit b|bytes, k|kb|kibibytes,
// m|mb|mebibytes, g|gb|gibibytes, t|tb|tebibytes (all powers of 1024); no unit
// means bytes. There is no "p" or "e", no fraction and no sign.
func ParseFlinkMemorySize(s string) (int64, error) {
	t := javaTrim(s)
	if t == "" {
		return 0, errorf(s, "argument is an empty- or whitespace-only string")
	}
	pos := 0
	for pos < len(t) && t[pos] >= '0' && t[pos] <= '9' {
		pos++
	}
	number := t[:pos]
	label := javaLower(javaTrim(t[pos:]))
	if number == "" {
		return 0, errorf(s, "text does not start with a number"+flinkNoNumberHint(t, "memory sizes", flinkDecimalMemory))
	}
	value, st := javaParseInt(number, 10, 64)
	if st != numOK {
		return 0, errorf(s, fmt.Sprintf("The value '%s' cannot be re represented as 64bit number (numeric overflow).", number))
	}
	mult := int64(1)
	if label != "" {
		m, ok := flinkMemoryUnitFor(label)
		if !ok {
			return 0, errorf(s, flinkMemoryUnitReason(t, label))
		}
		mult = m
	}
	hi, lo := bits.Mul64(uint64(value), uint64(mult)) //nolint:gosec // G115: value and mult are non-negative here; overflow is what the next line checks
	if hi != 0 || lo > math.MaxInt64 {
		return 0, errorf(s, fmt.Sprintf("The value '%s' cannot be re represented as 64bit number of bytes (numeric overflow).", s))
	}
	return int64(lo), nil
}

// flinkMemoryUnitReason explains an unknown memory unit.
func flinkMemoryUnitReason(t, label string) string {
	switch label {
	case "p", "pb", "pebibytes", "e", "eb", "exbibytes":
		return fmt.Sprintf(`Flink memory sizes have no %q unit; the largest unit is "t"`, label)
	case "kib", "mib", "gib", "tib":
		return fmt.Sprintf(`Flink does not accept %q; use %q or %q (Flink's units are already powers of 1024)`, label, label[:1], label[:1]+"b")
	}
	if hint, ok := flinkDecimalMemory(t); ok {
		return hint
	}
	return fmt.Sprintf("Memory size unit '%s' does not match any of the recognized units: %s", label, flinkAllMemoryUnits)
}

// flinkDecimalMemory explains a memory size with a fraction ("1.5g").
func flinkDecimalMemory(t string) (string, bool) {
	num, label, ok := splitDecimal(t)
	if !ok {
		return "", false
	}
	hint := fmt.Sprintf("Flink memory sizes are integers: %q has a fraction", t)
	mult := int64(1)
	if label != "" {
		m, ok := flinkMemoryUnitFor(javaLower(label))
		if !ok {
			return hint, true
		}
		mult = m
	}
	if n, exact := scaleDecimal(num, mult); exact {
		hint += fmt.Sprintf("; write %q", flinkMemoryString(n))
	}
	return hint, true
}

// flinkMemoryString spells n bytes with the largest exact Flink unit.
func flinkMemoryString(n int64) string {
	for i := len(flinkMemoryUnits) - 1; i > 0; i-- {
		u := flinkMemoryUnits[i]
		if n != 0 && n%u.mult == 0 {
			return fmt.Sprintf("%d%s", n/u.mult, u.labels[0])
		}
	}
	return fmt.Sprintf("%db", n)
}

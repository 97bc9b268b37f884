package units

import (
	"testing"
	"time"
)

var durationSeeds = []string{
	"424562ns", "565731µs", "1234", "667766 s", "7657623m", "987654d", "1 MIN", "      155      ms   ",
	"", "16 16 17 18 ms", "-100 ms", "100000000000000000000000000000000 ms", "1.5 min", ".5s", "PT10M",
	"10us", "10μs", "1 MİN", "106751991167301d",
}

func FuzzParseFlinkDuration(f *testing.F) {
	for _, s := range durationSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		old, errOld := ParseFlinkDuration(s, false)
		cur, errCur := ParseFlinkDuration(s, true)
		if errOld == nil && (errCur != nil || cur != old) {
			t.Fatalf("%q: accepted before 1.15 as %v but not the same from 1.15 (%v, %v)", s, old, cur, errCur)
		}
		if errCur == nil && cur < 0 {
			t.Fatalf("%q: negative duration %v", s, cur)
		}
		if errCur != nil && errCur.(*Error).Reason == "" {
			t.Fatalf("%q: empty reason", s)
		}
	})
}

func FuzzParseFlinkMemorySize(f *testing.F) {
	for _, s := range []string{"1234", "667766 kb", "1 T", "16 gjah", "-100 bytes", "1.5g", "100000000000000 tb", "8388608t", "1 MiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseFlinkMemorySize(s)
		if err == nil && n < 0 {
			t.Fatalf("%q: negative size %d", s, n)
		}
		if err == nil {
			if back, err := ParseFlinkMemorySize(flinkMemoryString(n)); err != nil || back != n {
				t.Fatalf("%q: %d renders as %q, which parses as %d, %v", s, n, flinkMemoryString(n), back, err)
			}
		}
	})
}

func FuzzParseHadoopBytes(f *testing.F) {
	for _, s := range []string{"0", "-1k", "1230K", "10e", "-10e", "10kb", "1MBCDE", "1 m", "1.5g", "", "\u0661k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseHadoopBytes(s)
		if err != nil {
			return
		}
		if back, err := ParseHadoopBytes(HadoopBytesString(n)); err != nil || back != n {
			t.Fatalf("%q: %d renders as %q, which parses as %d, %v", s, n, HadoopBytesString(n), back, err)
		}
	})
}

func FuzzParseHadoopDuration(f *testing.F) {
	for _, s := range []string{"7s", "1d", "30", "2m", "30S", "1441m", "6 h", "10min", "1.5h", "-1", "9223372036854775807d"} {
		f.Add(s, int64(time.Second))
	}
	f.Fuzz(func(t *testing.T, s string, unit int64) {
		d, err := ParseHadoopDuration(s, time.Duration(unit))
		if err == nil && d%time.Duration(unit) != 0 && d != MaxDuration && d != -MaxDuration {
			t.Fatalf("%q in %v: %v is not a whole number of the unit", s, time.Duration(unit), d)
		}
	})
}

func FuzzParseHadoopLong(f *testing.F) {
	for _, s := range []string{"20", "020", " -20 ", " -20xyz ", "0x10", "0xF", "-0x10", "-0x10xyz", "0x-5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, errL := ParseHadoopLong(s)
		i, errI := ParseHadoopInt(s)
		if errI == nil && (errL != nil || int64(i) != l) {
			t.Fatalf("%q: getInt %d but getLong %d, %v", s, i, l, errL)
		}
		// These must only not panic.
		_, _ = ParseHadoopBool(s)
		_, _ = ParseFlinkBool(s)
		_, _ = ParseFlinkInt(s)
	})
}

func FuzzFlinkDurationString(f *testing.F) {
	for _, d := range []int64{0, 1, 1500, int64(time.Millisecond), int64(10 * time.Minute), int64(48 * time.Hour), int64(MaxDuration)} {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, n int64) {
		if n < 0 {
			n = -(n + 1)
		}
		d := time.Duration(n)
		s := FlinkDurationString(d)
		if back, err := ParseFlinkDuration(s, false); err != nil || back != d {
			t.Fatalf("%v renders as %q, which parses as %v, %v", d, s, back, err)
		}
		FormatDuration(d)
		FormatBytes(n)
	})
}

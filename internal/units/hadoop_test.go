package units

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestParseHadoopBytes(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int64
		err  string // exact reason when it starts with "=", else a substring
	}{
		// Hadoop 3.4.1 TestStringUtils.testTraditionalBinaryPrefix L162-214
		{name: "TestStringUtils 0", in: "0", want: 0},
		{name: "TestStringUtils 1k", in: "1k", want: 1024},
		{name: "TestStringUtils -1k", in: "-1k", want: -1024},
		{name: "TestStringUtils 1230K", in: "1230K", want: 1259520},
		{name: "TestStringUtils -1230K", in: "-1230K", want: -1259520},
		{name: "TestStringUtils 100m", in: "100m", want: 104857600},
		{name: "TestStringUtils -100M", in: "-100M", want: -104857600},
		{name: "TestStringUtils 891g", in: "891g", want: 956703965184},
		{name: "TestStringUtils -891G", in: "-891G", want: -956703965184},
		{name: "TestStringUtils 456t", in: "456t", want: 501377302265856},
		{name: "TestStringUtils -456T", in: "-456T", want: -501377302265856},
		{name: "TestStringUtils 10p", in: "10p", want: 11258999068426240},
		{name: "TestStringUtils -10P", in: "-10P", want: -11258999068426240},
		{name: "TestStringUtils 1e", in: "1e", want: 1152921504606846976},
		{name: "TestStringUtils -1E", in: "-1E", want: -1152921504606846976},
		{name: "TestStringUtils too large 10e", in: "10e", err: "=10e does not fit in a Long"},
		{name: "TestStringUtils too small -10e", in: "-10e", err: "=-10e does not fit in a Long"},
		{name: "TestStringUtils invalid prefix 10kb", in: "10kb", err: "Invalid size prefix 'b' in '10kb'. Allowed prefixes are k, m, g, t, p, e(case insensitive)"},
		// Hadoop 3.4.1 TestConfiguration.testHumanReadableValues L1288-1306
		{name: "testHumanReadableValues 1m", in: "1m", want: 1048576},
		{name: "testHumanReadableValues 1M", in: "1M", want: 1048576},
		{name: "testHumanReadableValues 1MBCDE", in: "1MBCDE", err: `=For input string: "1MBCD"`},
		// Hadoop 3.4.1 TestConfiguration.testIntegerValues L1256-1286 (getLongBytes rows)
		{name: "testIntegerValues 20", in: "20", want: 20},
		{name: "testIntegerValues 020 is decimal", in: "020", want: 20},
		{name: "testIntegerValues -20", in: "-20", want: -20},
		{name: "testIntegerValues trimmed", in: " -20 ", want: -20},

		// Hadoop 3.4.1 StringUtils.java L906-928 (string2long): dfs.blocksize traps
		{name: "hdfs-default blocksize", in: "134217728", want: 134217728},
		{name: "128m", in: "128m", want: 128 << 20},
		{name: "mb is not a Hadoop suffix", in: "1mb", err: `Invalid size prefix 'b' in '1mb'. Allowed prefixes are k, m, g, t, p, e(case insensitive); Hadoop takes a single letter: write "1m"`},
		{name: "MiB is not a Hadoop suffix", in: "128MiB", err: `write "128m"`},
		{name: "b is not a Hadoop suffix", in: "1048576b", err: `Hadoop has no "b" suffix: write the number of bytes "1048576"`},
		{name: "space before suffix", in: "1 m", err: `For input string: "1 "; Hadoop does not allow a space before the suffix: write "1m"`},
		{name: "fraction", in: "1.5g", err: `For input string: "1.5"; Hadoop sizes are integers: write "1536m"`},
		{name: "empty", in: "", err: "empty value"},
		{name: "blank", in: " \t ", err: "empty value"},
		{name: "XML value with newlines is trimmed", in: "\n  64m\n", want: 64 << 20},
		{name: "Unicode digits as Character.isDigit reads them", in: "\u0661\u0662k", want: 12 << 10},
		{name: "largest exabyte count", in: "7e", want: 7 << 60},
		{name: "long overflow without suffix", in: "9223372036854775808", err: "outside the range of a Java long"},
		{name: "plus sign", in: "+2k", want: 2048},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseHadoopBytes(tt.in)
			if tt.err != "" {
				checkReason(t, fmt.Sprintf("ParseHadoopBytes(%q)", tt.in), err, tt.err)
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseHadoopBytes(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestParseHadoopDuration(t *testing.T) {
	const day = 24 * time.Hour
	tests := []struct {
		name string
		in   string
		unit time.Duration
		want time.Duration
		err  string
	}{
		// Hadoop 3.4.1 TestConfiguration.testTimeDuration L1498-1545
		{name: "testTimeDuration 7s as MINUTES", in: "7s", unit: time.Minute, want: 0},
		{name: "testTimeDuration 7s as SECONDS", in: "7s", unit: time.Second, want: 7 * time.Second},
		{name: "testTimeDuration 7s as MILLISECONDS", in: "7s", unit: time.Millisecond, want: 7000 * time.Millisecond},
		{name: "testTimeDuration 7s as MICROSECONDS", in: "7s", unit: time.Microsecond, want: 7000000 * time.Microsecond},
		{name: "testTimeDuration 7s as NANOSECONDS", in: "7s", unit: time.Nanosecond, want: 7000000000},
		{name: "testTimeDuration 1d as DAYS", in: "1d", unit: day, want: day},
		{name: "testTimeDuration 1d as HOURS", in: "1d", unit: time.Hour, want: 24 * time.Hour},
		{name: "testTimeDuration 1d as MINUTES", in: "1d", unit: time.Minute, want: 1440 * time.Minute},
		{name: "testTimeDuration 30 default SECONDS", in: "30", unit: time.Second, want: 30 * time.Second},
		{name: "testTimeDuration 10 default SECONDS", in: "10", unit: time.Second, want: 10 * time.Second},
		{name: "testTimeDuration 30s", in: "30s", unit: time.Second, want: 30 * time.Second},
		{name: "testTimeDuration 2m is minutes", in: "2m", unit: time.Second, want: 120 * time.Second},
		{name: "testTimeDuration 30S case-insensitive", in: "30S", unit: time.Second, want: 30 * time.Second},
		{name: "testTimeDuration suffix ns", in: "1ns", unit: time.Nanosecond, want: time.Nanosecond},
		{name: "testTimeDuration suffix us", in: "1us", unit: time.Microsecond, want: time.Microsecond},
		{name: "testTimeDuration suffix ms", in: "1ms", unit: time.Millisecond, want: time.Millisecond},
		{name: "testTimeDuration suffix s", in: "1s", unit: time.Second, want: time.Second},
		{name: "testTimeDuration suffix m", in: "1m", unit: time.Minute, want: time.Minute},
		{name: "testTimeDuration suffix h", in: "1h", unit: time.Hour, want: time.Hour},
		{name: "testTimeDuration suffix d", in: "1d", unit: day, want: day},
		// H3.4.1 TestConfiguration.testTimeDurationWarning (follows testTimeDuration): truncation
		{name: "testTimeDurationWarning 23h as DAYS", in: "23h", unit: day, want: 0},
		{name: "testTimeDurationWarning 30m as DAYS", in: "30m", unit: day, want: 0},
		{name: "testTimeDurationWarning 40s as DAYS", in: "40s", unit: day, want: 0},
		{name: "testTimeDurationWarning 10us as DAYS", in: "10us", unit: day, want: 0},
		{name: "testTimeDurationWarning 40000ms as DAYS", in: "40000ms", unit: day, want: 0},
		{name: "testTimeDurationWarning 1441m as DAYS", in: "1441m", unit: day, want: day},
		{name: "testTimeDurationWarning 1441m as HOURS", in: "1441m", unit: time.Hour, want: 24 * time.Hour},
		{name: "testTimeDurationWarning 1441m as MINUTES", in: "1441m", unit: time.Minute, want: 1441 * time.Minute},
		{name: "testTimeDurationWarning 1441m as SECONDS", in: "1441m", unit: time.Second, want: 86460 * time.Second},

		// Hadoop 3.4.1 hdfs-default.xml L890-939 and Configuration.getTimeDuration: dfs.datanode.directoryscan.interval and friends
		{name: "directoryscan default", in: "21600", unit: time.Second, want: 6 * time.Hour},
		{name: "directoryscan 3.1.3 shipped value", in: "21600s", unit: time.Second, want: 6 * time.Hour},
		{name: "negative disables the scanner", in: "-1", unit: time.Second, want: -time.Second},
		{name: "space before suffix", in: "6 h", unit: time.Second, err: `For input string: "6 "; Hadoop does not allow a space before the unit suffix: write "6h"`},
		{name: "min is not a suffix", in: "10min", unit: time.Second, err: `For input string: "10min"; Hadoop's time suffixes are ns, us, ms, s, m, h, d: write "10m"`},
		{name: "secs is not a suffix", in: "30 secs", unit: time.Second, err: `write "30s"`},
		{name: "fraction", in: "1.5h", unit: time.Second, err: `For input string: "1.5"; Hadoop durations are integers: write "90m"`},
		{name: "micro sign", in: "10µs", unit: time.Millisecond, err: `Hadoop spells microseconds "us": write "10us"`},
		{name: "empty", in: "", unit: time.Second, err: `For input string: ""`},
		{name: "trimmed and lower-cased", in: " 5M \n", unit: time.Second, want: 5 * time.Minute},
		{name: "ms wins over s", in: "250ms", unit: time.Second, want: 0},
		{name: "long overflow", in: "9223372036854775808", unit: time.Second, err: "outside the range of a Java long"},
		{name: "TimeUnit.convert saturates, then time.Duration saturates", in: "9223372036854775807d", unit: time.Second, want: MaxDuration},
		{name: "saturates negative", in: "-9223372036854775807d", unit: time.Second, want: -MaxDuration},
		{name: "unsupported unit", in: "1", unit: 2 * time.Second, err: "unsupported unit 2s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseHadoopDuration(tt.in, tt.unit)
			if tt.err != "" {
				checkReason(t, fmt.Sprintf("ParseHadoopDuration(%q, %v)", tt.in, tt.unit), err, tt.err)
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseHadoopDuration(%q, %v) = %v, %v; want %v", tt.in, tt.unit, got, err, tt.want)
			}
		})
	}
}

func TestParseHadoopLongAndInt(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   int64
		intErr bool   // getInt refuses (range) while getLong accepts
		err    string // both refuse
	}{
		// Hadoop 3.4.1 TestConfiguration.testIntegerValues L1256-1286
		{name: "testIntegerValues 20", in: "20", want: 20},
		{name: "testIntegerValues 020", in: "020", want: 20},
		{name: "testIntegerValues -20", in: "-20", want: -20},
		{name: "testIntegerValues trimmed", in: " -20 ", want: -20},
		{name: "testIntegerValues -20xyz", in: " -20xyz ", err: `For input string: "-20xyz"`},
		// Hadoop 3.4.1 TestConfiguration.testHexValues L1224-1254
		{name: "testHexValues 0x10", in: "0x10", want: 16},
		{name: "testHexValues 0xF", in: "0xF", want: 15},
		{name: "testHexValues -0x10", in: "-0x10", want: -16},
		{name: "testHexValues -0x10xyz", in: "-0x10xyz", err: `For input string: "-10xyz" under radix 16`},

		{name: "upper-case 0X", in: "0XfF", want: 255},
		{name: "sign after 0x is Java's parseLong sign", in: "0x-5", want: -5},
		{name: "int range", in: "2147483648", want: 2147483648, intErr: true},
		{name: "long max", in: "9223372036854775807", want: 9223372036854775807, intErr: true},
		{name: "long overflow", in: "9223372036854775808", err: "outside the range of a Java"},
		{name: "size suffix", in: "10k", err: "takes no size suffix"},
		{name: "time suffix", in: "30s", err: "takes no time suffix"},
		{name: "empty", in: "", err: `For input string: ""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseHadoopLong(tt.in)
			gotInt, intErr := ParseHadoopInt(tt.in)
			if tt.err != "" {
				checkReason(t, fmt.Sprintf("ParseHadoopLong(%q)", tt.in), err, tt.err)
				if intErr == nil {
					t.Fatalf("ParseHadoopInt(%q) = %d, want an error", tt.in, gotInt)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseHadoopLong(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
			switch {
			case tt.intErr && (intErr == nil || !strings.Contains(intErr.Error(), "range of a Java int")):
				t.Fatalf("ParseHadoopInt(%q) = %d, %v; want a range error", tt.in, gotInt, intErr)
			case !tt.intErr && (intErr != nil || int64(gotInt) != tt.want):
				t.Fatalf("ParseHadoopInt(%q) = %d, %v; want %d", tt.in, gotInt, intErr, tt.want)
			}
		})
	}
}

func TestParseHadoopBool(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   bool
		wantOK bool
	}{
		// Hadoop 3.4.1 TestConfiguration.testBooleanValues L1309-1332
		{name: "testBooleanValues true", in: "true", want: true, wantOK: true},
		{name: "testBooleanValues false", in: "false", want: false, wantOK: true},
		{name: "testBooleanValues spaced true", in: "  true ", want: true, wantOK: true},
		{name: "testBooleanValues spaced false", in: " false ", want: false, wantOK: true},
		{name: "testBooleanValues foo falls back", in: "foo", wantOK: false},
		{name: "testBooleanValues TRUE", in: "TRUE", want: true, wantOK: true},
		{name: "testBooleanValues FALSE", in: "FALSE", want: false, wantOK: true},
		{name: "testBooleanValues empty falls back", in: "", wantOK: false},

		{name: "yes falls back", in: "yes", wantOK: false},
		{name: "1 falls back", in: "1", wantOK: false},
		{name: "long s equals s ignoring case, as in Java", in: "fal\u017fe", want: false, wantOK: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseHadoopBool(tt.in)
			if got != tt.want || ok != tt.wantOK {
				t.Fatalf("ParseHadoopBool(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// checkReason fails unless err is a *Error whose reason equals want (when
// want starts with "=") or contains it.
func checkReason(t *testing.T, call string, err error, want string) {
	t.Helper()
	ue, ok := err.(*Error)
	if !ok {
		t.Fatalf("%s error = %v, want *Error", call, err)
	}
	if exact, isExact := strings.CutPrefix(want, "="); isExact {
		if ue.Reason != exact {
			t.Fatalf("%s reason = %q, want %q", call, ue.Reason, exact)
		}
		return
	}
	if !strings.Contains(ue.Reason, want) {
		t.Fatalf("%s reason = %q, want it to contain %q", call, ue.Reason, want)
	}
}

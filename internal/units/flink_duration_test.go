package units

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func TestParseFlinkDuration(t *testing.T) {
	const day = 24 * time.Hour
	tests := []struct {
		name     string
		in       string
		minutesM bool          // Flink >= 1.15
		n        int64         // number as written, for valid input
		unit     time.Duration // unit as written, for valid input
		err      string        // substring of the reason, for invalid input
	}{
		// Flink 1.20 TimeUtilsTest testParseDurationNanos L36-43
		{name: "TimeUtilsTest nanos ns", in: "424562ns", n: 424562, unit: time.Nanosecond},
		{name: "TimeUtilsTest nanos nano", in: "424562nano", n: 424562, unit: time.Nanosecond},
		{name: "TimeUtilsTest nanos nanos", in: "424562nanos", n: 424562, unit: time.Nanosecond},
		{name: "TimeUtilsTest nanos nanosecond", in: "424562nanosecond", n: 424562, unit: time.Nanosecond},
		{name: "TimeUtilsTest nanos nanoseconds", in: "424562nanoseconds", n: 424562, unit: time.Nanosecond},
		{name: "TimeUtilsTest nanos space", in: "424562 ns", n: 424562, unit: time.Nanosecond},
		// Flink 1.20 TimeUtilsTest testParseDurationMicros L46-55
		{name: "TimeUtilsTest micros µs", in: "565731µs", n: 565731, unit: time.Microsecond},
		{name: "TimeUtilsTest micros micro", in: "565731micro", n: 565731, unit: time.Microsecond},
		{name: "TimeUtilsTest micros micros", in: "565731micros", n: 565731, unit: time.Microsecond},
		{name: "TimeUtilsTest micros microsecond", in: "565731microsecond", n: 565731, unit: time.Microsecond},
		{name: "TimeUtilsTest micros microseconds", in: "565731microseconds", n: 565731, unit: time.Microsecond},
		{name: "TimeUtilsTest micros space", in: "565731 µs", n: 565731, unit: time.Microsecond},
		// Flink 1.20 TimeUtilsTest testParseDurationMillis L58-66
		{name: "TimeUtilsTest millis bare number", in: "1234", n: 1234, unit: time.Millisecond},
		{name: "TimeUtilsTest millis ms", in: "1234ms", n: 1234, unit: time.Millisecond},
		{name: "TimeUtilsTest millis milli", in: "1234milli", n: 1234, unit: time.Millisecond},
		{name: "TimeUtilsTest millis millis", in: "1234millis", n: 1234, unit: time.Millisecond},
		{name: "TimeUtilsTest millis millisecond", in: "1234millisecond", n: 1234, unit: time.Millisecond},
		{name: "TimeUtilsTest millis milliseconds", in: "1234milliseconds", n: 1234, unit: time.Millisecond},
		{name: "TimeUtilsTest millis space", in: "1234 ms", n: 1234, unit: time.Millisecond},
		// Flink 1.20 TimeUtilsTest testParseDurationSeconds L69-76
		{name: "TimeUtilsTest seconds s", in: "667766s", n: 667766, unit: time.Second},
		{name: "TimeUtilsTest seconds sec", in: "667766sec", n: 667766, unit: time.Second},
		{name: "TimeUtilsTest seconds secs", in: "667766secs", n: 667766, unit: time.Second},
		{name: "TimeUtilsTest seconds second", in: "667766second", n: 667766, unit: time.Second},
		{name: "TimeUtilsTest seconds seconds", in: "667766seconds", n: 667766, unit: time.Second},
		{name: "TimeUtilsTest seconds space", in: "667766 s", n: 667766, unit: time.Second},
		// Flink 1.20 TimeUtilsTest testParseDurationMinutes L79-85 ("m" needs 1.15, FLINK-24886)
		{name: "TimeUtilsTest minutes m", in: "7657623m", minutesM: true, n: 7657623, unit: time.Minute},
		{name: "TimeUtilsTest minutes min", in: "7657623min", n: 7657623, unit: time.Minute},
		{name: "TimeUtilsTest minutes minute", in: "7657623minute", n: 7657623, unit: time.Minute},
		{name: "TimeUtilsTest minutes minutes", in: "7657623minutes", n: 7657623, unit: time.Minute},
		{name: "TimeUtilsTest minutes space", in: "7657623 min", n: 7657623, unit: time.Minute},
		// Flink 1.20 TimeUtilsTest testParseDurationHours L88-93
		{name: "TimeUtilsTest hours h", in: "987654h", n: 987654, unit: time.Hour},
		{name: "TimeUtilsTest hours hour", in: "987654hour", n: 987654, unit: time.Hour},
		{name: "TimeUtilsTest hours hours", in: "987654hours", n: 987654, unit: time.Hour},
		{name: "TimeUtilsTest hours space", in: "987654 h", n: 987654, unit: time.Hour},
		// Flink 1.20 TimeUtilsTest testParseDurationDays L96-101 (beyond time.Duration: saturates)
		{name: "TimeUtilsTest days d", in: "987654d", n: 987654, unit: day},
		{name: "TimeUtilsTest days day", in: "987654day", n: 987654, unit: day},
		{name: "TimeUtilsTest days days", in: "987654days", n: 987654, unit: day},
		{name: "TimeUtilsTest days space", in: "987654 d", n: 987654, unit: day},
		// Flink 1.20 TimeUtilsTest testParseDurationUpperCase L104-112
		{name: "TimeUtilsTest upper NS", in: "1 NS", n: 1, unit: time.Nanosecond},
		{name: "TimeUtilsTest upper MICRO", in: "1 MICRO", n: 1, unit: time.Microsecond},
		{name: "TimeUtilsTest upper MS", in: "1 MS", n: 1, unit: time.Millisecond},
		{name: "TimeUtilsTest upper S", in: "1 S", n: 1, unit: time.Second},
		{name: "TimeUtilsTest upper MIN", in: "1 MIN", n: 1, unit: time.Minute},
		{name: "TimeUtilsTest upper H", in: "1 H", n: 1, unit: time.Hour},
		{name: "TimeUtilsTest upper D", in: "1 D", n: 1, unit: day},
		// Flink 1.20 TimeUtilsTest testParseDurationTrim L115-118
		{name: "TimeUtilsTest trim bare", in: "      155      ", n: 155, unit: time.Millisecond},
		{name: "TimeUtilsTest trim unit", in: "      155      ms   ", n: 155, unit: time.Millisecond},
		// Flink 1.20 TimeUtilsTest testParseDurationInvalid L121-149
		{name: "TimeUtilsTest invalid empty", in: "", err: "argument is an empty- or whitespace-only string"},
		{name: "TimeUtilsTest invalid blank", in: "     ", err: "argument is an empty- or whitespace-only string"},
		{name: "TimeUtilsTest invalid no number", in: "foobar or fubar or foo bazz", err: "text does not start with a number"},
		{name: "TimeUtilsTest invalid wrong unit", in: "16 gjah", err: "Time interval unit label 'gjah' does not match any of the recognized units: DAYS: (d | day | days)"},
		{name: "TimeUtilsTest invalid multiple numbers", in: "16 16 17 18 ms", err: "Time interval unit label '16 17 18 ms'"},
		{name: "TimeUtilsTest invalid negative", in: "-100 ms", err: "text does not start with a number; Flink durations cannot be negative"},
		// Flink 1.20 TimeUtilsTest testParseDurationNumberOverflow L152-155
		{name: "TimeUtilsTest overflow", in: "100000000000000000000000000000000 ms", err: "The value '100000000000000000000000000000000' cannot be re represented as 64bit number (numeric overflow)."},

		// Flink 1.20 TimeUtils.java L175-182 ("m" from 1.15, FLINK-24886): version and spelling traps
		{name: "m before 1.15", in: "10m", err: `"m" means minutes only from Flink 1.15; use "min"`},
		{name: "m before 1.15 upper", in: "10 M", err: `"m" means minutes only from Flink 1.15`},
		{name: "m minutes from 1.15", in: "10m", minutesM: true, n: 10, unit: time.Minute},
		{name: "us is not a Flink unit", in: "10us", minutesM: true, err: `Flink does not accept "us"; use "µs" or "micros"`},
		{name: "Greek mu is not the micro sign", in: "10μs", err: `not the Greek letter "μ"`},
		{name: "mins is not a Flink unit", in: "10 mins", minutesM: true, err: `Flink does not accept "mins"; use "min"`},
		{name: "hrs is not a Flink unit", in: "2hrs", err: `Flink does not accept "hrs"; use "h"`},
		{name: "decimal with exact rewrite", in: "1.5 min", err: `Flink durations are integers: "1.5 min" has a fraction; write "90 s"`},
		{name: "decimal without unit is ms", in: "2.5", err: `write "2500 micros"`},
		{name: "decimal without integer part", in: ".5s", err: `text does not start with a number; Flink durations are integers: ".5s" has a fraction; write "500 ms"`},
		{name: "decimal comma", in: "1,5 h", err: `write "90 min"`},
		{name: "ISO-8601", in: "PT10M", err: `text does not start with a number; Flink does not read ISO-8601 durations`},
		{name: "leading plus", in: "+10 s", err: `a leading "+" is not accepted`},
		{name: "several units", in: "1h30min", err: "Time interval unit label 'h30min'"},
		{name: "corpus statefun 5sec", in: "5sec", n: 5, unit: time.Second},
		{name: "Java trim strips control characters", in: "\t\x0b10 s\x00\r", n: 10, unit: time.Second},
		{name: "Java trim keeps no-break space", in: "10\u00a0s", err: "Time interval unit label '\u00a0s'"},
		{name: "Java Locale.US lower-cases dotted capital I to i plus dot", in: "1 MİN", err: "Time interval unit label 'mi\u0307n'"},
		{name: "unit is trimmed before lookup", in: "10 \t ms", n: 10, unit: time.Millisecond},
		{name: "largest long of ms fits a Java Duration", in: "9223372036854775807 ms", n: 9223372036854775807, unit: time.Millisecond},
		{name: "largest day count that fits a Java Duration", in: "106751991167300d", n: 106751991167300, unit: day},
		{name: "Java Duration overflow", in: "106751991167301d", err: "long overflow"},
		{name: "minutes overflow", in: "153722867280912931 min", err: "long overflow"},
		{name: "zero", in: "0", n: 0, unit: time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, unit, err := parseFlinkDuration(tt.in, tt.minutesM)
			got, gotErr := ParseFlinkDuration(tt.in, tt.minutesM)
			if tt.err != "" {
				var ue *Error
				if !errors.As(gotErr, &ue) || ue.Input != tt.in {
					t.Fatalf("ParseFlinkDuration(%q) error = %v, want *Error for the input", tt.in, gotErr)
				}
				if !strings.Contains(gotErr.Error(), tt.err) {
					t.Fatalf("ParseFlinkDuration(%q) error = %q, want it to contain %q", tt.in, gotErr, tt.err)
				}
				if err == nil {
					t.Fatalf("parseFlinkDuration(%q) accepted what ParseFlinkDuration refused", tt.in)
				}
				return
			}
			if err != nil || gotErr != nil {
				t.Fatalf("ParseFlinkDuration(%q) error = %v / %v", tt.in, err, gotErr)
			}
			if n != tt.n || unit != tt.unit {
				t.Errorf("parseFlinkDuration(%q) = %d × %v, want %d × %v", tt.in, n, unit, tt.n, tt.unit)
			}
			if want := mulSat(tt.n, tt.unit); got != want {
				t.Errorf("ParseFlinkDuration(%q) = %v, want %v", tt.in, got, want)
			}
		})
	}
}

func TestParseFlinkDurationSaturates(t *testing.T) {
	// Flink 1.20 TimeUtilsTest testParseDurationDays: "987654d" is valid Flink but beyond time.Duration.
	got, err := ParseFlinkDuration("987654d", false)
	if err != nil || got != MaxDuration {
		t.Fatalf("ParseFlinkDuration(987654d) = %v, %v; want MaxDuration", got, err)
	}
}

// TestFlinkDurationMillis mirrors TimeUtilsTest (Flink flink-core
// src/test/java/org/apache/flink/util/TimeUtilsTest.java): parseDuration
// returns a java.time.Duration, so values beyond time.Duration's 292 years
// are read exactly; the model keeps milliseconds (Duration.toMillis()).
func TestFlinkDurationMillis(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		display string
	}{
		{"987654d", 987654 * 86400 * 1000, "987654 d"}, // 85,333,305,600 s
		{"106751d", 106751 * 86400 * 1000, "106751 d"}, // just under time.Duration's range
		{"106752d", 106752 * 86400 * 1000, "106752 d"}, // just over it
		{"9223372036854775807 ms", math.MaxInt64, "9223372036854775807 ms"},
		{"9223372036854775807 s", math.MaxInt64, "9223372036854775807 ms"}, // toMillis would throw; saturated
		{"1500 micros", 1, "1 ms"},                                         // toMillis truncates
		{"10 min", 600000, "10 min"},
	}
	for _, tt := range tests {
		got, err := FlinkDurationMillis(tt.in, true)
		if err != nil || got != tt.want {
			t.Errorf("FlinkDurationMillis(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
		if d := FormatMillis(got); d != tt.display {
			t.Errorf("FormatMillis(%d) = %q, want %q", got, d, tt.display)
		}
	}
	if _, err := FlinkDurationMillis("1.5 s", true); err == nil {
		t.Error("1.5 s accepted")
	}
}

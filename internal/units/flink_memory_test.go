package units

import (
	"errors"
	"strings"
	"testing"
)

func TestParseFlinkMemorySize(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int64
		err  string
	}{
		// Flink 1.20 MemorySizeTest testParseBytes L90-96
		{name: "MemorySizeTest bytes bare", in: "1234", want: 1234},
		{name: "MemorySizeTest bytes b", in: "1234b", want: 1234},
		{name: "MemorySizeTest bytes space b", in: "1234 b", want: 1234},
		{name: "MemorySizeTest bytes bytes", in: "1234bytes", want: 1234},
		{name: "MemorySizeTest bytes space bytes", in: "1234 bytes", want: 1234},
		// Flink 1.20 MemorySizeTest testParseKibiBytes L99-106
		{name: "MemorySizeTest kibi k", in: "667766k", want: 667766 << 10},
		{name: "MemorySizeTest kibi space k", in: "667766 k", want: 667766 << 10},
		{name: "MemorySizeTest kibi kb", in: "667766kb", want: 667766 << 10},
		{name: "MemorySizeTest kibi space kb", in: "667766 kb", want: 667766 << 10},
		{name: "MemorySizeTest kibi kibibytes", in: "667766kibibytes", want: 667766 << 10},
		{name: "MemorySizeTest kibi space kibibytes", in: "667766 kibibytes", want: 667766 << 10},
		// Flink 1.20 MemorySizeTest testParseMebiBytes L109-116
		{name: "MemorySizeTest mebi m", in: "7657623m", want: 7657623 << 20},
		{name: "MemorySizeTest mebi space m", in: "7657623 m", want: 7657623 << 20},
		{name: "MemorySizeTest mebi mb", in: "7657623mb", want: 7657623 << 20},
		{name: "MemorySizeTest mebi space mb", in: "7657623 mb", want: 7657623 << 20},
		{name: "MemorySizeTest mebi mebibytes", in: "7657623mebibytes", want: 7657623 << 20},
		{name: "MemorySizeTest mebi space mebibytes", in: "7657623 mebibytes", want: 7657623 << 20},
		// Flink 1.20 MemorySizeTest testParseGibiBytes L119-126
		{name: "MemorySizeTest gibi g", in: "987654g", want: 987654 << 30},
		{name: "MemorySizeTest gibi space g", in: "987654 g", want: 987654 << 30},
		{name: "MemorySizeTest gibi gb", in: "987654gb", want: 987654 << 30},
		{name: "MemorySizeTest gibi space gb", in: "987654 gb", want: 987654 << 30},
		{name: "MemorySizeTest gibi gibibytes", in: "987654gibibytes", want: 987654 << 30},
		{name: "MemorySizeTest gibi space gibibytes", in: "987654 gibibytes", want: 987654 << 30},
		// Flink 1.20 MemorySizeTest testParseTebiBytes L129-136
		{name: "MemorySizeTest tebi t", in: "1234567t", want: 1234567 << 40},
		{name: "MemorySizeTest tebi space t", in: "1234567 t", want: 1234567 << 40},
		{name: "MemorySizeTest tebi tb", in: "1234567tb", want: 1234567 << 40},
		{name: "MemorySizeTest tebi space tb", in: "1234567 tb", want: 1234567 << 40},
		{name: "MemorySizeTest tebi tebibytes", in: "1234567tebibytes", want: 1234567 << 40},
		{name: "MemorySizeTest tebi space tebibytes", in: "1234567 tebibytes", want: 1234567 << 40},
		// Flink 1.20 MemorySizeTest testUpperCase L139-145
		{name: "MemorySizeTest upper B", in: "1 B", want: 1},
		{name: "MemorySizeTest upper K", in: "1 K", want: 1 << 10},
		{name: "MemorySizeTest upper M", in: "1 M", want: 1 << 20},
		{name: "MemorySizeTest upper G", in: "1 G", want: 1 << 30},
		{name: "MemorySizeTest upper T", in: "1 T", want: 1 << 40},
		// Flink 1.20 MemorySizeTest testTrimBeforeParse L148-151
		{name: "MemorySizeTest trim bare", in: "      155      ", want: 155},
		{name: "MemorySizeTest trim unit", in: "      155      bytes   ", want: 155},
		// Flink 1.20 MemorySizeTest testParseInvalid L154-182
		{name: "MemorySizeTest invalid empty", in: "", err: "argument is an empty- or whitespace-only string"},
		{name: "MemorySizeTest invalid blank", in: "     ", err: "argument is an empty- or whitespace-only string"},
		{name: "MemorySizeTest invalid no number", in: "foobar or fubar or foo bazz", err: "text does not start with a number"},
		{name: "MemorySizeTest invalid wrong unit", in: "16 gjah", err: "Memory size unit 'gjah' does not match any of the recognized units: (b | bytes) / (k | kb | kibibytes)"},
		{name: "MemorySizeTest invalid multiple numbers", in: "16 16 17 18 bytes", err: "Memory size unit '16 17 18 bytes'"},
		{name: "MemorySizeTest invalid negative", in: "-100 bytes", err: "Flink memory sizes cannot be negative"},
		{name: "MemorySizeTest invalid fraction (master)", in: "1.5g", err: `Flink memory sizes are integers: "1.5g" has a fraction; write "1536m"`},
		// Flink 1.20 MemorySizeTest testParseNumberOverflow / testParseNumberTimeUnitOverflow L191-194
		{name: "MemorySizeTest number overflow", in: "100000000000000000000000000000000 bytes", err: "cannot be re represented as 64bit number (numeric overflow)."},
		{name: "MemorySizeTest unit overflow", in: "100000000000000 tb", err: "The value '100000000000000 tb' cannot be re represented as 64bit number of bytes (numeric overflow)."},

		// Flink 1.20 MemorySize.java L267-334: no p/e; cross-system traps
		{name: "no p unit", in: "10p", err: `Flink memory sizes have no "p" unit; the largest unit is "t"`},
		{name: "no e unit", in: "1 EB", err: `no "eb" unit`},
		{name: "MiB is not a Flink unit", in: "1 MiB", err: `Flink does not accept "mib"; use "m" or "mb"`},
		{name: "1mb is valid in Flink (not in Hadoop)", in: "1mb", want: 1 << 20},
		{name: "corpus playground 1600Mb", in: "1600Mb", want: 1600 << 20},
		{name: "corpus nexmark 8G", in: "8G", want: 8 << 30},
		{name: "largest tebibyte count", in: "8388607t", want: 8388607 << 40},
		{name: "2^63 bytes overflows", in: "8388608t", err: "numeric overflow"},
		{name: "largest long", in: "9223372036854775807", want: 9223372036854775807},
		{name: "zero", in: "0", want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFlinkMemorySize(tt.in)
			if tt.err != "" {
				var ue *Error
				if !errors.As(err, &ue) || !strings.Contains(ue.Reason, tt.err) {
					t.Fatalf("ParseFlinkMemorySize(%q) error = %v, want it to contain %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseFlinkMemorySize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
		})
	}
}

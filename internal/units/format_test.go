package units

import (
	"math"
	"testing"
	"time"
)

func TestFormatBytes(t *testing.T) {
	tests := []struct {
		name string
		in   int64
		want string
	}{
		{name: "dfs.blocksize default", in: 134217728, want: "128 MiB"},
		{name: "min-block-size default", in: 1048576, want: "1 MiB"},
		{name: "below a KiB", in: 1000, want: "1000 B"},
		{name: "one decimal", in: 3 << 29, want: "1.5 GiB"},
		{name: "zero", in: 0, want: "0 B"},
		{name: "one KiB", in: 1024, want: "1 KiB"},
		{name: "negative", in: -2048, want: "-2 KiB"},
		{name: "data-inline-threshold default", in: 20 << 10, want: "20 KiB"},
		{name: "min int64", in: math.MinInt64, want: "-8 EiB"},
		{name: "max int64", in: math.MaxInt64, want: "8.0 EiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FormatBytes(tt.in); got != tt.want {
				t.Errorf("FormatBytes(%d) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		name string
		in   time.Duration
		want string
	}{
		{name: "checkpoint timeout default", in: 10 * time.Minute, want: "10 min"},
		{name: "seconds", in: 90 * time.Second, want: "90 s"},
		{name: "hours", in: 36 * time.Hour, want: "36 h"},
		{name: "days", in: 48 * time.Hour, want: "2 d"},
		{name: "millis", in: 1500 * time.Millisecond, want: "1500 ms"},
		{name: "micros", in: time.Microsecond, want: "1 µs"},
		{name: "nanos", in: 7, want: "7 ns"},
		{name: "zero", in: 0, want: "0 s"},
		{name: "negative", in: -time.Second, want: "-1 s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FormatDuration(tt.in); got != tt.want {
				t.Errorf("FormatDuration(%v) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestFlinkDurationString(t *testing.T) {
	tests := []struct {
		name string
		in   time.Duration
		want string
	}{
		{name: "minutes", in: 10 * time.Minute, want: "10 min"},
		{name: "seconds", in: 30 * time.Second, want: "30 s"},
		{name: "millis", in: 500 * time.Millisecond, want: "500 ms"},
		{name: "hours", in: time.Hour, want: "1 h"},
		{name: "days in hours", in: 48 * time.Hour, want: "48 h"},
		{name: "micros", in: 1500 * time.Microsecond, want: "1500 micros"},
		{name: "nanos", in: 1, want: "1 ns"},
		{name: "zero", in: 0, want: "0 ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FlinkDurationString(tt.in)
			if got != tt.want {
				t.Fatalf("FlinkDurationString(%v) = %q, want %q", tt.in, got, tt.want)
			}
			// Valid on every Flink version, so also before 1.15.
			if back, err := ParseFlinkDuration(got, false); err != nil || back != tt.in {
				t.Errorf("ParseFlinkDuration(%q) = %v, %v; want %v", got, back, err, tt.in)
			}
		})
	}
}

func TestHadoopBytesString(t *testing.T) {
	tests := []struct {
		name string
		in   int64
		want string
	}{
		{name: "one MiB", in: 1 << 20, want: "1m"},
		{name: "128 MiB", in: 128 << 20, want: "128m"},
		{name: "GiB", in: 2 << 30, want: "2g"},
		{name: "TiB in g", in: 1 << 40, want: "1024g"},
		{name: "KiB", in: 3 << 10, want: "3k"},
		{name: "1.5 KiB has no exact k", in: 1536, want: "1536"},
		{name: "not a multiple", in: 1048577, want: "1048577"},
		{name: "zero", in: 0, want: "0"},
		{name: "negative", in: -1 << 20, want: "-1m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := HadoopBytesString(tt.in)
			if got != tt.want {
				t.Fatalf("HadoopBytesString(%d) = %q, want %q", tt.in, got, tt.want)
			}
			if back, err := ParseHadoopBytes(got); err != nil || back != tt.in {
				t.Errorf("ParseHadoopBytes(%q) = %d, %v; want %d", got, back, err, tt.in)
			}
		})
	}
}

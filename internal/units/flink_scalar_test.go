package units

import (
	"strings"
	"testing"
)

func TestParseFlinkBool(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
		err  bool
	}{
		// Flink 1.20 ConfigurationUtils.convertToBoolean L590-606
		{name: "true", in: "true", want: true},
		{name: "TRUE", in: "TRUE", want: true},
		{name: "False", in: "False", want: false},
		{name: "long s upper-cases to S as in Java", in: "fal\u017fe", want: false},
		{name: "not trimmed", in: " true", err: true},
		{name: "empty", in: "", err: true},
		// Flink 1.20 YamlParserUtilsTest L83-95: YAML 1.1 words are strings
		{name: "yes", in: "yes", err: true},
		{name: "on", in: "on", err: true},
		{name: "y", in: "y", err: true},
		{name: "1", in: "1", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFlinkBool(tt.in)
			if tt.err {
				if err == nil || !strings.Contains(err.Error(), "Unrecognized option for boolean: "+tt.in+". Expected either true or false(case insensitive)") {
					t.Fatalf("ParseFlinkBool(%q) = %v, %v; want the upstream error", tt.in, got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseFlinkBool(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestParseFlinkInt(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
		err  string
	}{
		// Flink 1.20 ConfigurationUtils.convertToInt L562-577 (Integer.parseInt)
		{name: "plain", in: "4096", want: 4096},
		{name: "negative", in: "-1", want: -1},
		{name: "plus sign", in: "+7", want: 7},
		{name: "leading zero is decimal", in: "010", want: 10},
		{name: "int max", in: "2147483647", want: 2147483647},
		{name: "int min", in: "-2147483648", want: -2147483648},
		{name: "Unicode digits as Character.digit reads them", in: "\u0664\u0660\u0669\u0666", want: 4096},
		{name: "int overflow", in: "2147483648", err: `For input string: "2147483648"; the value is outside the range of a Java int`},
		{name: "not trimmed", in: " 4096", err: `For input string: " 4096"; remove the surrounding spaces`},
		{name: "unit", in: "4kb", err: `For input string: "4kb"`},
		{name: "fraction", in: "1.0", err: "must be a whole number"},
		{name: "empty", in: "", err: `For input string: ""`},
		{name: "sign only", in: "-", err: `For input string: "-"`},
		{name: "supplementary-plane digit is two chars to Java", in: "\U0001D7CF", err: "For input string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFlinkInt(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ParseFlinkInt(%q) = %d, %v; want error containing %q", tt.in, got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseFlinkInt(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
		})
	}
}

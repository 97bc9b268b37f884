package flinkyaml

import (
	"math"
	"testing"
)

// TestFlowString checks the scalar style the snakeyaml-engine emitter picks
// for a string inside a flow list (YamlParserUtils.toYAMLString).
func TestFlowString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// F1.20 YamlParserUtilsTest testToYAMLString: ['*', '123', 'true']
		{"testToYAMLString star", "*", "'*'"},
		{"testToYAMLString int-like", "123", "'123'"},
		{"testToYAMLString bool-like", "true", "'true'"},
		{"plain word", "a", "a"},
		{"empty", "", "''"},
		{"inner space", "a b", "a b"},
		{"leading space", " a", "' a'"},
		{"trailing space", "a ", "'a '"},
		{"colon space", "a: b", "'a: b'"},
		{"colon inside", "hdfs://nn:8020/x", "'hdfs://nn:8020/x'"},
		{"comma", "a,b", "'a,b'"},
		{"apostrophe inside", "it's", "it's"},
		{"apostrophe first", "'x", "'''x'"},
		{"dash word", "-a", "-a"},
		{"dash space", "- a", "'- a'"},
		{"hash first", "#x", "'#x'"},
		{"space hash", "a #b", "'a #b'"},
		{"hash inside", "a#b", "a#b"},
		{"null words", "null", "'null'"},
		{"tilde", "~", "'~'"},
		{"float-like", "1.5", "'1.5'"},
		{"octal-like 0o", "0o10", "'0o10'"},
		{"leading zero int", "010", "'010'"},
		{"YAML 1.1 int stays plain", "1_000", "1_000"},
		{"YAML 1.1 bool stays plain", "yes", "yes"},
		{"env reference", "${HOME}", "'${HOME}'"},
		{"line break", "a\nb", `"a\nb"`},
		{"tab", "a\tb", `"a\tb"`},
		{"quote and backslash in double", "\"\\\n", `"\"\\\n"`},
		{"unicode", "ключ", "ключ"},
		{"document marker", "---", "'---'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := flowString(tc.in, false); got != tc.want {
				t.Errorf("flowString(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestJavaDouble(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{1000, "1000.0"},
		{1.5, "1.5"},
		{0.001, "0.001"},
		{0.0001, "1.0E-4"},
		{1e7, "1.0E7"},
		{123456789, "1.23456789E8"},
		{-2.5e-5, "-2.5E-5"},
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
		{math.NaN(), "NaN"},
		{3.14, "3.14"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := javaDouble(tc.in); got != tc.want {
				t.Errorf("javaDouble(%v) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestResolvePlain(t *testing.T) {
	tests := []struct {
		in   string
		want value
	}{
		{"", value{kind: kNull}},
		{"Null", value{kind: kNull}},
		{"NULL", value{kind: kNull}},
		{"nULL", value{kind: kStr, text: "nULL"}},
		{"-0", value{kind: kInt, text: "0"}},
		{"0x", value{kind: kStr, text: "0x"}},
		{"0o8", value{kind: kStr, text: "0o8"}},
		{"-0o7", value{kind: kStr, text: "-0o7"}},
		{"2147483648", value{kind: kInt, text: "2147483648"}},
		{"1e400", value{kind: kFloat, text: "Infinity"}},
		{"+.5", value{kind: kFloat, text: "0.5"}},
		{".", value{kind: kStr, text: "."}},
		{"1.2.3", value{kind: kStr, text: "1.2.3"}},
		{"10s", value{kind: kStr, text: "10s"}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := resolvePlain(tc.in); got != tc.want {
				t.Errorf("resolvePlain(%q) = %+v, want %+v", tc.in, got, tc.want)
			}
		})
	}
}

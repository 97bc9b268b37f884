package units

import (
	"math"
	"testing"
)

func TestJavaTrim(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{name: "spaces and tabs", in: " \t a b \t ", want: "a b"},
		{name: "every control character", in: "\x00\x01\x0b\x0c\r\n\x1fx\x7f", want: "x\x7f"},
		{name: "no-break space is not trimmed", in: "\u00a0x\u00a0", want: "\u00a0x\u00a0"},
		{name: "ideographic space is not trimmed", in: "\u3000x", want: "\u3000x"},
		{name: "empty", in: "", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := javaTrim(tt.in); got != tt.want {
				t.Errorf("javaTrim(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestJavaParseInt(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		radix int64
		bits  int
		want  int64
		st    numErr
	}{
		{name: "long min", in: "-9223372036854775808", radix: 10, bits: 64, want: math.MinInt64},
		{name: "long max", in: "9223372036854775807", radix: 10, bits: 64, want: math.MaxInt64},
		{name: "long overflow", in: "9223372036854775808", radix: 10, bits: 64, st: numRange},
		{name: "overflow then letter is syntax", in: "99999999999999999999x", radix: 10, bits: 64, st: numSyntax},
		{name: "int min", in: "-2147483648", radix: 10, bits: 32, want: math.MinInt32},
		{name: "int overflow", in: "-2147483649", radix: 10, bits: 32, st: numRange},
		{name: "hex", in: "fF", radix: 16, bits: 64, want: 255},
		{name: "fullwidth hex letters", in: "\uff26\uff46", radix: 16, bits: 64, want: 255},
		{name: "letter beyond radix", in: "g", radix: 16, bits: 64, st: numSyntax},
		{name: "Devanagari digits", in: "\u0967\u0968", radix: 10, bits: 64, want: 12},
		{name: "fullwidth digits", in: "\uff11\uff10", radix: 10, bits: 64, want: 10},
		{name: "supplementary digit", in: "\U0001D7CE", radix: 10, bits: 64, st: numSyntax},
		{name: "underscore", in: "1_000", radix: 10, bits: 64, st: numSyntax},
		{name: "double sign", in: "--1", radix: 10, bits: 64, st: numSyntax},
		{name: "invalid UTF-8", in: "1\xff", radix: 10, bits: 64, st: numSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, st := javaParseInt(tt.in, tt.radix, tt.bits)
			if st != tt.st || (st == numOK && got != tt.want) {
				t.Errorf("javaParseInt(%q, %d, %d) = %d, %d; want %d, %d", tt.in, tt.radix, tt.bits, got, st, tt.want, tt.st)
			}
		})
	}
}

func TestJavaEqualFold(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want bool
	}{
		{name: "ASCII", a: "TrUe", b: "true", want: true},
		{name: "long s", a: "\u017f", b: "s", want: true},
		{name: "Kelvin sign", a: "\u212a", b: "k", want: true},
		{name: "different length", a: "true ", b: "true", want: false},
		{name: "different letters", a: "tru", b: "trv", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := javaEqualFold(tt.a, tt.b); got != tt.want {
				t.Errorf("javaEqualFold(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

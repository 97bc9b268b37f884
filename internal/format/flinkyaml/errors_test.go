package flinkyaml

import (
	"strings"
	"testing"
)

// TestParseConfigSyntaxErrorPositions checks that yaml.v3's error lines
// (1-based for scanner problems, 0-based for parser problems, absent on
// line 1 and for encoding problems) become the right 1-based position.
func TestParseConfigSyntaxErrorPositions(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		line, col int
		msg       string
	}{
		{name: "scanner error line 1", src: "key: value: secret\n", line: 1, col: 1, msg: "mapping values are not allowed"},
		{name: "scanner error line 3", src: "a: 1\nb: 2\nkey: value: secret\n", line: 3, col: 1, msg: "mapping values are not allowed"},
		{name: "tab indentation line 2", src: "a:\n\tb: 1\n", line: 2, col: 1, msg: "cannot start any token"},
		{name: "parser error unclosed list line 3", src: "a: 1\nb: 2\nc: [x\n", line: 3, col: 1, msg: "did not find expected ',' or ']'"},
		{name: "parser error unclosed map line 2", src: "a: 1\nc: {x: 1\n", line: 2, col: 1, msg: "did not find expected ',' or '}'"},
		{name: "bad indentation line 3", src: "a: 1\nb: 2\n c: 3\n", line: 3, col: 1, msg: "mapping values are not allowed"},
		{name: "parser error nested mapping", src: "a:\n  b: 1\n  c: 2\n d: 3\n", line: 4, col: 1, msg: "did not find expected key"},
		{name: "undefined tag handle", src: "a: 1\nb: !x!y z\n", line: 2, col: 1, msg: "undefined tag handle"},
		{name: "control character line 3", src: "a: 1\nb: 2\nc: x\x01y\n", line: 3, col: 5, msg: "control characters"},
		{name: "invalid UTF-8 line 2", src: "a: 1\nb: \xff\n", line: 2, col: 4, msg: "UTF-8"},
		{name: "unclosed quote", src: "a: 1\nb: 'x\n", line: 2, col: 1, msg: "invalid YAML"},
		{name: "CRLF scanner error line 2", src: "a: 1\r\nkey: value: secret\r\n", line: 2, col: 1, msg: "mapping values"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := ParseConfig("config.yaml", []byte(tc.src))
			if f.Err == nil {
				t.Fatal("no error")
			}
			checkFile(t, f)
			if f.Err.Pos.Line != tc.line || f.Err.Pos.Col != tc.col || !strings.Contains(f.Err.Msg, tc.msg) {
				t.Errorf("error = %v, want %d:%d containing %q", f.Err, tc.line, tc.col, tc.msg)
			}
		})
	}
}

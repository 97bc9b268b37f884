package flinkyaml

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// This file renders the scalars an editor writes: YAML tokens that Flink's
// loader (YAML 1.2 core schema, Flink 1.20 YamlParserUtils.java L83-84) reads back as exactly the
// string asked for, and that YAML 1.1 tools such as kubectl read as the
// same string too.

// canonicalInt is a decimal integer in the form Flink prints it back
// (no sign but '-', no leading zero), so that writing it plain keeps its
// text: 010 would read as 10.
var canonicalInt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:0|-?[1-9][0-9]*)$`) })

// yaml11Number matches the YAML 1.1 ints and floats (binary, octal,
// underscores, base 60) that the core schema reads as strings but YAML 1.1
// tools do not.
var yaml11Number = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-+]?(?:0b[01_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(?::[0-5]?[0-9])*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?|\.(?:inf|Inf|INF))$|^\.(?:nan|NaN|NAN)$`)
})

// yaml11Timestamp matches the start of a YAML 1.1 timestamp.
var yaml11Timestamp = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}`) })

// renderValue returns the YAML token Set writes for value and the kind
// Flink reads it as. A canonical decimal integer, or true or false, is
// written plain (typed) when the key is new, null, or already holds a value
// of that kind, unless onlyStrings; any other value is written as a
// string: plain when that is safe, else single-quoted, else double-quoted
// with escapes. quote is the quote character of the token the value
// replaces, or 0: a string keeps that quote style when it can. flow is set
// inside a flow collection ({...} or [...]).
//
// onlyStrings is set for a FlinkDeployment's spec.flinkConfiguration: the
// Flink Kubernetes Operator's CRD declares it a map of strings
// (`additionalProperties: {type: string}` up to release-1.12.1,
// helm/flink-kubernetes-operator/crds/flinkdeployments.flink.apache.org-v1.yml;
// testdata/crds holds the released files), so the API server refuses a
// plain 3 or true there. A string is valid under every released CRD, the
// later ones (x-kubernetes-preserve-unknown-fields, release-1.13.0 on)
// included, and the operator hands Flink the same text either way.
func renderValue(value string, prev *parsed.Entry, quote byte, flow, onlyStrings bool) (string, parsed.Kind, error) {
	typed := func(k parsed.Kind) bool {
		return !onlyStrings && (prev == nil || prev.Kind == parsed.KindNull || prev.Kind == k)
	}
	switch {
	case canonicalInt().MatchString(value) && typed(parsed.KindInt):
		return value, parsed.KindInt, nil
	case (value == "true" || value == "false") && typed(parsed.KindBool):
		return value, parsed.KindBool, nil
	}
	tok, err := renderString(value, quote, flow, false)
	return tok, parsed.KindString, err
}

// renderKey returns the token for a mapping key that Flink reads as key.
func renderKey(key string, flow bool) (string, error) {
	if key == "" {
		return "", fmt.Errorf("empty key: %w", parsed.ErrCannotRepresent)
	}
	return renderString(key, 0, flow, true)
}

// renderString returns the first of plain, single-quoted and
// double-quoted style that reads back as the string s, checked by parsing
// the token in place (a key of a one-pair mapping, or its value). With
// quote set, that quoted style comes first.
func renderString(s string, quote byte, flow, isKey bool) (string, error) {
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("%q is not valid UTF-8, which YAML cannot hold: %w", s, parsed.ErrCannotRepresent)
	}
	var styles []string
	switch quote {
	case '"':
		styles = append(styles, doubleQuoted(s))
	case '\'':
		if singleQuotable(s) {
			styles = append(styles, "'"+strings.ReplaceAll(s, "'", "''")+"'")
		}
	}
	if plainSafe(s, flow) {
		styles = append(styles, s)
	}
	if singleQuotable(s) {
		styles = append(styles, "'"+strings.ReplaceAll(s, "'", "''")+"'")
	}
	styles = append(styles, doubleQuoted(s), asciiDoubleQuoted(s))
	for _, tok := range styles {
		if readsAsString(tok, s, flow, isKey) {
			return tok, nil
		}
	}
	return "", fmt.Errorf("no YAML scalar reads back as %q: %w", s, parsed.ErrCannotRepresent)
}

// plainSafe reports whether s can be written as a plain scalar that every
// YAML reader takes for the string s.
func plainSafe(s string, flow bool) bool {
	switch {
	case s == "",
		strings.ContainsRune("-?:,[]{}#&*!|>'\"%@`", rune(s[0])),
		s[0] == ' ' || s[len(s)-1] == ' ',
		strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":"),
		flow && strings.ContainsAny(s, ",[]{}:#"):
		return false
	}
	for _, r := range s {
		if !plainRune(r) {
			return false
		}
	}
	if v := resolvePlain(s); v.kind != parsed.KindString || v.text != s {
		return false // null, bool, int or float in the core schema
	}
	if isBoolLike(s) || yaml11Number().MatchString(s) || yaml11Timestamp().MatchString(s) ||
		s == "<<" || s == "=" || coreEnv().MatchString(s) {
		return false
	}
	var n yaml.Node // and yaml.v3's own resolver (timestamps, merge keys)
	if decodeNext(yaml.NewDecoder(strings.NewReader("k: "+s+"\n")), &n) != nil {
		return false
	}
	r := docRoot(&n)
	return r != nil && r.Kind == yaml.MappingNode && len(r.Content) == 2 && r.Content[1].ShortTag() == "!!str"
}

// plainRune reports whether r may appear in a plain scalar without
// surprising a reader: printable, not a tab, not a line break or BOM.
func plainRune(r rune) bool {
	return r >= 0x20 && r <= 0x7E || r >= 0xA0 && isPrintableUnicode(r) && r != 0x2028 && r != 0x2029 && r != 0xFEFF
}

// singleQuotable reports whether every character of s may appear inside
// single quotes on one line.
func singleQuotable(s string) bool {
	for _, r := range s {
		if r != '\t' && !plainRune(r) {
			return false
		}
	}
	return true
}

// asciiDoubleQuoted renders s double-quoted with every character outside
// printable ASCII escaped.
func asciiDoubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c >= 0x20 && c <= 0x7E:
			b.WriteRune(c)
		default:
			writeHexEscape(&b, c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// readsAsString parses tok as a key or value and reports whether Flink's
// loader reads it as the string want.
func readsAsString(tok, want string, flow, isKey bool) bool {
	doc := "k: " + tok
	if isKey {
		doc = tok + ": v"
	}
	if flow {
		doc = "{" + doc + "}"
	}
	var n yaml.Node
	if decodeNext(yaml.NewDecoder(strings.NewReader(doc+"\n")), &n) != nil {
		return false
	}
	r := docRoot(&n)
	if r == nil || r.Kind != yaml.MappingNode || len(r.Content) != 2 {
		return false
	}
	node := r.Content[1]
	if isKey {
		node = r.Content[0]
	}
	if node.Kind != yaml.ScalarNode || node.Style&yaml.TaggedStyle != 0 {
		return false
	}
	v, err := resolveScalar(node, false)
	return err == nil && v.kind == parsed.KindString && v.text == want
}

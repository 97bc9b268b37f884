package cm

import (
	"fmt"
	"strings"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// Chef attribute files are Ruby programs; ckptlint reads a documented
// subset of them with a tokenizer of its own (no Ruby is evaluated), as
// it reads Gradle scripts (internal/evidence build.go): statements
//
//	default['flink']['version'] = '1.17.1'
//	node.override[:hadoop][:version] = "3.3.6"
//	default.flink.version = '1.17.1'        (Chef's method syntax)
//	default['flink']['url'] = 'https://…/flink-1.17.1-bin-scala_2.12.tgz'
//
// where the receiver is one of Chef's precedence levels (default,
// force_default, normal, override, force_override, set, node.<level>:
// "Attribute Precedence", Chef docs), each key a string or symbol literal
// or a method name, and the value one string literal: a key naming a
// Flink or Hadoop version (flink_version, or version below flink or
// hadoop) is version evidence, and a value naming a distribution archive
// too. A double-quoted string with #{…} interpolation is no literal.
// Comments (# and =begin/=end) are skipped; anything else is passed over.

// chefLevels are the attribute precedence levels an assignment starts with.
var chefLevels = map[string]bool{"default": true, "force_default": true, "normal": true, "override": true,
	"force_override": true, "set": true, "default_unless": true, "set_unless": true}

type tokKind int

const (
	tokIdent tokKind = iota
	tokString
	tokSymbol
	tokPunct
	tokNewline
)

type token struct {
	kind    tokKind
	text    string
	literal bool // a string without interpolation
	line    int
}

// maxTokens bounds the tokens read from one file (1 MiB of source holds
// fewer).
const maxTokens = 1 << 20

// tokenize splits Ruby source into the tokens the subset needs.
func tokenize(src string) []token {
	var out []token
	line := 1
	for i := 0; i < len(src) && len(out) < maxTokens; {
		c := src[i]
		switch {
		case c == '\n':
			out = append(out, token{kind: tokNewline, line: line})
			line++
			i++
			if strings.HasPrefix(src[i:], "=begin") {
				i, line = skipBlockComment(src, i, line)
			}
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '\'' || c == '"':
			t, n, nl := rubyString(src[i:], c)
			t.line = line
			out = append(out, t)
			i += n
			line += nl
		case c == ':' && i+1 < len(src) && isIdentStart(src[i+1]):
			j := i + 1
			for j < len(src) && isIdent(src[j]) {
				j++
			}
			out = append(out, token{kind: tokSymbol, text: src[i+1 : j], literal: true, line: line})
			i = j
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdent(src[j]) {
				j++
			}
			out = append(out, token{kind: tokIdent, text: src[i:j], line: line})
			i = j
		default:
			t := string(c)
			if c == '=' && i+1 < len(src) && (src[i+1] == '=' || src[i+1] == '~' || src[i+1] == '>') {
				t = src[i : i+2]
			}
			out = append(out, token{kind: tokPunct, text: t, line: line})
			i += len(t)
		}
	}
	return out
}

// skipBlockComment skips =begin … =end from the start of a line.
func skipBlockComment(src string, i, line int) (int, int) {
	for i < len(src) {
		e := strings.IndexByte(src[i:], '\n')
		if e < 0 {
			return len(src), line
		}
		end := strings.HasPrefix(src[i:], "=end")
		i += e + 1
		line++
		if end {
			return i - 1, line - 1 // leave the newline for the tokenizer
		}
	}
	return i, line
}

// rubyString reads a string literal opened by quote at s[0]: its value,
// the bytes it takes and the newlines in it. In single quotes only \\ and
// \' are escapes; in double quotes the usual escapes are decoded and #{
// makes the string no literal.
func rubyString(s string, quote byte) (token, int, int) {
	var b strings.Builder
	lit, nl := true, 0
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == quote:
			return token{kind: tokString, text: b.String(), literal: lit}, i + 1, nl
		case c == '\\' && i+1 < len(s):
			i++
			if quote == '\'' && s[i] != '\\' && s[i] != '\'' {
				b.WriteByte('\\')
			}
			b.WriteByte(s[i])
		case quote == '"' && c == '#' && i+1 < len(s) && s[i+1] == '{':
			lit = false
			b.WriteByte(c)
		default:
			if c == '\n' {
				nl++
			}
			b.WriteByte(c)
		}
	}
	return token{kind: tokString, text: b.String(), literal: false}, len(s), nl
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isIdent(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' || c == '?' || c == '!' }

// chefVersions reads the assignments of an attributes file.
func chefVersions(file string, src []byte) ([]deploy.Version, []string) {
	toks := tokenize(string(src))
	var out []deploy.Version
	for i := 0; i < len(toks) && len(out) < maxVersions; i++ {
		if i > 0 && toks[i-1].kind != tokNewline && toks[i-1].text != ";" {
			continue // an assignment starts a statement
		}
		level, keys, val, n := chefAssignment(toks[i:])
		if n == 0 {
			continue
		}
		i += n - 1
		out = append(out, chefVersion(file, level, keys, val)...)
	}
	if len(toks) >= maxTokens {
		return out, []string{fmt.Sprintf("%s: read up to its %d-th token", file, maxTokens)}
	}
	return out, nil
}

// chefAssignment reads `[node.]level(['k']|[:k]|.k)+ = 'value'` at the
// start of toks: the precedence level, the keys, the value token and the
// tokens taken (0 when toks do not start such an assignment).
func chefAssignment(toks []token) (string, []string, token, int) {
	i := 0
	if i+1 < len(toks) && toks[i].kind == tokIdent && toks[i].text == "node" && toks[i+1].text == "." {
		i += 2
	}
	if i >= len(toks) || toks[i].kind != tokIdent || !chefLevels[toks[i].text] {
		return "", nil, token{}, 0
	}
	level := toks[i].text
	i++
	var keys []string
	for i < len(toks) {
		switch {
		case toks[i].text == "[" && i+2 < len(toks) && (toks[i+1].kind == tokString || toks[i+1].kind == tokSymbol) && toks[i+1].literal && toks[i+2].text == "]":
			keys = append(keys, toks[i+1].text)
			i += 3
			continue
		case toks[i].text == "." && i+1 < len(toks) && toks[i+1].kind == tokIdent:
			keys = append(keys, toks[i+1].text)
			i += 2
			continue
		}
		break
	}
	if len(keys) == 0 || i+1 >= len(toks) || toks[i].text != "=" || toks[i+1].kind != tokString {
		return "", nil, token{}, 0
	}
	if i+2 < len(toks) && toks[i+2].kind != tokNewline && toks[i+2].text != ";" {
		return "", nil, token{}, 0 // 'a' + x, 'a'.freeze: not one literal
	}
	return level, keys, toks[i+1], i + 2
}

func chefVersion(file, level string, keys []string, val token) []deploy.Version {
	if !val.literal {
		return nil
	}
	at := deploy.Loc{File: file, Line: val.line}
	out := deploy.Tarballs(val.text, at)
	last := keys[len(keys)-1]
	parent := ""
	if len(keys) > 1 {
		parent = keys[len(keys)-2]
	}
	if p := versionKey(parent, last); p != "" {
		if v := deploy.VersionPrefix(strings.TrimSpace(val.text)); v != "" {
			out = append(out, deploy.Version{Product: p, Version: v, What: chefPath(level, keys) + " = '" + val.text + "'", Loc: at})
		}
	}
	return out
}

// chefPath renders an attribute path as Chef users write it
// (default['flink']['version']), whichever syntax the file used.
func chefPath(level string, keys []string) string {
	var b strings.Builder
	b.WriteString(level)
	for _, k := range keys {
		b.WriteString("['" + k + "']")
	}
	return b.String()
}

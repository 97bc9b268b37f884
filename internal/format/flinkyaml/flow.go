package flinkyaml

import (
	"fmt"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// This file renders values the way Flink's YamlParserUtils.toYAMLString
// does for a List value in GlobalConfiguration.flatten: snakeyaml-engine's
// Dump with FlowStyle.FLOW, the core schema and no line splitting. Strings
// that would read back as another type, or that contain flow indicators,
// are single-quoted; strings with line breaks or control characters are
// double-quoted.

// flowScalar renders a scalar inside a flow collection. simpleKey is set
// for mapping keys.
func flowScalar(v value, simpleKey bool) string {
	switch v.kind {
	case parsed.KindNull:
		return "null"
	case parsed.KindBool, parsed.KindInt:
		return v.text
	case parsed.KindFloat:
		switch v.text { // snakeyaml-engine's RepresentNumber
		case "NaN":
			return ".nan"
		case "Infinity":
			return ".inf"
		case "-Infinity":
			return "-.inf"
		}
		return v.text
	case kindBinary:
		return "!!binary " + doubleQuoted(v.text)
	}
	return flowString(v.text, simpleKey)
}

// flowString chooses the scalar style for a string like the emitter's
// chooseScalarStyle, after the representer has asked for literal style for
// multi-line strings (which flow context turns into double quotes).
func flowString(s string, simpleKey bool) string {
	a := analyzeScalar(s)
	multiline := strings.ContainsAny(s, "\n\u0085\u2028\u2029")
	if !multiline && a.flowPlain && !(simpleKey && s == "") &&
		resolvePlain(s).kind == parsed.KindString && !coreEnv().MatchString(s) {
		return s
	}
	if !multiline && a.singleQuoted {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return doubleQuoted(s)
}

// scalarAnalysis is the part of snakeyaml-engine's Emitter.analyzeScalar
// that flow context needs.
type scalarAnalysis struct {
	flowPlain, singleQuoted bool
}

func analyzeScalar(s string) scalarAnalysis {
	if s == "" {
		return scalarAnalysis{flowPlain: false, singleQuoted: true}
	}
	var flowIndicators, lineBreaks, special bool
	var leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		flowIndicators = true
	}
	runes := []rune(s)
	precededByWS := true
	prevSpace, prevBreak := false, false
	for i, c := range runes {
		followedByWS := i+1 >= len(runes) || isBlankRune(runes[i+1])
		if i == 0 {
			if strings.ContainsRune("#,[]{}&*!|>'\"%@`", c) || c == '?' || c == ':' || (c == '-' && followedByWS) {
				flowIndicators = true
			}
		} else if strings.ContainsRune(",?[]{}:", c) || (c == '#' && precededByWS) {
			flowIndicators = true
		}
		isBreak := c == '\n' || c == 0x85 || c == 0x2028 || c == 0x2029
		if isBreak {
			lineBreaks = true
		}
		if !(c == '\n' || (c >= 0x20 && c <= 0x7E)) && !isPrintableUnicode(c) {
			special = true
		}
		switch {
		case c == ' ':
			leadingSpace = leadingSpace || i == 0
			trailingSpace = trailingSpace || i == len(runes)-1
			breakSpace = breakSpace || prevBreak
			prevSpace, prevBreak = true, false
		case isBreak:
			leadingBreak = leadingBreak || i == 0
			trailingBreak = trailingBreak || i == len(runes)-1
			spaceBreak = spaceBreak || prevSpace
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		precededByWS = isBlankRune(c)
	}
	a := scalarAnalysis{flowPlain: true, singleQuoted: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks || flowIndicators {
		a.flowPlain = false
	}
	if breakSpace || spaceBreak || special {
		a.flowPlain, a.singleQuoted = false, false
	}
	return a
}

func isBlankRune(c rune) bool {
	return c == ' ' || c == '\t' || c == 0 || c == '\n' || c == 0x85 || c == 0x2028 || c == 0x2029
}

// isPrintableUnicode is the emitter's "unicode is used" range check.
func isPrintableUnicode(c rune) bool {
	return c == 0x85 || (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF)
}

// doubleEscapes are snakeyaml-engine's ESCAPE_REPLACEMENTS.
var doubleEscapes = map[rune]string{
	0: `\0`, 7: `\a`, 8: `\b`, 9: `\t`, '\n': `\n`, 11: `\v`, 12: `\f`, '\r': `\r`, 27: `\e`,
	'"': `\"`, '\\': `\\`, 0x85: `\N`, 0xA0: `\_`, 0x2028: `\L`, 0x2029: `\P`,
}

func doubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		if c >= 0x20 && c <= 0x7E && c != '"' && c != '\\' {
			b.WriteRune(c)
			continue
		}
		switch esc, ok := doubleEscapes[c]; {
		case ok:
			b.WriteString(esc)
		case isPrintableUnicode(c):
			b.WriteRune(c)
		default:
			writeHexEscape(&b, c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// writeHexEscape writes c as a YAML double-quoted escape: \xXX, \uXXXX or
// \UXXXXXXXX, the shortest that holds it.
func writeHexEscape(b *strings.Builder, c rune) {
	switch {
	case c <= 0xFF:
		fmt.Fprintf(b, `\x%02X`, c)
	case c <= 0xFFFF:
		fmt.Fprintf(b, `\u%04X`, c)
	default:
		fmt.Fprintf(b, `\U%08X`, c)
	}
}

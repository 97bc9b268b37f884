package flinkyaml

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// The YAML 1.2 core schema as snakeyaml-engine's CoreScalarResolver
// implements it; yaml.v3 resolves plain scalars with YAML 1.1 rules (010 is
// 8, 1_000 and 0b101 are ints, dates are timestamps), so it is not used.
var (
	coreNull  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:~|null|Null|NULL| )$`) })
	coreBool  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:true|True|TRUE|false|False|FALSE)$`) })
	coreInt   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$`) })
	coreFloat = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	})
	// coreEnv is snakeyaml-engine's ENV_FORMAT; such plain scalars resolve
	// to the !ENV tag (a string without an EnvConfig), so the dumper quotes
	// strings that look like it.
	coreEnv = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\$\{\s*\w+(?::?[-?]\w*)?\s*\}$`) })
)

// quotedStyles are the scalar styles that make a scalar a string.
const quotedStyles = yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle | yaml.LiteralStyle | yaml.FoldedStyle

// value is a scalar as Flink holds it after loading.
type value struct {
	kind parsed.Kind
	// text is Java's toString of the constructed object (Integer, Boolean,
	// Double, String); empty for null; for a byte[] (kindBinary) its
	// Base64 form.
	text string
}

// flinkString is the text Flink's Configuration gives a scalar of a
// config.yaml as a string, and the entry kind that holds it: a String as it
// is, any other object through YamlParserUtils.toYAMLString (Flink 1.20
// ConfigurationUtils.convertToString with standardYaml L524-531), which
// writes an infinite or NaN Double as snakeyaml-engine 2.6
// StandardRepresenter.RepresentNumber does (.inf, -.inf, .nan) and any
// other as Double.toString, the text already held; a byte[] is a !!binary
// literal block (binaryString).
func (v value) flinkString() (string, parsed.Kind) {
	switch v.kind {
	case parsed.KindFloat:
		return flowScalar(v, false), v.kind
	case kindBinary:
		return binaryString(v.text), parsed.KindString
	}
	return v.text, v.kind
}

// javaClass is the class snakeyaml-engine constructs for v
// (ConstructYamlCoreInt.createIntNumber: Integer, else Long, else
// BigInteger), as a ClassCastException names it.
func (v value) javaClass() string {
	switch v.kind {
	case parsed.KindInt:
		n, ok := new(big.Int).SetString(v.text, 10)
		switch {
		case ok && n.IsInt64() && n.Int64() >= math.MinInt32 && n.Int64() <= math.MaxInt32:
			return "java.lang.Integer"
		case ok && n.IsInt64():
			return "java.lang.Long"
		}
		return "java.math.BigInteger"
	case parsed.KindFloat:
		return "java.lang.Double"
	case parsed.KindBool:
		return "java.lang.Boolean"
	case kindBinary:
		return "[B"
	}
	return "java.lang.String"
}

// ident identifies the value as snakeyaml-engine compares map keys (typed
// equals): 010 and 10 are equal, 1 and '1' are not.
func (v value) ident() string { return string(v.kind) + ":" + v.text }

// keyText is the key as GlobalConfiguration.flatten concatenates it.
func (v value) keyText() string {
	if v.kind == parsed.KindNull {
		return "null"
	}
	return v.text
}

// resolveScalar types the scalar n. nonSpecific reports the tag "!" in the
// source, which yaml.v3 drops.
func resolveScalar(n *yaml.Node, nonSpecific bool) (value, error) {
	switch {
	case n.Style&yaml.TaggedStyle != 0:
		return resolveTagged(n.Tag, n.Value)
	case nonSpecific || n.Style&quotedStyles != 0:
		return value{kind: parsed.KindString, text: n.Value}, nil
	}
	return resolvePlain(n.Value), nil
}

// resolvePlain types an untagged plain scalar with the core schema.
func resolvePlain(s string) value {
	switch {
	case s == "" || coreNull().MatchString(s):
		return value{kind: parsed.KindNull}
	case coreBool().MatchString(s):
		return value{kind: parsed.KindBool, text: strings.ToLower(s)}
	case coreInt().MatchString(s):
		if v, ok := parseCoreInt(s); ok {
			return value{kind: parsed.KindInt, text: v}
		}
	case coreFloat().MatchString(s):
		if f, ok := parseCoreFloat(s); ok {
			return value{kind: parsed.KindFloat, text: javaDouble(f)}
		}
	}
	return value{kind: parsed.KindString, text: s}
}

// resolveTagged constructs a scalar with an explicit tag, as
// snakeyaml-engine's core schema constructors do.
func resolveTagged(tag, s string) (value, error) {
	switch tag {
	case "!!str", "!ENV":
		return value{kind: parsed.KindString, text: s}, nil
	case "!!null":
		return value{kind: parsed.KindNull}, nil
	case "!!bool":
		if l := strings.ToLower(s); l == "true" || l == "false" {
			return value{kind: parsed.KindBool, text: l}, nil
		}
		return value{}, fmt.Errorf("cannot construct !!bool from %q: expected true or false", s)
	case "!!int":
		if v, ok := parseCoreInt(s); ok {
			return value{kind: parsed.KindInt, text: v}, nil
		}
		return value{}, fmt.Errorf("cannot construct !!int from %q: expected a decimal, 0o octal or 0x hex integer", s)
	case "!!float":
		if f, ok := parseCoreFloat(s); ok {
			return value{kind: parsed.KindFloat, text: javaDouble(f)}, nil
		}
		return value{}, fmt.Errorf("cannot construct !!float from %q: expected a number", s)
	case "!!binary":
		return constructBinary(s)
	}
	return value{}, unsupportedTag(tag)
}

// unsupportedTag is the error for a tag Flink's loader has no constructor
// for.
func unsupportedTag(tag string) error {
	return fmt.Errorf("unsupported tag %q: Flink's YAML 1.2 core schema has no constructor for it", tag)
}

// parseCoreInt follows ConstructYamlCoreInt.createIntNumber: an optional
// sign, then 0x hex, 0o octal or decimal (leading zeros allowed). It
// returns the decimal rendering.
func parseCoreInt(s string) (string, bool) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0x"):
		s, base = s[2:], 16
	case strings.HasPrefix(s, "0o"):
		s, base = s[2:], 8
	}
	if s == "" || strings.ContainsAny(s, "+-_") {
		return "", false
	}
	n, ok := new(big.Int).SetString(s, base)
	if !ok {
		return "", false
	}
	if neg {
		n.Neg(n)
	}
	return n.String(), true
}

// parseCoreFloat parses a float the way the core schema's float
// constructor does, including .inf and .nan.
func parseCoreFloat(s string) (float64, bool) {
	switch strings.ToLower(s) {
	case ".inf", "+.inf":
		return math.Inf(1), true
	case "-.inf":
		return math.Inf(-1), true
	case ".nan":
		return math.NaN(), true
	}
	if strings.ContainsAny(s, "_xXpPnN") { // no Go-only forms (0x1p3, 1_0, inf, nan)
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return f, true
}

func isRangeErr(err error) bool {
	var ne *strconv.NumError
	return errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange)
}

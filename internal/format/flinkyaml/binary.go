package flinkyaml

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// !!binary. Flink's loader (snakeyaml-engine 2.6 with CoreSchema, which
// extends JsonSchema) constructs it as a byte[]: ConstructYamlBinary drops
// every white space character (Java's \s: space, \t, \n, \x0B, \f, \r) and
// decodes with java.util.Base64.getDecoder(). Flink's string form of the
// byte[] is YamlParserUtils.toYAMLString (ConfigurationUtils.convertToString
// with standardYaml): StandardRepresenter.RepresentByteArray, a literal
// block with the !!binary tag ("!!binary |-\n  wpY=\n" in snakeyaml-engine's
// BinaryRoundTripTest) without its last line break; an empty byte[] and one
// inside a list (flow context, where the emitter allows no block scalar)
// are written in double quotes.

// javaBase64 decodes s as java.util.Base64.getDecoder().decode(String)
// does (JDK 17 Base64.Decoder.decodedOutLength and decode0), with its
// error messages; s already has its white space removed.
func javaBase64(s string) ([]byte, error) {
	// decode(String) reads the string as ISO-8859-1 bytes: others are '?'
	src := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF {
			r = '?'
		}
		src = append(src, byte(r))
	}
	if len(src) == 1 {
		return nil, fmt.Errorf("Input byte[] should at least have 2 bytes for base64 bytes")
	}
	val := func(c byte) int {
		switch {
		case c >= 'A' && c <= 'Z':
			return int(c - 'A')
		case c >= 'a' && c <= 'z':
			return int(c-'a') + 26
		case c >= '0' && c <= '9':
			return int(c-'0') + 52
		case c == '+':
			return 62
		case c == '/':
			return 63
		case c == '=':
			return -2
		}
		return -1
	}
	var dst []byte
	var bits uint32
	shiftto, sp := 18, 0
	out := func(n int) { // Java's (byte) casts: the low 8 bits
		for k := 0; k < n; k++ {
			dst = append(dst, byte(bits>>(16-8*k)&0xFF))
		}
	}
	for sp < len(src) {
		b := val(src[sp])
		sp++
		if b < 0 {
			if b == -2 {
				if shiftto == 6 && (sp == len(src) || src[sp] != '=') || shiftto == 18 {
					return nil, fmt.Errorf("Input byte array has wrong 4-byte ending unit")
				}
				if shiftto == 6 {
					sp++
				}
				break
			}
			c := int(src[sp-1])
			if c >= 0x80 {
				c -= 0x100 // Java's byte is signed: Integer.toString(src[sp - 1], 16)
			}
			return nil, fmt.Errorf("Illegal base64 character %s", strconv.FormatInt(int64(c), 16))
		}
		bits |= uint32(b) << shiftto //nolint:gosec // G115: b is a Base64 digit here, 0 to 63
		shiftto -= 6
		if shiftto < 0 {
			out(3)
			shiftto, bits = 18, 0
		}
	}
	switch shiftto {
	case 6:
		out(1)
	case 0:
		out(2)
	case 12:
		return nil, fmt.Errorf("Last unit does not have enough valid bits")
	}
	if sp < len(src) {
		return nil, fmt.Errorf("Input byte array has incorrect ending byte at %d", sp)
	}
	return dst, nil
}

// javaSpace is Java's regular-expression class \s.
func javaSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\x0B' || r == '\f' || r == '\r'
}

// constructBinary is ConstructYamlBinary: the bytes of s, re-encoded as
// RepresentByteArray writes them (Base64.getEncoder(): padded, one line).
func constructBinary(s string) (value, error) {
	b, err := javaBase64(strings.Join(strings.FieldsFunc(s, javaSpace), ""))
	if err != nil {
		return value{}, fmt.Errorf("!!binary is not Base64, so Flink fails to load the file (\"Error parsing YAML configuration.\", caused by org.snakeyaml.engine.v2.exceptions.YamlEngineException: java.lang.IllegalArgumentException: %v)", err)
	}
	return value{kind: kindBinary, text: base64.StdEncoding.EncodeToString(b)}, nil
}

// kindBinary is the internal kind of a byte[] (!!binary); entries hold
// its string form as a KindString value.
const kindBinary parsed.Kind = "binary"

// binaryString is Flink's string form of a byte[] at the top of a value.
func binaryString(b64 string) string {
	if b64 == "" {
		return `!!binary ""`
	}
	return "!!binary |-\n  " + b64
}

package flinkyaml

import (
	"bytes"
	"fmt"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Encodings. Flink reads config.yaml from a FileInputStream: Flink 1.19
// through SnakeYAML's Yaml.load(InputStream), whose UnicodeReader tells
// UTF-8, UTF-16BE and UTF-16LE by their byte-order mark; later releases
// through snakeyaml-engine's Load.loadFromInputStream, whose
// YamlUnicodeReader (2.6) also tells UTF-32BE and UTF-32LE by theirs. Both
// read a file without a byte-order mark as UTF-8 and refuse the NUL bytes
// of UTF-16 or UTF-32 text read that way (StreamReader: "special characters
// are not allowed"): neither looks at the null-byte patterns YAML 1.2
// §5.2 suggests. ckptlint reads UTF-8, and UTF-16 with a byte-order mark
// decoded to UTF-8 first (parseUTF16), as Flink does; the rest is decoded
// here only to tell whether the file is Flink's (Classify), then refused
// with a ParseError saying what Flink does with it.

// unreadEncoding is a config.yaml encoding ckptlint does not parse: its
// name, its decoder, and the message of its ParseError.
type unreadEncoding struct {
	name string
	dec  encoding.Encoding
	msg  string
}

// yamlEncoding returns the encoding of src when ckptlint does not read it
// (UTF-32 with a byte-order mark, UTF-16 or UTF-32 without one), or nil.
func yamlEncoding(src []byte) *unreadEncoding {
	utf32BOM := func(name string, e utf32.Endianness) *unreadEncoding {
		return &unreadEncoding{name: name, dec: utf32.UTF32(e, utf32.ExpectBOM),
			msg: "the file is " + name + " with a byte-order mark: Flink 1.20 and later read it (snakeyaml-engine's YamlUnicodeReader), Flink 1.19 does not " +
				"(SnakeYAML's UnicodeReader knows UTF-8 and UTF-16 only); ckptlint reads config.yaml in UTF-8 and in UTF-16 with a byte-order mark: save it as UTF-8"}
	}
	noBOM := func(name string, dec encoding.Encoding) *unreadEncoding {
		return &unreadEncoding{name: name, dec: dec,
			msg: "the file looks like " + name + " without a byte-order mark: Flink reads a config.yaml without one as UTF-8 (SnakeYAML's UnicodeReader, snakeyaml-engine's YamlUnicodeReader) " +
				"and fails on its NUL bytes (\"special characters are not allowed\"): save it as UTF-8, or as UTF-16 with a byte-order mark"}
	}
	switch {
	case bytes.HasPrefix(src, []byte{0, 0, 0xFE, 0xFF}):
		return utf32BOM("UTF-32BE", utf32.BigEndian)
	case bytes.HasPrefix(src, []byte{0xFF, 0xFE, 0, 0}):
		return utf32BOM("UTF-32LE", utf32.LittleEndian)
	case bytes.HasPrefix(src, []byte{0xEF, 0xBB, 0xBF}), bytes.HasPrefix(src, []byte{0xFE, 0xFF}), bytes.HasPrefix(src, []byte{0xFF, 0xFE}):
		return nil // UTF-8 or UTF-16 with a byte-order mark: read (utf16BOM)
	case len(src) >= 4 && src[0] == 0 && src[1] == 0 && src[2] == 0 && src[3] != 0:
		return noBOM("UTF-32BE", utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM))
	case len(src) >= 4 && src[0] != 0 && src[1] == 0 && src[2] == 0 && src[3] == 0:
		return noBOM("UTF-32LE", utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM))
	case len(src) >= 2 && src[0] == 0 && src[1] != 0:
		return noBOM("UTF-16BE", unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM))
	case len(src) >= 2 && src[0] != 0 && src[1] == 0:
		return noBOM("UTF-16LE", unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM))
	}
	return nil
}

// utf16BOM returns the name and decoder of src's encoding when it starts
// with a UTF-16 byte-order mark (and is not UTF-32LE, whose mark begins
// the same: yamlEncoding tells it first).
func utf16BOM(src []byte) (string, encoding.Encoding) {
	switch {
	case bytes.HasPrefix(src, []byte{0xFE, 0xFF}):
		return "UTF-16BE", unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)
	case bytes.HasPrefix(src, []byte{0xFF, 0xFE}):
		return "UTF-16LE", unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)
	}
	return "", nil
}

// parseUTF16 is ParseConfig for a config.yaml in UTF-16 with its
// byte-order mark, which Flink reads (SnakeYAML's UnicodeReader,
// snakeyaml-engine's YamlUnicodeReader): the UTF-8 text it decodes to is
// parsed, and is the file's Src, so that spans, comments and reporters'
// columns point into one text (yaml.v3 decodes UTF-16 itself but gives
// positions a UTF-8 locator cannot map back: a fuzzed "《: 〰" got an
// empty value span). Encoding says so; the editors refuse such a file
// (NewConfigEditor): fix writes UTF-8 only.
func parseUTF16(path string, src []byte, name string, dec encoding.Encoding) *parsed.File {
	text, err := dec.NewDecoder().Bytes(src)
	if err == nil {
		err = malformedUTF16(src, name == "UTF-16BE")
	}
	if err != nil {
		return &parsed.File{Path: path, Format: parsed.FlinkConfigYAML, Src: src,
			Err: &parsed.ParseError{File: path, Pos: parsed.Top(), Kind: parsed.ErrEncoding,
				Msg: fmt.Sprintf("the file starts with a %s byte-order mark but is not %s: %v; Flink's reader fails on it (MalformedInputException)", name, name, err)}}
	}
	f := parseText(path, text)
	f.Encoding = name
	return f
}

// malformedUTF16 says where src (a byte-order mark, then UTF-16 code
// units) is not well-formed UTF-16: an odd byte at the end, a high
// surrogate not followed by a low one, a low surrogate alone. The decoder
// of golang.org/x/text writes U+FFFD for these and goes on; the JDK's
// decoder behind Flink's readers refuses the input.
func malformedUTF16(src []byte, big bool) error {
	if len(src)%2 != 0 {
		return fmt.Errorf("an incomplete UTF-16 character at byte %d", len(src)-1)
	}
	unit := func(i int) uint16 {
		if big {
			return uint16(src[i])<<8 | uint16(src[i+1])
		}
		return uint16(src[i+1])<<8 | uint16(src[i])
	}
	for i := 2; i < len(src); i += 2 {
		switch u := unit(i); {
		case u >= 0xD800 && u < 0xDC00:
			if i+2 >= len(src) || unit(i+2) < 0xDC00 || unit(i+2) >= 0xE000 {
				return fmt.Errorf("a high surrogate without its low one at byte %d", i)
			}
			i += 2
		case u >= 0xDC00 && u < 0xE000:
			return fmt.Errorf("a low surrogate alone at byte %d", i)
		}
	}
	return nil
}

// parseUnreadEncoding is ParseConfig for a file in an encoding ckptlint
// does not read: the decoded text's entries (so Classify can tell whether
// it is Flink's) and the ParseError saying what Flink does with the file.
// Src is the decoded text, where the entries' spans point (internal/discover
// Raw keeps the bytes read).
func parseUnreadEncoding(path string, src []byte, enc *unreadEncoding) *parsed.File {
	text, err := enc.dec.NewDecoder().Bytes(src)
	if err != nil {
		return &parsed.File{Path: path, Format: parsed.FlinkConfigYAML, Src: src,
			Err: &parsed.ParseError{File: path, Pos: parsed.Top(), Kind: parsed.ErrEncoding, Msg: fmt.Sprintf("%s (and it does not decode as %s: %v)", enc.msg, enc.name, err)}}
	}
	f := parseText(path, text)
	f.Err = &parsed.ParseError{File: path, Pos: parsed.Top(), Msg: enc.msg, Kind: parsed.ErrEncoding}
	return f
}

// Text is the text a parse of src reads and its positions point into: src
// decoded to UTF-8 when it is in an encoding ckptlint does not parse
// (yamlEncoding) or in UTF-16 with a byte-order mark (parseUTF16), else
// src itself. The reporters read a file the run does
// not hold the bytes of (a file of a cached run) through it.
func Text(src []byte) []byte {
	var dec encoding.Encoding
	if enc := yamlEncoding(src); enc != nil {
		dec = enc.dec
	} else if _, d := utf16BOM(src); d != nil {
		dec = d
	}
	if dec == nil {
		return src
	}
	text, err := dec.NewDecoder().Bytes(src)
	if err != nil {
		return src
	}
	return text
}

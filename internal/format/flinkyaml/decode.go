package flinkyaml

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// checkSize refuses input over parsed.MaxFileSize.
func checkSize(path string, src []byte) *parsed.ParseError {
	if len(src) <= parsed.MaxFileSize {
		return nil
	}
	return &parsed.ParseError{
		File: path,
		Pos:  parsed.Top(),
		Msg:  fmt.Sprintf("file is %d bytes, over the %d-byte limit", len(src), parsed.MaxFileSize),
		Kind: parsed.ErrLimit,
	}
}

// decodeNext reads the next document. yaml.v3 reports problems through
// panics it recovers itself; a panic that escapes is turned into an error
// so bad input can never crash the caller.
func decodeNext(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: internal parser failure: %v", r)
		}
	}()
	return dec.Decode(n)
}

// yamlErrLine matches yaml.v3's error text: "yaml: line N: problem", with
// no line at all for problems on line 1 and for reader errors.
var yamlErrLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)^yaml: line (\d+): (.*)$`) })

// parserProblems are the problems libyaml's parser (not its scanner)
// reports. For them yaml.v3 prints the 0-based line of the mark, so the
// 1-based line is one more; scanner problems are printed 1-based.
var parserProblems = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"found undefined tag handle":             true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found duplicate %TAG directive":         true,
}

// readerProblems are the encoding problems yaml.v3 reports without a
// position; the offending byte is found again in the source.
var readerProblems = map[string]bool{
	"invalid leading UTF-8 octet":        true,
	"incomplete UTF-8 octet sequence":    true,
	"invalid trailing UTF-8 octet":       true,
	"invalid length of a UTF-8 sequence": true,
	"invalid Unicode character":          true,
	"control characters are not allowed": true,
}

// yamlError turns a yaml.v3 syntax error into a ParseError at the start of
// the line it names (yaml.v3 gives no column), or at the offending byte
// for encoding errors. yaml.v3 names the line where the enclosing
// construct starts when it has one (e.g. the "[" of an unclosed list).
func yamlError(path string, loc *locator, err error) *parsed.ParseError {
	msg, off := err.Error(), 0
	if m := yamlErrLine().FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		msg = m[2]
		if parserProblems[msg] {
			line++
		}
		off = loc.lineStart(line)
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
		if readerProblems[msg] {
			off = firstBadChar(loc.src)
		}
	}
	return &parsed.ParseError{File: path, Pos: loc.pos(off), Msg: "invalid YAML: " + msg, Kind: parsed.ErrYAML}
}

// firstBadChar returns the offset of the first byte yaml.v3's reader
// refuses: invalid UTF-8, or a character outside YAML's printable set.
func firstBadChar(src []byte) int {
	i := 0
	if bytes.HasPrefix(src, []byte("\xEF\xBB\xBF")) {
		i = 3
	}
	for i < len(src) {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 || !yamlPrintable(r) {
			return i
		}
		i += size
	}
	return 0
}

// yamlPrintable is the character set yaml.v3's reader accepts.
func yamlPrintable(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || (r >= 0x20 && r <= 0x7E) || isPrintableUnicode(r)
}

// docRoot returns the content of a document node, or nil for an empty one.
func docRoot(doc *yaml.Node) *yaml.Node {
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		return doc.Content[0]
	}
	return nil
}

// yamlInput is src as yaml.v3 is given it. Flink's loader, snakeyaml-engine
// 2.6, reads a document under any %YAML 1.x directive as YAML 1.2
// (ParserImpl.processDirectives applies LoadSettingsBuilder's default
// versionFunction, which refuses only another major version with
// YamlVersionException); yaml.v3, a port of libyaml, reads %YAML 1.1 only
// ("found incompatible YAML document"). So the version of each %YAML 1.x
// directive before the document is written 1.1 in a copy, padded with
// spaces to the same length so that every offset stays; ckptlint types
// scalars by the 1.2 core schema itself (scalar.go). A directive of another
// major version is the error Flink fails with.
func yamlInput(path string, src []byte, loc *locator) ([]byte, *parsed.ParseError) {
	out, copied := src, false
	i := 0
	if bytes.HasPrefix(src, []byte("\xEF\xBB\xBF")) {
		i = 3
	}
	for i < len(src) {
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i
		}
		line := src[i:end]
		t := bytes.TrimLeft(line, " \t\r")
		switch {
		case len(t) == 0 || t[0] == '#':
		case bytes.HasPrefix(line, []byte("%YAML")) && len(line) > 5 && (line[5] == ' ' || line[5] == '\t'):
			j := 5
			for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
				j++
			}
			k := j
			for k < len(line) && (line[k] == '.' || line[k] >= '0' && line[k] <= '9') {
				k++
			}
			maj, mnr, ok := directiveVersion(string(line[j:k]))
			if !ok {
				return out, nil // malformed: yaml.v3 reports it
			}
			if maj != 1 {
				return nil, &parsed.ParseError{File: path, Pos: loc.pos(i), Kind: parsed.ErrConfig, Msg: fmt.Sprintf(
					"%%YAML %d.%d: Flink's YAML parser, snakeyaml-engine, reads YAML 1.x documents only and refuses the file (YamlVersionException: Version{major=%d, minor=%d})", maj, mnr, maj, mnr)}
			}
			if string(line[j:k]) != "1.1" {
				if !copied {
					out, copied = bytes.Clone(src), true
				}
				copy(out[i+j:i+k], "1.1"+strings.Repeat(" ", k-j-3))
			}
		case line[0] == '%':
		default:
			return out, nil
		}
		i = end + 1
	}
	return out, nil
}

// directiveVersion reads the "major.minor" of a %YAML directive.
func directiveVersion(v string) (major, minor int, ok bool) {
	a, b, found := strings.Cut(v, ".")
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	return x, y, found && errA == nil && errB == nil
}

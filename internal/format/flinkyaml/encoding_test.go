package flinkyaml

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

func utf16LE(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = append(b, 0xFF, 0xFE)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

func utf16BE(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return b
}

func toUTF32(s string, little, bom bool) []byte {
	var b []byte
	put := func(r rune) {
		if little {
			b = append(b, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
		} else {
			b = append(b, byte(r>>24), byte(r>>16), byte(r>>8), byte(r))
		}
	}
	if bom {
		put(0xFEFF)
	}
	for _, r := range s {
		put(r)
	}
	return b
}

// TestEncodings: config.yaml is read in the encodings both of Flink's YAML
// readers tell (UTF-8, UTF-16 with a byte-order mark); UTF-32 with one,
// which only snakeyaml-engine (Flink 1.20+) reads, and UTF-16 or UTF-32
// without one, which Flink reads as UTF-8 and refuses, are a ParseError
// saying so, told Flink's by their decoded keys, never a file skipped
// without a word (issue 25).
func TestEncodings(t *testing.T) {
	const flink = "state.checkpoints.dir: hdfs://nn:8020/ck\nexecution.checkpointing.interval: 1 s\n"
	const spring = "server:\n  port: 8080\nspring:\n  datasource:\n    url: jdbc:postgresql://db/app\n"
	for _, tc := range []struct {
		name string
		src  []byte
		want string // start of the error; "" for none
	}{
		{"UTF-16LE with a byte-order mark", utf16LE(flink, true), ""},
		{"UTF-16LE without", utf16LE(flink, false), "the file looks like UTF-16LE without a byte-order mark: Flink reads a config.yaml without one as UTF-8"},
		{"UTF-16BE without", utf16BE(flink), "the file looks like UTF-16BE without a byte-order mark"},
		{"UTF-32LE with a byte-order mark", toUTF32(flink, true, true), "the file is UTF-32LE with a byte-order mark: Flink 1.20 and later read it"},
		{"UTF-32BE with a byte-order mark", toUTF32(flink, false, true), "the file is UTF-32BE with a byte-order mark"},
		{"UTF-32LE without", toUTF32(flink, true, false), "the file looks like UTF-32LE without a byte-order mark"},
		{"UTF-32BE without", toUTF32(flink, false, false), "the file looks like UTF-32BE without a byte-order mark"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := ParseConfig("config.yaml", tc.src)
			switch {
			case tc.want == "" && f.Err != nil:
				t.Fatalf("err %v", f.Err)
			case tc.want != "" && (f.Err == nil || !strings.HasPrefix(f.Err.Msg, tc.want) || f.Err.Pos.Line != 1):
				t.Fatalf("err %v, want at 1:1 %q", f.Err, tc.want)
			}
			if !IsFlinkConfig(f) {
				t.Error("not told Flink's: the file would be skipped without a word")
			}
			if e := f.Lookup("execution.checkpointing.interval"); e == nil || e.Value != "1 s" {
				t.Errorf("decoded entries: %+v", f.Entries)
			}
		})
	}
	// another tool's file stays another tool's, whatever its encoding
	for _, src := range [][]byte{utf16LE(spring, false), toUTF32(spring, true, true)} {
		if f := ParseConfig("config.yaml", src); IsFlinkConfig(f) {
			t.Errorf("Spring Boot config.yaml told Flink's: %v", f.Err)
		}
	}
	if got := string(Text(toUTF32(flink, true, true))); got != flink {
		t.Errorf("Text = %q", got)
	}
}

// TestUTF16Spans: a config.yaml in UTF-16 with its byte-order mark is read
// as the UTF-8 text it decodes to, which is its Src: every span points
// there (the fuzzer's "《: 〰" had an empty value span when yaml.v3 decoded
// the UTF-16 itself). The editor refuses it: fix writes UTF-8 only.
func TestUTF16Spans(t *testing.T) {
	text := "《: 〰\nexecution:\n  checkpointing.interval: 10 s # c\n"
	be := func(s string) []byte { return append([]byte{0xFE, 0xFF}, utf16BE(s)...) }
	for name, src := range map[string][]byte{"UTF-16LE": utf16LE(text, true), "UTF-16BE": be(text)} {
		f := ParseConfig("config.yaml", src)
		if f.Err != nil || f.Encoding != name || string(f.Src) != text {
			t.Fatalf("%s: err %v, encoding %q, src %q", name, f.Err, f.Encoding, f.Src)
		}
		checkFile(t, f)
		for _, e := range f.Entries {
			if got := string(f.Src[e.ValueSpan.Start.Offset:e.ValueSpan.End.Offset]); got != e.Value {
				t.Errorf("%s: %s's value span holds %q, want %q", name, e.Key, got, e.Value)
			}
		}
		if got := string(Text(src)); got != text {
			t.Errorf("%s: Text = %q", name, got)
		}
		if _, err := NewConfigEditor(f).Set("execution.checkpointing.interval", "30 s"); !errors.Is(err, parsed.ErrCannotRepresent) {
			t.Errorf("%s: Set = %v, want ErrCannotRepresent", name, err)
		}
	}
}

// TestUTF16Malformed: a UTF-16 config.yaml that is not well-formed
// UTF-16 is refused, as the JDK's decoder behind Flink's readers refuses
// it (golang.org/x/text's decoder would write U+FFFD and go on), and a
// decoded text whose second character is NUL is not told as UTF-16
// without a byte-order mark again.
func TestUTF16Malformed(t *testing.T) {
	good := utf16LE("a: b\n", true)
	highAlone := append(utf16LE("state.backend.type: rocks", true), 0x00, 0xD8)
	highAlone = append(highAlone, utf16LE("db\n", false)...)
	lowAlone := append(utf16LE("a: ", true), 0x00, 0xDC)
	for name, tc := range map[string]struct {
		src  []byte
		want string
	}{
		"odd byte":       {append(good, 'x'), "an incomplete UTF-16 character"},
		"high alone":     {highAlone, "a high surrogate without its low one"},
		"low alone":      {lowAlone, "a low surrogate alone"},
		"NUL second":     {utf16LE("a\x00: b\n", true), ""}, // (a NUL first is FF FE 00 00: UTF-32LE's mark, as snakeyaml-engine reads it)
		"well-formed":    {good, "-"},
		"surrogate pair": {utf16LE("a: 𝄞\n", true), "-"},
	} {
		f := ParseConfig("config.yaml", tc.src)
		switch {
		case tc.want == "-":
			if f.Err != nil {
				t.Errorf("%s: %v", name, f.Err)
			}
		case tc.want == "":
			if f.Err == nil || strings.Contains(f.Err.Msg, "byte-order mark") {
				t.Errorf("%s: err %v, want YAML's refusal of the NUL, not another encoding", name, f.Err)
			}
		default:
			if f.Err == nil || f.Err.Kind != parsed.ErrEncoding || !strings.Contains(f.Err.Msg, tc.want) {
				t.Errorf("%s: err %v, want an encoding error saying %q", name, f.Err, tc.want)
			}
		}
	}
}

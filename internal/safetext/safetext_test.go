package safetext

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The hostile names and values of issue 25 and the characters the
// sanitiser must never let through.
var hostile = []string{
	"x\n::error file=a.yaml,line=1::all checks passed",
	"x\r::add-mask::ckptlint",
	"::stop-commands::tok",
	"  ::stop-commands::tok",
	"\t::warning::x",
	"x ##[error]fake",
	"x ##vso[task.setvariable variable=a]b",
	"\x1b]0;owned\x07\x1b[2J",
	"a\u202eexe.yaml",
	"\u2066a\u2069\u061c\u200e\u200f",
	"line\u2028sep\u2029para",
	"nel\u0085csi\u009b31m",
	"del\x7f nul\x00 bell\a",
	"invalid \xff\xfe utf-8",
	`back\slash "quoted"`,
	"zz\nflink_version = \"1.10\"\n#",
	"plain/flink-conf.yaml",
	"été/flink-conf.yaml",
	"",
	// Blanks as TrimStart reads them and ignorables as ICU's StartsWith
	// and IndexOf skip them (ignorable.go).
	"x\n\u00a0::stop-commands::y",
	"x\n\u3000::a",
	"x\n\u2028::a",
	"x\n\u00ad::a",
	"\ufeff::x",
	"x\n\u034f::y",
	"\u00a0\u200b \t\ufeff\u034f::x",
	":\u00ad:x",
	"x\n:\u200b:y",
	":\u034f\ufe0f:y",
	"x #\u00ad#[y",
	"##\u200b[a]",
	"#\ufeff#\u034f[a]",
	"##\ufe0f[a]",
	"##v\u00ads\u200bo\ufe0f[a]",
}

// runnerCommand reports the first line of out that GitHub's runner or
// Azure's agent would read as a command: a line (ended by \n or a lone
// \r, as .NET's ReadLine ends one) that starts with "::" after white
// space (TrimStart), or holds "##[" or "##vso[" anywhere, when ignorable
// code points are skipped (a culture-sensitive StartsWith and IndexOf with
// ICU). It reads through ignorables everywhere, even between white space
// at the start of a line, which the runner's TrimStart does not: a little
// more than the runner, never less.
func runnerCommand(out string) (string, bool) {
	for _, line := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		read := withoutIgnorables(line)
		if strings.HasPrefix(strings.TrimLeftFunc(read, unicode.IsSpace), "::") ||
			strings.Contains(read, "##[") || strings.Contains(read, "##vso[") {
			return line, true
		}
	}
	return "", false
}

// withoutIgnorables is s as a culture-sensitive comparison reads it.
func withoutIgnorables(s string) string {
	return strings.Map(func(r rune) rune {
		if derivedIgnorable(r) {
			return -1
		}
		return r
	}, s)
}

// derivedIgnorable is Default_Ignorable_Code_Point as Unicode's
// DerivedCoreProperties.txt derives it, from the tables package unicode
// has: Other_Default_Ignorable_Code_Point + Cf + Variation_Selector -
// White_Space - FFF9..FFFB - 13430..1343F - Prepended_Concatenation_Mark.
func derivedIgnorable(r rune) bool {
	return (unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Variation_Selector, r)) &&
		!unicode.Is(unicode.White_Space, r) && !(r >= 0xfff9 && r <= 0xfffb) && !(r >= 0x13430 && r <= 0x1343f) &&
		!unicode.Is(unicode.Prepended_Concatenation_Mark, r)
}

// TestIgnorables holds the table of ignorable.go to Unicode's derivation,
// and mayBeBlank to blank.
func TestIgnorables(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got, want := ignorable(r), derivedIgnorable(r); got != want {
			t.Errorf("ignorable(%U) = %v, Unicode %s derives %v", r, got, unicode.Version, want)
		}
		if r >= 0x80 && blank(r) && !mayBeBlank(r) {
			t.Errorf("mayBeBlank(%U) = false, but it is blank", r)
		}
	}
}

// TestReadThrough: blanks and ignorables that a stream writes as they are
// do not hide a command; escaped, they break one, and nothing else is
// escaped.
func TestReadThrough(t *testing.T) {
	tests := []struct{ in, text, lines, xml, json string }{
		{"\u034f::x", "\u034f:\\x3ax", "\u034f:\\x3ax", "\u034f:&#x3A;x", "\u034f::x"},
		{":\ufe0f:x", ":\ufe0f\\x3ax", ":\ufe0f\\x3ax", ":\ufe0f&#x3A;x", ":\ufe0f:x"},
		{"x\n\u00a0::y", `x\n\u00a0::y`, `x` + "\n" + `\u00a0::y`, "x\n\u00a0:&#x3A;y", "x\n\u00a0::y"},
		{"x\n\u3000\u00ad \ufeff:\u200b:y", `x\n\u3000\u00ad \ufeff:\u200b:y`, "x\n\\u3000\\u00ad \\ufeff:\\u200b:y",
			"x\n\u3000\u00ad \ufeff:\u200b&#x3A;y", "x\n\u3000\u00ad \ufeff:\u200b:y"},
		{"a :\u00ad:b", `a :\u00ad:b`, `a :\u00ad:b`, "a :\u00ad:b", "a :\u00ad:b"},
		{"##\u034f[e]", "##\u034f\\x5be]", "##\u034f\\x5be]", "##\u034f&#x5B;e]", "##\u034f\\u005be]"},
		{"#\u200b#[e]", `#\u200b#[e]`, `#\u200b#[e]`, "#\u200b#&#x5B;e]", "#\u200b#\\u005be]"},
		{"#\ufe0f#\ufeff[e]", "#\ufe0f#\\ufeff[e]", "#\ufe0f#\\ufeff[e]", "#\ufe0f#\ufeff&#x5B;e]", "#\ufe0f#\ufeff\\u005be]"},
		{"##v\ufe00so\u00ad[", "##v\ufe00so\\u00ad[", "##v\ufe00so\\u00ad[", "##v\ufe00so\u00ad&#x5B;", "##v\ufe00so\u00ad\\u005b"},
		{"#\u00a0#[", `#\u00a0#[`, `#\u00a0#[`, "#\u00a0#[", "#\u00a0#["}, // a space is not ignorable
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.text {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.text)
		}
		for _, w := range []struct {
			name string
			mk   func(*bytes.Buffer) *Writer
			want string
		}{{"NewWriter", newLines, tt.lines}, {"NewXMLWriter", newXML, tt.xml}, {"NewJSONWriter", newJSON, tt.json}} {
			for cut := range len(tt.in) + 1 {
				if got := write(t, w.mk, []byte(tt.in), cut); got != w.want {
					t.Errorf("%s(%q), cut at %d = %q, want %q", w.name, tt.in, cut, got, w.want)
					break
				}
			}
		}
	}
	if got, want := DiffPath("a/##\u034f[b]"), "\"a/##\u034f\\133b]\""; got != want {
		t.Errorf("DiffPath = %q, want %q", got, want)
	}
}

// checkShown fails when out holds a character no sanitised stream may
// carry: a non-printing rune or invalid UTF-8 (keep lists what the stream
// writes as it is), or a command.
func checkShown(t *testing.T, in, out, keep string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%q -> %q: invalid UTF-8", in, out)
	}
	for _, r := range out {
		if !strconv.IsPrint(r) && !strings.ContainsRune(keep, r) {
			t.Errorf("%q -> %q: raw %U", in, out, r)
		}
	}
	if line, ok := runnerCommand(out); ok {
		t.Errorf("%q -> %q: the runner reads a command in %q", in, out, line)
	}
}

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text: 10 s", "plain text: 10 s"},
		{"x\n::error file=a::b", `x\n::error file=a::b`},
		{"::stop-commands::tok", `:\x3astop-commands::tok`},
		{"  ::x", `  :\x3ax`},
		{"a ::b", "a ::b"},
		{"x ##[error]y ###[z", `x ##\x5berror]y ###\x5bz`},
		{"##vso[task]", `##vso\x5btask]`},
		{"\x1b]0;t\x07\x1b[2J", `\x1b]0;t\a\x1b[2J`},
		{"a\u202eb\u2028c\u0085", `a\u202eb\u2028c\u0085`},
		{"tab\tcr\r\x00\x7f", `tab\tcr\r\x00\x7f`},
		{"bad \xff", `bad \xff`},
		{"U+E0001 \U000E0001", `U+E0001 \U000e0001`},
		{`keeps \ and "`, `keeps \ and "`},
		{"été ✓", "été ✓"},
		{"nbsp\u00a0", `nbsp\u00a0`},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, s := range hostile {
		checkShown(t, s, Text(s), "")
		checkShown(t, s, Source(s), "\t")
	}
	if got := Source("\tkey: \x1b[2J"); got != "\tkey: \\x1b[2J" {
		t.Errorf("Source keeps tabs only: %q", got)
	}
}

func TestPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"flink/conf/flink-conf.yaml", "flink/conf/flink-conf.yaml"},
		{"with space/été/x.yaml", "with space/été/x.yaml"},
		{"x\n+++ b/evil.sh", `"x\n+++ b/evil.sh"`},
		{`a"b`, `"a\"b"`},
		{`a\b`, `"a\\b"`},
		{"::add-mask::x/f.yaml", `":\x3aadd-mask::x/f.yaml"`},
		{"a ##[error]", `"a ##\x5berror]"`},
		{"\u202ecod.yaml", `"\u202ecod.yaml"`},
		{"\xff", `"\xff"`},
	}
	for _, tt := range tests {
		got := Path(tt.in)
		if got != tt.want {
			t.Errorf("Path(%q) = %q, want %q", tt.in, got, tt.want)
		}
		back, err := Unquote(got)
		if err != nil || back != tt.in {
			t.Errorf("Unquote(%q) = %q, %v; want %q", got, back, err, tt.in)
		}
	}
	for _, s := range hostile {
		checkShown(t, s, Path(s), "")
	}
	for _, bad := range []string{`"\"`, `"\q"`, `"\x4"`, `"\u12"`, `"\xzz"`} {
		if _, err := Unquote(bad); err == nil {
			t.Errorf("Unquote(%q): no error", bad)
		}
	}
}

func TestDiffPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a/conf/flink-conf.yaml", "a/conf/flink-conf.yaml"},
		{"a/x\n+++ b/evil.sh", `"a/x\n+++ b/evil.sh"`},
		{"a/b\x1b[2J\u202e##[e]\xff\t\"\\", `"a/b\033[2J\342\200\256##\133e]\377\t\"\\"`},
		{"a/été", "a/été"},
		{"a/::x", "a/::x"},
		{"::x", `"::x"`},
	}
	for _, tt := range tests {
		got := DiffPath(tt.in)
		if got != tt.want {
			t.Errorf("DiffPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if back, err := Unquote(got); err != nil || back != tt.in {
			t.Errorf("Unquote(%q) = %q, %v; want %q", got, back, err, tt.in)
		}
	}
}

// write sends in through a writer of mode in two writes split at cut, then
// flushes it.
func write(t *testing.T, mk func(*bytes.Buffer) *Writer, in []byte, cut int) string {
	t.Helper()
	var b bytes.Buffer
	w := mk(&b)
	cut = min(max(cut, 0), len(in))
	for _, part := range [][]byte{in[:cut], in[cut:]} {
		if n, err := w.Write(part); n != len(part) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func newLines(b *bytes.Buffer) *Writer { return NewWriter(b) }
func newJSON(b *bytes.Buffer) *Writer  { return NewJSONWriter(b) }
func newXML(b *bytes.Buffer) *Writer   { return NewXMLWriter(b) }

func TestWriter(t *testing.T) {
	in := "ckptlint: note: x\n::error::y\n  ::z ##[w] \x1b[2J\tok\n" + "é\u202e\xff"
	want := "ckptlint: note: x\n:\\x3aerror::y\n  :\\x3az ##\\x5bw] \\x1b[2J\tok\n" + "é\\u202e\\xff"
	for cut := range len(in) + 1 {
		if got := write(t, newLines, []byte(in), cut); got != want {
			t.Fatalf("cut at %d:\n got %q\nwant %q", cut, got, want)
		}
	}
	for _, s := range hostile {
		checkShown(t, s, write(t, newLines, []byte(s), len(s)/2), "\n\t")
	}
}

// TestJSONWriter: a document through the guard decodes to the same data
// and carries nothing a log or terminal acts on.
func TestJSONWriter(t *testing.T) {
	for _, s := range hostile {
		doc, err := json.MarshalIndent(map[string]any{"file": s, "list": []string{s, s}}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		out := write(t, newJSON, doc, len(doc)/2)
		var back map[string]any
		if err := json.Unmarshal([]byte(out), &back); err != nil {
			t.Fatalf("%q: %v\n%s", s, err, out)
		}
		want := strings.Map(func(r rune) rune { return r }, s) // invalid bytes become U+FFFD, each
		if back["file"] != want {
			t.Errorf("%q: decoded %q", s, back["file"])
		}
		checkMachine(t, s, out)
	}
}

// TestXMLWriter: the same for an XML document, text with line breaks
// included.
func TestXMLWriter(t *testing.T) {
	type doc struct {
		XMLName xml.Name `xml:"d"`
		Attr    string   `xml:"a,attr"`
		Text    string   `xml:",chardata"`
	}
	for _, s := range hostile {
		valid := strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r != 0xFFFE && r != 0xFFFF {
				return r
			}
			return -1
		}, strings.ToValidUTF8(s, ""))
		b, err := xml.Marshal(doc{Attr: valid, Text: valid})
		if err != nil {
			t.Fatal(err)
		}
		// A reporter's own escaping keeps line breaks (JUnit bodies).
		raw := append([]byte(nil), b[:len(b)-len("</d>")]...)
		raw = append(raw, "\n"+strings.NewReplacer("&", "&amp;", "<", "&lt;").Replace(valid)+"</d>"...)
		out := write(t, newXML, raw, len(raw)/3)
		var back doc
		if err := xml.Unmarshal([]byte(out), &back); err != nil {
			t.Fatalf("%q: %v\n%s", s, err, out)
		}
		if back.Attr != valid || back.Text != valid+"\n"+valid {
			t.Errorf("%q: decoded %q / %q", s, back.Attr, back.Text)
		}
		checkMachine(t, s, out)
	}
}

// checkMachine fails when a document holds a command or a character the
// machine writers escape.
func checkMachine(t *testing.T, in, out string) {
	t.Helper()
	for _, r := range out {
		if control(r, true) {
			t.Errorf("%q -> %q: raw %U", in, out, r)
		}
	}
	if line, ok := runnerCommand(out); ok {
		t.Errorf("%q -> %q: the runner reads a command in %q", in, out, line)
	}
}

func FuzzText(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkShown(t, s, Text(s), "")
		checkShown(t, s, Source(s), "\t")
		if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return !strconv.IsPrint(r) }) &&
			!strings.Contains(withoutIgnorables(s), "##") &&
			!strings.HasPrefix(strings.TrimLeft(withoutIgnorables(s), " "), "::") && Text(s) != s {
			t.Errorf("Text changed printable text %q to %q", s, Text(s))
		}
	})
}

// FuzzPath: a name is shown with no raw control, bidi or command, by Path
// and by DiffPath, and Unquote gives it back, so two names never print the
// same; Text leaves what Path and Text show as it is (a second pass never
// escapes twice).
func FuzzPath(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Path(s), DiffPath(s)} {
			checkShown(t, s, out, "")
			back, err := Unquote(out)
			if err != nil || back != s {
				t.Errorf("Unquote(%q) = %q, %v, want %q", out, back, err, s)
			}
		}
		if Text(Path(s)) != Path(s) || Text(Text(s)) != Text(s) {
			t.Errorf("Text changes what Path or Text shows of %q", s)
		}
	})
}

// FuzzWriter: the line guard shows every line safely whatever the split of
// the writes, and the split does not change what it writes.
func FuzzWriter(f *testing.F) {
	for _, s := range hostile {
		f.Add(s+"\n"+s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, cut int) {
		whole := write(t, newLines, []byte(s), len(s))
		checkShown(t, s, whole, "\n\t")
		if split := write(t, newLines, []byte(s), cut%(len(s)+1)); split != whole {
			t.Errorf("%q split at %d: %q, whole %q", s, cut, split, whole)
		}
	})
}

// FuzzPushRun holds pushRun, which records a run of plain ASCII bytes at
// once, to push byte by byte, from every line state and mode.
func FuzzPushRun(f *testing.F) {
	f.Add([]byte("ab "), []byte("##"))
	f.Add([]byte("   "), []byte(""))
	f.Add([]byte("x"), []byte("##vs"))
	f.Fuzz(func(t *testing.T, run, before []byte) {
		for _, m := range []mode{lines, jsonDoc, xmlDoc} {
			run := plainOnly(m, run)
			for _, st := range []lineState{lineStart, oneColon, midLine} {
				a, b := &Writer{mode: m, st: st}, &Writer{mode: m, st: st}
				for _, c := range plainOnly(m, before) {
					a.push(c)
					b.push(c)
				}
				a.pushRun(run)
				for _, c := range run {
					b.push(c)
				}
				if a.hist != b.hist || a.st != b.st {
					t.Fatalf("mode %d, state %d, run %q: pushRun %q/%d, push %q/%d", m, st, run, a.hist, a.st, b.hist, b.st)
				}
			}
		}
	})
}

// plainOnly keeps the bytes of p a guard in mode m writes as they are
// (ASCII, not special).
func plainOnly(m mode, p []byte) []byte {
	var out []byte
	g := &Writer{mode: m}
	for _, c := range p {
		if c < 0x80 && !g.special(c) {
			out = append(out, c)
		}
	}
	return out
}

// FuzzUnchanged holds render's fast path to its full pass.
func FuzzUnchanged(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Add("  ::x")
	f.Add("a ##vso[b")
	f.Add(`say "hi" \ ok`)
	f.Fuzz(func(t *testing.T, s string) {
		for _, quoted := range []bool{false, true} {
			if unchanged(s, quoted) {
				if full := renderFull(s, false, quoted); full != s {
					t.Fatalf("unchanged(%q, %v), but render gives %q", s, quoted, full)
				}
			}
		}
	})
}

// FuzzWriterFastPaths holds Write's fast paths (runs of plain bytes, a
// "[" that opens nothing) to rune, rune by rune, in every mode and
// whatever the split of the writes.
func FuzzWriterFastPaths(f *testing.F) {
	for _, s := range hostile {
		f.Add(s+"\n  [\"##\", \"x\"]\n\t##[y", 5)
	}
	f.Add("{\n  \"a\": [\n    \"##vso[task]\"\n  ]\n}\n", 7)
	f.Fuzz(func(t *testing.T, s string, cut int) {
		for _, m := range []mode{lines, jsonDoc, xmlDoc} {
			ref := &Writer{mode: m}
			for i := 0; i < len(s); {
				r, size := utf8.DecodeRuneInString(s[i:])
				ref.rune(r, []byte(s[i:i+size]))
				i += size
			}
			mk := func(b *bytes.Buffer) *Writer { return &Writer{w: b, mode: m} }
			if got := write(t, mk, []byte(s), cut%(len(s)+1)); got != string(ref.out) {
				t.Fatalf("mode %d, %q cut at %d: Write gives %q, rune by rune %q", m, s, cut, got, ref.out)
			}
		}
	})
}

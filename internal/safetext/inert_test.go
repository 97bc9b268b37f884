package safetext

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestInert(t *testing.T) {
	gh := "::error file=a.yaml,line=1,col=2,endLine=1,endColumn=3,title=CKPT010 x::msg%0A%0Adetail\n" +
		"::warning file=b,line=1::w\n::notice file=c::n\n"
	tests := []struct {
		in       string
		want     bool // with commands false
		wantCmds bool // with commands true
	}{
		{"", true, true},
		{"plain text: 10 s\n\tindented: yes\n", true, true},
		{"été → ✓ 日本\n", true, true},
		{"nbsp\u00a0zwsp\u200bbom\ufeffpua\ue000", true, true}, // the machine writers keep these
		{`{"a": "\u001b\u202e##\u005b"}`, true, true},
		{"a ::b\nc::d\n", true, true},
		{"x ##vsO[ #[ # #[ ##x[\n", true, true},
		{"::", false, false},
		{"x\n::add-mask::y", false, false},
		{"  ::stop-commands::t", false, false},
		{"\t::x", false, false},
		{"x\n \t ::x", false, false},
		{gh, false, true},
		{gh + "::group::x\n", false, false},
		{gh + " ::error x\n", false, false}, // only at the first column
		{"::error\n", false, false},         // the reporter writes a space after the name
		{"::errors x\n", false, false},
		{"::warning::x\n", false, false},
		{"a ##[error]b", false, false},
		{"###[", false, false},
		{"##vso[task]", false, false},
		{"x\r::y", false, false},
		{"\r", false, false},
		{"\x1b[2J", false, false},
		{"\x00", false, false},
		{"\x7f", false, false},
		{"\v\f\b\a", false, false},
		{"ok \u0085", false, false},
		{"ok \u009b31m", false, false},
		{"line\u2028sep", false, false},
		{"para\u2029", false, false},
		{"a\u202eb", false, false},
		{"\u2066\u061c", false, false},
		{"\u200e", false, false},
		{"bad \xff", false, false},
		{"short \xe2\x86", false, false},
		{"surrogate \xed\xa0\x80", false, false},
		{"long \xc0\xaf", false, false},
		{strings.Repeat("a", 64) + "\x1b" + strings.Repeat("b", 64), false, false},
		{strings.Repeat("é", 33) + "\x7f", false, false},
		{strings.Repeat("abcdefg\n", 20), true, true},
		// Blanks and ignorables as the runner reads them (ignorable.go).
		{"x\n\u00a0::stop-commands::y", false, false},
		{"x\n\u3000::y", false, false},
		{"x\n\u00ad::y", false, false},
		{"\u200b::y", false, false},
		{"\ufeff::y", false, false},
		{"\u034f::y", false, false},
		{"\ufe0f::y", false, false},
		{" \u00a0\t\u200b \u3000::y", false, false},
		{":\u00ad:y", false, false},
		{":\u200b\ufeff:y", false, false},
		{"x\n:\u034f:y", false, false},
		{":\ufe0f:y", false, false},
		{gh + "\u00a0::error x\n", false, false},
		{":\u200b:error x\n", false, false}, // not exactly what the reporter writes
		{"\u200b::error x\n", false, false},
		{"::error x\u200b::y\n", false, true},
		{"a\u00a0::b :\u200b:c", true, true},
		{"a\u00a0\n\u00a0a::b", true, true},
		{"x #\u00ad#[y", false, false},
		{"#\u200b#[y", false, false},
		{"##\ufeff[y", false, false},
		{"#\u034f#\ufe0f[y", false, false},
		{"##v\u00ads\u200bo\ufe0f[y", false, false},
		{"##vso\u200b[y", false, false},
		{"#\u00a0#[ ## [ #\u2060x#[", true, true}, // a space is not ignorable
		{"#\u200b\n#[", true, true},
		{strings.Repeat("abcdefg:", 8) + "\u200b:x\n", true, true},
		{strings.Repeat("abcdefg\n", 8) + ":\u200b:x\n", false, false},
		{strings.Repeat("abcdefg\n", 7) + "abcdefg:" + "\u200b:x", true, true},
		{strings.Repeat("abcdefg\n", 7) + "\u00a0\u00a0\u00a0:" + "\u200b:x", false, false},
	}
	for _, tt := range tests {
		for _, cmds := range []bool{false, true} {
			want := tt.want
			if cmds {
				want = tt.wantCmds
			}
			if got := Inert([]byte(tt.in), cmds); got != want {
				t.Errorf("Inert(%q, %v) = %v, want %v", tt.in, cmds, got, want)
			}
			if ref := inertReference([]byte(tt.in), cmds); ref != want {
				t.Errorf("inertReference(%q, %v) = %v, want %v", tt.in, cmds, ref, want)
			}
		}
	}
}

// TestInertEveryPosition moves each refused character through the word
// boundaries of the fast path.
func TestInertEveryPosition(t *testing.T) {
	for _, bad := range []string{"\x1b", "\r", "\x7f", "\x00", "\x1f", "\u0085", "\u202e", "\xff", "\xe2\x82"} {
		for pad := range 24 {
			for _, fill := range []string{"a", "é", "\n"} {
				s := strings.Repeat(fill, pad) + bad + strings.Repeat("z", 24-pad)
				if Inert([]byte(s), false) {
					t.Errorf("Inert(%q) = true", s)
				}
			}
		}
	}
	for pad := range 24 {
		s := strings.Repeat(" ", pad) + "\t\n ~" + strings.Repeat("→", pad)
		if !Inert([]byte(s), false) {
			t.Errorf("Inert(%q) = false", s)
		}
	}
}

// inertReference is Inert written plainly, rune by rune and line by line.
func inertReference(b []byte, commands bool) bool {
	s := string(b)
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, r == 0x2028, r == 0x2029, unicode.Is(unicode.Bidi_Control, r):
			return false
		}
	}
	if read := withoutIgnorables(s); strings.Contains(read, "##[") || strings.Contains(read, "##vso[") {
		return false
	}
	for _, line := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimLeftFunc(withoutIgnorables(line), unicode.IsSpace), "::") {
			continue
		}
		if !commands || !(strings.HasPrefix(line, "::error ") || strings.HasPrefix(line, "::warning ") ||
			strings.HasPrefix(line, "::notice ")) {
			return false
		}
	}
	return true
}

// FuzzInert: whatever the renderers and the guards make of s is Inert and
// holds no command for the runner (runnerCommand), and Inert agrees with
// inertReference on s itself.
func FuzzInert(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Add("::error file=a::b\n::warning x\n ::notice y")
	f.Add(strings.Repeat("é→ab\n:", 5) + "\x7f")
	f.Add("x\n\u00a0\u200b:\ufe0f:y #\u00ad#[z ##v\u034fso[")
	f.Fuzz(func(t *testing.T, s string) {
		for _, cmds := range []bool{false, true} {
			if got, want := Inert([]byte(s), cmds), inertReference([]byte(s), cmds); got != want {
				t.Fatalf("Inert(%q, %v) = %v, the reference says %v", s, cmds, got, want)
			}
		}
		for name, out := range rendered(t, s) {
			if !Inert([]byte(out), false) || !Inert([]byte(out), true) {
				t.Errorf("%s of %q = %q: not Inert", name, s, out)
			}
			if line, ok := runnerCommand(out); ok {
				t.Errorf("%s of %q = %q: the runner reads a command in %q", name, s, out, line)
			}
		}
	})
}

// rendered is what the package's renderers and guards write of s, by name.
func rendered(t *testing.T, s string) map[string]string {
	t.Helper()
	out := map[string]string{"Text": Text(s), "Source": Source(s), "Path": Path(s), "DiffPath": DiffPath(s),
		"NewWriter": write(t, newLines, []byte(s), len(s)/3)}
	type finding struct {
		File    string   `json:"file" xml:"file,attr"`
		Message string   `json:"message" xml:",chardata"`
		Lines   []string `json:"lines" xml:"line"`
	}
	v := finding{File: s, Message: s, Lines: []string{s, "x"}}
	for name, doc := range map[string]func() ([]byte, error){
		"json":       func() ([]byte, error) { return json.Marshal(s) },
		"json field": func() ([]byte, error) { return json.Marshal(v) },
		"json indent": func() ([]byte, error) {
			return json.MarshalIndent(map[string]any{"findings": []finding{v, v}}, "", "  ")
		},
		"xml":        func() ([]byte, error) { return xml.Marshal(s) },
		"xml indent": func() ([]byte, error) { return xml.MarshalIndent(v, "", "  ") },
		"xml text": func() ([]byte, error) {
			var b bytes.Buffer
			err := xml.EscapeText(&b, []byte(s))
			return b.Bytes(), err
		},
		// A reporter's own escaping keeps line breaks (JUnit bodies).
		"xml raw": func() ([]byte, error) { return []byte("<a>\n" + s + "\n</a>\n"), nil },
	} {
		b, err := doc()
		if err != nil {
			t.Fatal(err)
		}
		mk := newJSON
		if strings.HasPrefix(name, "xml") {
			mk = newXML
		}
		out["NewJSONWriter/NewXMLWriter "+name] = write(t, mk, b, len(b)/2)
	}
	return out
}

// BenchmarkInert reads about 20 MB of a JSON report as NewJSONWriter
// writes it: a line of about 60 bytes each, with colons and some non-ASCII.
func BenchmarkInert(b *testing.B) {
	var doc bytes.Buffer
	g := NewJSONWriter(&doc)
	for i := 0; doc.Len() < 20<<20; i++ {
		msg, _ := json.Marshal(fmt.Sprintf("état %d → taskmanager.memory: %d MB", i, i%4096))
		fmt.Fprintf(g, "    {\n      \"rule\": \"CKPT%03d\",\n      \"line\": %d,\n      \"message\": %s\n    },\n", i%200, i, msg)
	}
	if err := g.Flush(); err != nil {
		b.Fatal(err)
	}
	in := doc.Bytes()
	if !Inert(in, false) {
		b.Fatal("the report is not Inert")
	}
	b.SetBytes(int64(len(in)))
	b.ResetTimer()
	for b.Loop() {
		if !Inert(in, false) {
			b.Fatal("not Inert")
		}
	}
}

// TestInertHalves: a report read in two halves at once gets the verdict
// of one read whole, wherever what it refuses lies (the split included).
func TestInertHalves(t *testing.T) {
	defer func(n int) { parallelInert = n }(parallelInert)
	parallelInert = 64
	var clean []byte
	for i := range 40 {
		clean = fmt.Appendf(clean, "    \"message\": \"caf\u00e9 %d \u2192 x: y\",\n", i)
	}
	if !Inert(clean, false) {
		t.Fatal("a clean report refused")
	}
	for _, bad := range []string{"\x1b[2J", "\n::stop-commands::x\n", "##[add-mask]x", "\xff", "\n\u00a0::set-output::x"} {
		for i := 0; i <= len(clean); i += 5 {
			b := append(append(append([]byte(nil), clean[:i]...), bad...), clean[i:]...)
			if got, whole := Inert(b, false), inertOne(b, false); got != whole || got {
				t.Fatalf("%q at %d: halves %v, whole %v", bad, i, got, whole)
			}
		}
	}
}

// BenchmarkJSONWriter writes BenchmarkInert's report through
// NewJSONWriter, in the 32 KiB writes of a copy from a spool.
func BenchmarkJSONWriter(b *testing.B) {
	var doc bytes.Buffer
	for i := 0; doc.Len() < 20<<20; i++ {
		msg, _ := json.Marshal(fmt.Sprintf("état %d → taskmanager.memory: %d MB", i, i%4096))
		fmt.Fprintf(&doc, "    {\n      \"rule\": \"CKPT%03d\",\n      \"lines\": [%d],\n      \"message\": %s\n    },\n", i%200, i, msg)
	}
	in := doc.Bytes()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		g := NewJSONWriter(io.Discard)
		for p := in; len(p) > 0; {
			n := min(len(p), 32<<10)
			if _, err := g.Write(p[:n]); err != nil {
				b.Fatal(err)
			}
			p = p[n:]
		}
		if err := g.Flush(); err != nil {
			b.Fatal(err)
		}
	}
}

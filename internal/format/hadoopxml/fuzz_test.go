package hadoopxml

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

var fuzzSeeds = []string{
	conf(prop("a", "1") + finalProp("a", "2") + prop("dfs.block.size", "${a}") + prop("e", "")),
	conf(`<property name="a" value="b" final="TRUE"/>` + prop(" c ", "x<!--c-->y<![CDATA[z]]>")),
	conf(includeWithFallback("inc.xml", prop("f", "1")) + include("missing.xml") + include("loop.xml")),
	"\uFEFF<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\r\n<configuration>\r\n<property><name>a</name><value/></property>\r\n</configuration>",
	"<!DOCTYPE configuration [<!ENTITY x \"y\">]><configuration><property><name>a</name><value>&x;</value></property></configuration>",
	// entity declarations (issue 11.5): nested internal entities, external
	// SYSTEM/PUBLIC ones, a parameter entity, a bomb, markup in an entity
	"<!DOCTYPE configuration [<!ENTITY h \"nn\"><!ENTITY u 'hdfs://&h;:&#56;020'><!-- c --><!ELEMENT a ANY>]>\n<configuration><property name=\"a\" value=\"&u;\"/><property><name>b</name><value>&u;&amp;</value></property></configuration>",
	"<!DOCTYPE configuration [<!ENTITY xxe SYSTEM \"file:///etc/passwd\"><!ENTITY p PUBLIC \"-//x\" \"http://h/v\">]><configuration><property><name>a</name><value>&xxe;&p;</value></property></configuration>",
	"<!DOCTYPE configuration [<!ENTITY % pe SYSTEM \"http://h/d\"> %pe;]><configuration/>",
	"<!DOCTYPE l [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">]><configuration><property><name>a</name><value>&d;&d;</value></property></configuration>",
	"<!DOCTYPE configuration [<!ENTITY m \"<property/>\"><!ENTITY r \"&r;\">]><configuration>&m;</configuration>",
	"\xfe\xff\x00<\x00c\x00o\x00n\x00f\x00i\x00g\x00u\x00r\x00a\x00t\x00i\x00o\x00n\x00/\x00>",
	"<?xml version=\"1.0\" encoding=\"windows-1252\"?><configuration><property><name>a</name><value>\x80\xff</value></property></configuration>",
	"<configuration><g><property><name>a</name><value>v<x>1</x></value></property></g></configuration><configuration/>",
	"<c:configuration xmlns:c='u'><c:property c:name='a'/></c:configuration>",
	"<configuration/>",
	"",
	// issue 23: ATTLIST defaults, XML 1.1 line ends, another root, JVM properties
	"<!DOCTYPE configuration [<!ENTITY t \"true\"><!ATTLIST property final CDATA \"&t;\" value NMTOKEN ' 1 '><!ATTLIST xi:include href CDATA 'inc.xml'>]><configuration><property name=\"a\"/><xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\"/></configuration>",
	"<?xml version=\"1.1\"?>\r\u2028<configuration>\u0085<property><name>\u0085a</name><value>x\r\u0085y&#x85;</value></property></configuration>",
	"<props>" + prop("a", "/tmp/${user.name}/${env.X:-d}") + "</props>",
	// attribute floods (issue 25): many namespace declarations on the
	// root, duplicates among many attributes
	attrFlood(1200),
	conf(`<property name="a" value="v" ` + strings.Repeat(`xmlns:p='u' `, 50) + `/>`),
}

func fuzzOpts() Options {
	return Options{
		ReadFile: memFS(map[string]string{
			"inc.xml":  conf(prop("i", "${a}") + include("loop.xml")),
			"loop.xml": conf(include("inc.xml")),
		}),
		Getenv: mapLookup(map[string]string{"HOME": "/h"}),
	}
}

// FuzzParse checks that Parse never panics and that every span it returns
// for the parsed file lies inside the file (its decoded text, see
// encoding.go) with consistent line/column.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := ParseDoc("core-site.xml", []byte(s), fuzzOpts())
		src := d.Src // the decoded text for a file in another encoding
		lines := parsed.NewLines(src)
		check := func(what string, sp parsed.Span) {
			if sp.IsZero() {
				return
			}
			if sp.Start.Offset < 0 || sp.Start.Offset > sp.End.Offset || sp.End.Offset > len(src) {
				t.Fatalf("%s span %+v out of bounds (len %d)", what, sp, len(src))
			}
			if sp.Start != lines.Pos(sp.Start.Offset) || sp.End != lines.Pos(sp.End.Offset) {
				t.Fatalf("%s span %+v inconsistent", what, sp)
			}
		}
		for _, e := range d.Entries {
			if e.File == d.Path {
				check("key", e.KeySpan)
				check("value", e.ValueSpan)
			}
		}
		for _, n := range d.Notices {
			if n.File == d.Path {
				check("notice "+n.Code, n.Span)
			}
		}
		checkComments(t, d.Comments, d.Err != nil)
		for _, c := range d.IncludeComments {
			checkComments(t, c, true)
		}
		for _, p := range d.Properties {
			check("property", p.Span)
			check("delete", p.DeleteSpan)
			check("name", p.NameSpan)
			check("value", p.ValueSpan)
			check("value element", p.ValueElem)
			check("final", p.FinalSpan)
			if p.Index >= len(d.Entries) {
				t.Fatalf("property index %d out of %d entries", p.Index, len(d.Entries))
			}
		}
		if d.Err != nil {
			if d.Err.File == d.Path && (d.Err.Pos.Offset < 0 || d.Err.Pos.Offset > len(src) || d.Err.Pos != lines.Pos(d.Err.Pos.Offset)) {
				t.Fatalf("error position %+v out of bounds", d.Err.Pos)
			}
			if d.Err.Pos.Line < 1 || d.Err.Msg == "" {
				t.Fatalf("error without position or message: %+v", d.Err)
			}
		} else {
			check("root", d.Root)
			check("close tag", d.CloseTag)
			if d.InsertOffset > len(src) || d.InsertOffset < -1 {
				t.Fatalf("insert offset %d out of bounds", d.InsertOffset)
			}
		}
	})
}

// FuzzSubstitute checks that Substitute never panics and either expands or
// reports the depth error.
func FuzzSubstitute(f *testing.F) {
	for _, s := range []string{"${a}", "${env.X:-d}", "${a}${b}", "$${{a}}", "${a b}", "x${env.-}", "${user.name}${c}", "${env.X-}${env.Y:-${c}}"} {
		f.Add(s)
	}
	keys := mapLookup(map[string]string{"a": "${b}", "b": "${a}x", "c": "1"})
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := Substitute(s, keys, mapLookup(map[string]string{"X": ""}), mapLookup(map[string]string{"user.name": "u"})); err != nil {
			if _, ok := err.(*SubstitutionDepthError); !ok {
				t.Fatalf("unexpected error type %T", err)
			}
		}
		if _, err := expand(s, keys, nil); err != nil {
			if _, ok := err.(*SubstitutionDepthError); !ok {
				t.Fatalf("expand: unexpected error type %T", err)
			}
		}
		Unknowns(s)
	})
}

// checkComments holds c to parsed.Comments.Check and to XML's form: each
// comment is "<!--" to "-->" and its text what lies between them; only the
// last one of a file that did not parse may lack its "-->".
func checkComments(t *testing.T, c *parsed.Comments, failed bool) {
	t.Helper()
	if c == nil {
		return
	}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	for i, cm := range c.List {
		text := c.Src[cm.Span.Start.Offset:cm.Span.End.Offset]
		closed := bytes.HasSuffix(text, []byte("-->")) && len(text) >= len("<!---->")
		if !bytes.HasPrefix(text, []byte("<!--")) || !closed && !(failed && i == len(c.List)-1 && cm.Span.End.Offset == len(c.Src)) {
			t.Fatalf("comment %q is not an XML comment", text)
		}
		textEnd := cm.Span.End.Offset
		if closed {
			textEnd -= len("-->")
		}
		if cm.Text.Start.Offset != cm.Span.Start.Offset+len("<!--") || cm.Text.End.Offset != textEnd {
			t.Fatalf("comment %q: text %+v is not what lies between its markers", text, cm.Text)
		}
	}
}

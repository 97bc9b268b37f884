package hadoopxml

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// spanView renders a span as its text and 1-based start position.
type spanView struct {
	Text      string
	Line, Col int
}

func viewSpan(src []byte, s parsed.Span) spanView {
	if s.IsZero() {
		return spanView{}
	}
	return spanView{Text: string(src[s.Start.Offset:s.End.Offset]), Line: s.Start.Line, Col: s.Start.Col}
}

type propView struct {
	Index                         int
	Span, Delete                  spanView
	Name, Value, ValueElem, Final spanView
	Compact                       bool
}

func viewProps(d *Doc) []propView {
	var out []propView
	for _, p := range d.Properties {
		out = append(out, propView{
			Index: p.Index, Span: viewSpan(d.Src, p.Span), Delete: viewSpan(d.Src, p.DeleteSpan),
			Name: viewSpan(d.Src, p.NameSpan), Value: viewSpan(d.Src, p.ValueSpan),
			ValueElem: viewSpan(d.Src, p.ValueElem), Final: viewSpan(d.Src, p.FinalSpan), Compact: p.Compact,
		})
	}
	return out
}

func TestPropertySpans(t *testing.T) {
	lf := "<configuration>\n  <property>\n    <name>dfs.replication</name>\n    <value>3</value>\n  </property>\n</configuration>\n"
	crlf := strings.ReplaceAll(lf, "\n", "\r\n")
	tests := []struct {
		name string
		src  string
		want []propView
	}{
		{
			name: "LF",
			src:  lf,
			want: []propView{{
				Index:     0,
				Span:      spanView{"<property>\n    <name>dfs.replication</name>\n    <value>3</value>\n  </property>", 2, 3},
				Delete:    spanView{"  <property>\n    <name>dfs.replication</name>\n    <value>3</value>\n  </property>\n", 2, 1},
				Name:      spanView{"dfs.replication", 3, 11},
				Value:     spanView{"3", 4, 12},
				ValueElem: spanView{"<value>3</value>", 4, 5},
			}},
		},
		{
			name: "CRLF",
			src:  crlf,
			want: []propView{{
				Index:     0,
				Span:      spanView{"<property>\r\n    <name>dfs.replication</name>\r\n    <value>3</value>\r\n  </property>", 2, 3},
				Delete:    spanView{"  <property>\r\n    <name>dfs.replication</name>\r\n    <value>3</value>\r\n  </property>\r\n", 2, 1},
				Name:      spanView{"dfs.replication", 3, 11},
				Value:     spanView{"3", 4, 12},
				ValueElem: spanView{"<value>3</value>", 4, 5},
			}},
		},
		{
			name: "CRLF inside a value",
			src:  "<configuration><property><name>a</name><value>l1\r\nl2</value></property></configuration>",
			want: []propView{{
				Index:     0,
				Span:      spanView{"<property><name>a</name><value>l1\r\nl2</value></property>", 1, 16},
				Delete:    spanView{"<property><name>a</name><value>l1\r\nl2</value></property>", 1, 16},
				Name:      spanView{"a", 1, 32},
				Value:     spanView{"l1\r\nl2", 1, 47},
				ValueElem: spanView{"<value>l1\r\nl2</value>", 1, 40},
			}},
		},
		{
			name: "CDATA markers are inside the value span",
			src:  "<configuration>\n<property><name>a</name><value>x<![CDATA[y]]>z</value></property>\n</configuration>",
			want: []propView{{
				Index:     0,
				Span:      spanView{"<property><name>a</name><value>x<![CDATA[y]]>z</value></property>", 2, 1},
				Delete:    spanView{"<property><name>a</name><value>x<![CDATA[y]]>z</value></property>\n", 2, 1},
				Name:      spanView{"a", 2, 17},
				Value:     spanView{"x<![CDATA[y]]>z", 2, 32},
				ValueElem: spanView{"<value>x<![CDATA[y]]>z</value>", 2, 25},
			}},
		},
		{
			name: "CDATA-only value",
			src:  "<configuration>\n<property><name>a</name><value><![CDATA[y]]></value></property>\n</configuration>",
			want: []propView{{
				Index:     0, // read as "y" (Hadoop 2.10.1+, 3.1.4+, 3.2.2+, 3.3+)
				Span:      spanView{"<property><name>a</name><value><![CDATA[y]]></value></property>", 2, 1},
				Delete:    spanView{"<property><name>a</name><value><![CDATA[y]]></value></property>\n", 2, 1},
				Name:      spanView{"a", 2, 17},
				Value:     spanView{"<![CDATA[y]]>", 2, 32},
				ValueElem: spanView{"<value><![CDATA[y]]></value>", 2, 25},
			}},
		},
		{
			name: "compact form",
			src:  "<configuration>\n\t<property name='a' final=\"true\" value=\"x &amp; y\"/>\n</configuration>",
			want: []propView{{
				Index:   0,
				Span:    spanView{"<property name='a' final=\"true\" value=\"x &amp; y\"/>", 2, 2},
				Delete:  spanView{"\t<property name='a' final=\"true\" value=\"x &amp; y\"/>\n", 2, 1},
				Name:    spanView{"a", 2, 18},
				Value:   spanView{"x &amp; y", 2, 41},
				Final:   spanView{"true", 2, 28},
				Compact: true,
			}},
		},
		{
			// byte columns: 愛 and ف are 3 and 2 bytes in UTF-8
			name: "multi-byte UTF-8",
			src:  "<configuration>\n<property><name>愛</name><value>ف=ف</value></property>\n</configuration>",
			want: []propView{{
				Index:     0,
				Span:      spanView{"<property><name>愛</name><value>ف=ف</value></property>", 2, 1},
				Delete:    spanView{"<property><name>愛</name><value>ف=ف</value></property>\n", 2, 1},
				Name:      spanView{"愛", 2, 17},
				Value:     spanView{"ف=ف", 2, 34},
				ValueElem: spanView{"<value>ف=ف</value>", 2, 27},
			}},
		},
		{
			name: "empty, self-closing and missing values; trimmed name; final element",
			src: "<configuration>\n<property><name> a </name><value></value></property>\n" +
				"<property><name>b</name><value/><final>true</final></property>\n" +
				"<property><name>c</name></property>\n</configuration>",
			want: []propView{
				{
					Index:     -1,
					Span:      spanView{"<property><name> a </name><value></value></property>", 2, 1},
					Delete:    spanView{"<property><name> a </name><value></value></property>\n", 2, 1},
					Name:      spanView{" a ", 2, 17},
					Value:     spanView{"", 2, 34},
					ValueElem: spanView{"<value></value>", 2, 27},
				},
				{
					Index:     0,
					Span:      spanView{"<property><name>b</name><value/><final>true</final></property>", 3, 1},
					Delete:    spanView{"<property><name>b</name><value/><final>true</final></property>\n", 3, 1},
					Name:      spanView{"b", 3, 17},
					Value:     spanView{"", 3, 31},
					ValueElem: spanView{"<value/>", 3, 25},
					Final:     spanView{"true", 3, 40},
				},
				{
					Index:  -1,
					Span:   spanView{"<property><name>c</name></property>", 4, 1},
					Delete: spanView{"<property><name>c</name></property>\n", 4, 1},
					Name:   spanView{"c", 4, 17},
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ParseDoc("hdfs-site.xml", []byte(tt.src), Options{})
			if d.Err != nil {
				t.Fatalf("unexpected error: %v", d.Err)
			}
			if diff := cmp.Diff(tt.want, viewProps(d)); diff != "" {
				t.Errorf("properties (-want +got):\n%s", diff)
			}
			checkSpansConsistent(t, d)
		})
	}
}

// checkSpansConsistent verifies every span's line/column against its offset
// and that entries carry the spans of their property element.
func checkSpansConsistent(t *testing.T, d *Doc) {
	t.Helper()
	lines := parsed.NewLines(d.Src)
	check := func(what string, s parsed.Span) {
		if s.IsZero() {
			return
		}
		if s.Start != lines.Pos(s.Start.Offset) || s.End != lines.Pos(s.End.Offset) || s.End.Offset < s.Start.Offset {
			t.Errorf("%s span %+v inconsistent with offsets", what, s)
		}
	}
	for _, p := range d.Properties {
		check("property", p.Span)
		check("delete", p.DeleteSpan)
		check("name", p.NameSpan)
		check("value", p.ValueSpan)
		check("final", p.FinalSpan)
		if p.Index >= 0 {
			e := d.Entries[p.Index]
			if e.KeySpan != p.NameSpan || e.ValueSpan != p.ValueSpan {
				t.Errorf("entry %q spans %v %v differ from property %v %v", e.Key, e.KeySpan, e.ValueSpan, p.NameSpan, p.ValueSpan)
			}
		}
	}
	for _, e := range d.Entries {
		if e.File == d.Path {
			check("entry key", e.KeySpan)
			check("entry value", e.ValueSpan)
		}
	}
}

func TestDocLayout(t *testing.T) {
	tests := []struct {
		name          string
		src           string
		insertLine    int // line of InsertOffset's position; 0 means InsertOffset == -1
		insertCol     int
		indent, nl    string
		closeTag      string
		propertyCount int
	}{
		{name: "indented", src: "<configuration>\n    <property><name>a</name><value>1</value></property>\n</configuration>\n",
			insertLine: 3, insertCol: 1, indent: "    ", nl: "\n", closeTag: "</configuration>", propertyCount: 1},
		{name: "tabs and CRLF", src: "<configuration>\r\n\t<property><name>a</name><value>1</value></property>\r\n  </configuration>",
			insertLine: 3, insertCol: 1, indent: "\t", nl: "\r\n", closeTag: "</configuration>", propertyCount: 1},
		{name: "majority indent", src: "<configuration>\n<property name='a' value='1'/>\n  <property name='b' value='1'/>\n  <property name='c' value='1'/>\n</configuration>",
			insertLine: 5, insertCol: 1, indent: "  ", nl: "\n", closeTag: "</configuration>", propertyCount: 3},
		{name: "one line", src: "<configuration><property><name>a</name><value>1</value></property></configuration>",
			insertLine: 1, insertCol: 67, indent: "  ", nl: "\n", closeTag: "</configuration>", propertyCount: 1},
		{name: "close tag after text on its line", src: "<configuration>\n  <property name='a' value='1'/></configuration>\n",
			insertLine: 2, insertCol: 33, indent: "  ", nl: "\n", closeTag: "</configuration>", propertyCount: 1},
		{name: "self-closing root", src: "<?xml version=\"1.0\"?>\n<configuration/>\n", indent: "  ", nl: "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ParseDoc("core-site.xml", []byte(tt.src), Options{})
			if d.Err != nil {
				t.Fatalf("unexpected error: %v", d.Err)
			}
			if tt.insertLine == 0 {
				if d.InsertOffset != -1 || !d.CloseTag.IsZero() {
					t.Errorf("InsertOffset = %d, CloseTag = %v; want -1 and zero", d.InsertOffset, d.CloseTag)
				}
			} else if p := parsed.NewLines(d.Src).Pos(d.InsertOffset); p.Line != tt.insertLine || p.Col != tt.insertCol {
				t.Errorf("InsertOffset at %v, want %d:%d", p, tt.insertLine, tt.insertCol)
			}
			if d.Indent != tt.indent || d.Newline != tt.nl {
				t.Errorf("Indent %q Newline %q, want %q %q", d.Indent, d.Newline, tt.indent, tt.nl)
			}
			if got := viewSpan(d.Src, d.CloseTag).Text; got != tt.closeTag {
				t.Errorf("CloseTag text %q, want %q", got, tt.closeTag)
			}
			if got := viewSpan(d.Src, d.Root); !strings.HasPrefix(got.Text, "<configuration") || !strings.HasSuffix(got.Text, ">") {
				t.Errorf("Root text %q", got.Text)
			}
			if len(d.Properties) != tt.propertyCount {
				t.Errorf("%d properties, want %d", len(d.Properties), tt.propertyCount)
			}
		})
	}
}

func TestDocPropertiesExcludeIncludes(t *testing.T) {
	files := map[string]string{
		"core-site.xml": conf(prop("a", "1") + include("inc.xml") + prop("b", "2")),
		"inc.xml":       conf(prop("c", "3")),
	}
	d := ParseDoc("core-site.xml", []byte(files["core-site.xml"]), Options{ReadFile: memFS(files)})
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	var got []string
	for _, p := range d.Properties {
		got = append(got, d.Entries[p.Index].Key)
	}
	if diff := cmp.Diff([]string{"a", "b"}, got); diff != "" {
		t.Errorf("properties (-want +got):\n%s", diff)
	}
	if e := d.Lookup("c"); e == nil || e.File != "inc.xml" || viewSpan([]byte(files["inc.xml"]), e.ValueSpan).Text != "3" {
		t.Errorf("included entry %+v", e)
	}
}

func TestEditorSplice(t *testing.T) {
	// The spans are what a byte-splicing editor uses: replacing ValueSpan
	// and re-parsing gives the new value, everything else byte-identical.
	src := "<?xml version=\"1.0\"?>\r\n<!-- c -->\r\n<configuration>\r\n  <property>\r\n    <name>dfs.blocksize</name>\r\n    <value><![CDATA[1m]]></value>\r\n  </property>\r\n</configuration>\r\n"
	d := ParseDoc("hdfs-site.xml", []byte(src), Options{})
	p := d.Properties[0]
	out := src[:p.ValueSpan.Start.Offset] + "134217728" + src[p.ValueSpan.End.Offset:]
	if got := looked(Parse("hdfs-site.xml", []byte(out), Options{}), "dfs.blocksize"); got != "134217728" {
		t.Errorf("after set: %q", got)
	}
	ins := src[:d.InsertOffset] + d.Indent + "<property><name>x</name><value>1</value></property>" + d.Newline + src[d.InsertOffset:]
	if got := looked(Parse("hdfs-site.xml", []byte(ins), Options{}), "x"); got != "1" {
		t.Errorf("after insert: %q\n%s", got, ins)
	}
	del := src[:p.DeleteSpan.Start.Offset] + src[p.DeleteSpan.End.Offset:]
	if want := "<?xml version=\"1.0\"?>\r\n<!-- c -->\r\n<configuration>\r\n</configuration>\r\n"; del != want {
		t.Errorf("after delete: %q", del)
	}
}

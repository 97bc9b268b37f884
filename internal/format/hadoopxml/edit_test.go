package hadoopxml

import (
	"maps"
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/parsed/edittest"
)

// editCase is one operation on one file and the bytes it must give.
// include, when set, is the content of conf/inc.xml, readable by the file.
type editCase struct {
	name     string
	src      string
	include  string
	op       string // set, delete, rename
	key, arg string // arg: the value (set) or the new key (rename)
	want     string
	wantErr  error
}

// multi is a property written one element per line, as Hadoop's templates do.
func multi(name, value string) string {
	return "  <property>\n    <name>" + name + "</name>\n    <value>" + value + "</value>\n  </property>\n"
}

const incHref = `  <xi:include href="inc.xml" xmlns:xi="http://www.w3.org/2001/XInclude"/>` + "\n"

var editCases = []editCase{
	// set, existing key
	{name: "set existing", src: conf(multi("dfs.replication", "3")), op: "set", key: "dfs.replication", arg: "2", want: conf(multi("dfs.replication", "2"))},
	{name: "set existing one-line", src: conf(prop("a", "1") + prop("b", "2")), op: "set", key: "a", arg: "9", want: conf(prop("a", "9") + prop("b", "2"))},
	{name: "set the same value: no edit", src: conf(prop("a", "1")), op: "set", key: "a", arg: "1", want: conf(prop("a", "1"))},
	{name: "set escapes & < >", src: conf(prop("a", "1")), op: "set", key: "a", arg: "x&y<z>]]>", want: conf(prop("a", "x&amp;y&lt;z&gt;]]&gt;"))},
	{name: "set keeps quotes and spaces", src: conf(prop("a", "1")), op: "set", key: "a", arg: ` "q" 'r' `, want: conf(prop("a", ` "q" 'r' `))},
	{name: "set escapes a carriage return", src: conf(prop("a", "1")), op: "set", key: "a", arg: "x\ry", want: conf(prop("a", "x&#13;y"))},
	{name: "set the winning duplicate", src: conf(prop("a", "1") + prop("a", "2")), op: "set", key: "a", arg: "3", want: conf(prop("a", "1") + prop("a", "3"))},
	{name: "set the first final definition", src: conf(finalProp("a", "1") + prop("a", "2")), op: "set", key: "a", arg: "3", want: conf(finalProp("a", "3") + prop("a", "2"))},
	{name: "set a deprecated key by its new name", src: conf(prop("dfs.block.size", "1048576")), op: "set", key: "dfs.blocksize", arg: "134217728", want: conf(prop("dfs.block.size", "134217728"))},
	{name: "set a deprecated key by its old name", src: conf(prop("dfs.block.size", "1048576")), op: "set", key: "dfs.block.size", arg: "2m", want: conf(prop("dfs.block.size", "2m"))},
	{name: "set replaces a CDATA value", src: conf(prop("a", "<![CDATA[x]]>")), op: "set", key: "a", arg: "y", want: conf(prop("a", "y"))},
	{name: "set fills <value/>", src: conf("<property><name>a</name><value/></property>\n"), op: "set", key: "a", arg: "y", want: conf(prop("a", "y"))},
	{name: "set fills <value></value>", src: conf(prop("a", "")), op: "set", key: "a", arg: "y", want: conf(prop("a", "y"))},
	{name: "set adds a missing <value>", src: conf("<property><name>a</name><final>true</final></property>\n"), op: "set", key: "a", arg: "y",
		want: conf("<property><name>a</name><value>y</value><final>true</final></property>\n")},
	// Hadoop 3.4.1 TestConfiguration testCommentsInValue L753-762: the whole content is replaced
	{name: "Hadoop testCommentsInValue", src: conf(prop("my.comment", "this <!--comment here--> contains a comment")), op: "set", key: "my.comment", arg: "plain",
		want: conf(prop("my.comment", "plain"))},
	// Hadoop 3.4.1 TestConfiguration testCompactFormat L580-600
	{name: "Hadoop testCompactFormat: set a compact value", src: conf(`<property name="a" value="b"/>` + "\n" + `<property name="c" value="d" final="true"/>` + "\n"),
		op: "set", key: "c", arg: `x"y'z` + "\t",
		want: conf(`<property name="a" value="b"/>` + "\n" + `<property name="c" value="x&quot;y&apos;z&#9;" final="true"/>` + "\n")},
	{name: "set adds a value attribute", src: conf(`<property name='a' final="true"/>` + "\n"), op: "set", key: "a", arg: "v",
		want: conf(`<property name='a' value='v' final="true"/>` + "\n")},
	{name: "set refuses a key set in an included file", src: conf(incHref), include: conf(prop("a", "1")), op: "set", key: "a", arg: "2", wantErr: parsed.ErrCannotRepresent},
	{name: "set a key this file sets after the include", src: conf(incHref + prop("a", "2")), include: conf(prop("a", "1")), op: "set", key: "a", arg: "3",
		want: conf(incHref + prop("a", "3"))},
	{name: "set refuses an empty value", src: conf(prop("a", "1")), op: "set", key: "a", arg: "", wantErr: parsed.ErrCannotRepresent},
	{name: "set refuses a control character", src: conf(prop("a", "1")), op: "set", key: "a", arg: "x\x01", wantErr: parsed.ErrCannotRepresent},
	{name: "set refuses invalid UTF-8", src: conf(prop("a", "1")), op: "set", key: "a", arg: "caf\xe9", wantErr: parsed.ErrCannotRepresent},
	{name: "set refuses a key with blanks around", src: conf(prop("a", "1")), op: "set", key: " b", arg: "1", wantErr: parsed.ErrCannotRepresent},

	// set, new key
	{name: "set new key, one element per line", src: conf(multi("a", "1")), op: "set", key: "dfs.blocksize", arg: "134217728",
		want: conf(multi("a", "1") + multi("dfs.blocksize", "134217728"))},
	{name: "set new key, one-line layout", src: conf(prop("a", "1")), op: "set", key: "b", arg: "2", want: conf(prop("a", "1") + prop("b", "2"))},
	{name: "set new key, the last property's indentation", src: conf(" <property>\n      <name>a</name>\n      <value>1</value>\n </property>\n"), op: "set", key: "b", arg: "2",
		want: conf(" <property>\n      <name>a</name>\n      <value>1</value>\n </property>\n <property>\n      <name>b</name>\n      <value>2</value>\n </property>\n")},
	{name: "set new key, compact layout", src: conf(`  <property name="a" value="1"/>` + "\n"), op: "set", key: "b", arg: `"2"`,
		want: conf(`  <property name="a" value="1"/>` + "\n" + `  <property name="b" value="&quot;2&quot;"/>` + "\n")},
	{name: "set new key, blank lines between properties", src: conf(multi("a", "1") + "\n" + multi("b", "2")), op: "set", key: "c", arg: "3",
		want: conf(multi("a", "1") + "\n" + multi("b", "2") + "\n" + multi("c", "3"))},
	{name: "set new key, blank lines and a blank line before the end", src: conf(multi("a", "1") + "\n" + multi("b", "2") + "\n"), op: "set", key: "c", arg: "3",
		want: conf(multi("a", "1") + "\n" + multi("b", "2") + "\n" + multi("c", "3") + "\n")},
	{name: "set new key, empty configuration", src: conf(""), op: "set", key: "a", arg: "1", want: conf(multi("a", "1"))},
	{name: "set new key, one-line configuration", src: "<configuration></configuration>", op: "set", key: "a", arg: "1",
		want: "<configuration>\n" + multi("a", "1") + "</configuration>"},
	{name: "set new key, self-closing configuration", src: "<?xml version=\"1.0\"?>\n<configuration/>\n", op: "set", key: "a", arg: "1",
		want: "<?xml version=\"1.0\"?>\n<configuration>\n" + multi("a", "1") + "</configuration>\n"},
	{name: "set new key, no final newline", src: "<configuration>\n" + multi("a", "1") + "</configuration>", op: "set", key: "b", arg: "2",
		want: "<configuration>\n" + multi("a", "1") + multi("b", "2") + "</configuration>"},
	{name: "set new key, </configuration> after a property on its line", src: "<configuration>\n  <property><name>a</name><value>1</value></property></configuration>\n", op: "set", key: "b", arg: "2",
		want: "<configuration>\n  <property><name>a</name><value>1</value></property>\n  <property><name>b</name><value>2</value></property>\n</configuration>\n"},
	{name: "set new key, escaped", src: conf(prop("a", "1")), op: "set", key: "x&y", arg: "<v>", want: conf(prop("a", "1") + prop("x&amp;y", "&lt;v&gt;"))},
	{name: "set new key keeps the declaration, PI and comments", src: "<?xml version=\"1.0\"?>\n<?xml-stylesheet type=\"text/xsl\" href=\"configuration.xsl\"?>\n<!-- license -->\n<configuration>\n  <!-- site -->\n" + multi("a", "1") + "</configuration>\n",
		op: "set", key: "b", arg: "2",
		want: "<?xml version=\"1.0\"?>\n<?xml-stylesheet type=\"text/xsl\" href=\"configuration.xsl\"?>\n<!-- license -->\n<configuration>\n  <!-- site -->\n" + multi("a", "1") + multi("b", "2") + "</configuration>\n"},

	// delete
	{name: "delete", src: conf(multi("a", "1") + multi("b", "2")), op: "delete", key: "a", want: conf(multi("b", "2"))},
	{name: "delete every definition", src: conf(prop("a", "1") + prop("b", "2") + finalProp("a", "3")), op: "delete", key: "a", want: conf(prop("b", "2"))},
	{name: "delete a property sharing its line", src: "<configuration><property><name>a</name><value>1</value></property><property><name>b</name><value>2</value></property></configuration>",
		op: "delete", key: "a", want: "<configuration><property><name>b</name><value>2</value></property></configuration>"},
	{name: "delete a deprecated spelling", src: conf(prop("dfs.block.size", "1") + prop("x", "2")), op: "delete", key: "dfs.blocksize", want: conf(prop("x", "2"))},
	{name: "delete a property without a value too", src: conf(prop("a", "") + prop("a", "1")), op: "delete", key: "a", want: conf("")},
	{name: "delete refuses a key an included file sets", src: conf(incHref + prop("a", "2")), include: conf(prop("a", "1")), op: "delete", key: "a", wantErr: parsed.ErrCannotRepresent},
	{name: "delete an absent key", src: conf(prop("a", "1")), op: "delete", key: "b", wantErr: parsed.ErrNotFound},

	// rename
	{name: "rename a deprecated key", src: conf(multi("dfs.block.size", "1048576")), op: "rename", key: "dfs.block.size", arg: "dfs.blocksize", want: conf(multi("dfs.blocksize", "1048576"))},
	{name: "rename every definition", src: conf(prop("a", "1") + prop("a", "2")), op: "rename", key: "a", arg: "b", want: conf(prop("b", "1") + prop("b", "2"))},
	{name: "rename a compact name", src: conf(`<property name="a" value="1"/>` + "\n"), op: "rename", key: "a", arg: `b"c`, want: conf(`<property name="b&quot;c" value="1"/>` + "\n")},
	{name: "rename onto a set key", src: conf(prop("dfs.block.size", "1") + prop("dfs.blocksize", "2")), op: "rename", key: "dfs.block.size", arg: "dfs.blocksize", wantErr: parsed.ErrExists},
	{name: "rename an absent key", src: conf(prop("a", "1")), op: "rename", key: "b", arg: "c", wantErr: parsed.ErrNotFound},
	{name: "rename refuses a key an included file sets", src: conf(incHref + prop("a", "2")), include: conf(prop("a", "1")), op: "rename", key: "a", arg: "b", wantErr: parsed.ErrCannotRepresent},
}

const editPath = "conf/hdfs-site.xml"

// parseWith parses src as conf/hdfs-site.xml, with conf/inc.xml holding
// include when it is set.
func parseWith(src []byte, include string) *Doc {
	opts := Options{}
	if include != "" {
		opts.ReadFile = memFS(map[string]string{"conf/inc.xml": include})
	}
	return ParseDoc(editPath, src, opts)
}

// effectiveXML is what Hadoop reads: key -> value as written.
func effectiveXML(f *parsed.File) map[string]xmlValue {
	m := map[string]xmlValue{}
	for k, e := range f.Effective() {
		m[k] = xmlValue{Value: writtenValue(e), Kind: e.Kind}
	}
	return m
}

// expectedXML returns what Hadoop must read after op.
func expectedXML(before map[string]xmlValue, op, key, arg string) map[string]xmlValue {
	want := maps.Clone(before)
	ck := canonical(key)
	switch op {
	case "set":
		want[ck] = xmlValue{Value: arg, Kind: parsed.KindString}
	case "delete":
		delete(want, ck)
	case "rename":
		if v, ok := want[ck]; ok && canonical(arg) != ck {
			delete(want, ck)
			want[canonical(arg)] = v
		}
	}
	return want
}

// xmlFormat is conf/hdfs-site.xml, with conf/inc.xml holding include when
// it is set, for the editor checks of edittest.
func xmlFormat(include string) edittest.Format[*Doc, map[string]xmlValue] {
	return edittest.Format[*Doc, map[string]xmlValue]{
		Reader:   "Hadoop",
		Parse:    func(src []byte) (*Doc, bool) { return parseWith(src, include), true },
		Err:      func(d *Doc) error { return edittest.ParseErr(d.Err) },
		Editor:   func(d *Doc) parsed.Editor { return NewEditor(d) },
		View:     func(d *Doc) map[string]xmlValue { return effectiveXML(d.File) },
		Expected: expectedXML,
	}
}

func TestEditor(t *testing.T) {
	for _, tc := range editCases {
		edittest.RunRow(t, xmlFormat(tc.include), edittest.Row{Name: tc.name, Src: tc.src, Op: tc.op, Key: tc.key, Arg: tc.arg, Want: tc.want, WantErr: tc.wantErr})
	}
}

func TestEditorParseError(t *testing.T) {
	d := ParseDoc("hdfs-site.xml", []byte("<configuration><property>"), Options{})
	if d.Err == nil {
		t.Fatal("no parse error")
	}
	for _, ed := range []parsed.Editor{NewEditor(d), NewEditor(nil)} {
		edittest.RefusesAll(t, ed, "a", "b")
	}
}

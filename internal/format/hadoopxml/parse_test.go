package hadoopxml

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// TestParseSemantics checks what Lookup returns (what Hadoop's get() would
// see before variable expansion across files) and which notices are raised.
// "<nil>" means no entry, "<null>" a KindNull entry (a final key without a
// value).
func TestParseSemantics(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		opts   Options
		lookup map[string]string
		codes  []string
	}{
		// Hadoop 3.4.1 TestConfiguration testCompactFormat L580-600
		{
			name:   "testCompactFormat",
			src:    conf(`<property name="a" value="b"/>` + "\n" + `<property name="c" value="d" final="true"/>` + "\n" + `<property name="e" value="f" source="g"/>` + "\n"),
			lookup: map[string]string{"a": "b", "c": "d", "e": "f"},
		},
		// Hadoop 3.4.1 Configuration.java, "name is trimmed" (L3377-3386), TestConfiguration testTrim
		{
			name:   "testTrim name is trimmed",
			src:    conf(prop(" \n\tfoo1\t ", "foo1.value")),
			lookup: map[string]string{"foo1": "foo1.value"},
		},
		// Configuration.Parser.handleStartProperty: the name attribute is not trimmed
		{
			name:   "compact name attribute is not trimmed",
			src:    conf(`<property name=" d " value="v"/>`),
			lookup: map[string]string{" d ": "v", "d": "<nil>"},
		},
		// Hadoop 3.4.1 Configuration.java, "value is not trimmed when stored"; corpus hdfs-site.malformed.xml (HDFS-7684)
		{
			name:   "value is kept untrimmed",
			src:    conf(prop("dfs.namenode.backup.http-address", "  0.0.0.0:50105  ")),
			lookup: map[string]string{"dfs.namenode.backup.http-address": "  0.0.0.0:50105  "},
		},
		// XML attribute-value normalisation (Woodstox, as Hadoop reads it)
		{
			name:   "compact value white space is normalised",
			src:    conf("<property name=\"a\" value=\"v\tw\nz&#10;\"/>"),
			lookup: map[string]string{"a": "v w z\n"},
		},
		// Hadoop 3.4.1 TestConfiguration testCommentsInValue L753-762
		{
			name:   "testCommentsInValue",
			src:    conf(prop("my.comment", "this <!--comment here--> contains a comment")),
			lookup: map[string]string{"my.comment": "this  contains a comment"},
		},
		// TestConfiguration testEscapedCharactersInValue (ESCAPED = "&apos;&#39;&#0039;&#x27;")
		{
			name:   "testEscapedCharactersInValue",
			src:    conf(prop("my.comment", "&apos;&#39;&#0039;&#x27;")),
			lookup: map[string]string{"my.comment": "''''"},
		},
		// TestConfiguration testMultiByteCharacters
		{
			name:   "testMultiByteCharacters",
			src:    conf(prop("multi_byte_\u611b_name", "multi_byte_\u0641_value")),
			lookup: map[string]string{"multi_byte_\u611b_name": "multi_byte_\u0641_value"},
		},
		// Hadoop 2.9.0-2.10.0, 3.0.x, 3.1.0-3.1.3, 3.2.0-3.2.1: the StAX loop
		// of HADOOP-14216 appended only CHARACTERS events, and Woodstox
		// reports CDATA sections as CDATA events, so their text never
		// reached the value (Options.IgnoreCDATA).
		{
			name:   "CDATA-only value is no value where CDATA is ignored",
			src:    conf(prop("a", "<![CDATA[x<y]]>")),
			opts:   Options{IgnoreCDATA: true},
			lookup: map[string]string{"a": "<nil>"},
			codes:  []string{NoticeCDATAIgnored, NoticeEmptyValue},
		},
		{
			name:   "CDATA inside text is dropped where CDATA is ignored",
			src:    conf(prop("b", "p<![CDATA[q]]>r")),
			opts:   Options{IgnoreCDATA: true},
			lookup: map[string]string{"b": "pr"},
			codes:  []string{NoticeCDATAIgnored},
		},
		// Hadoop 3.4.1 Configuration.java, "empty <value></value> is no value" (L3382-3385)
		{
			name:   "empty value element",
			src:    conf(prop("a", "")),
			lookup: map[string]string{"a": "<nil>"},
			codes:  []string{NoticeEmptyValue},
		},
		{
			name:   "self-closing value element",
			src:    conf("<property><name>a</name><value/></property>\n"),
			lookup: map[string]string{"a": "<nil>"},
			codes:  []string{NoticeEmptyValue},
		},
		{
			name:   "no value element",
			src:    conf("<property><name>a</name><description>d</description></property>\n"),
			lookup: map[string]string{"a": "<nil>"},
			codes:  []string{NoticeEmptyValue},
		},
		{
			name:   "compact value=\"\" is an empty string, not no value",
			src:    conf(`<property name="a" value=""/>`),
			lookup: map[string]string{"a": ""},
		},
		{
			name:   "empty value keeps the earlier value",
			src:    conf(prop("a", "1") + prop("a", "")),
			lookup: map[string]string{"a": "1"},
			codes:  []string{NoticeEmptyValue},
		},
		// Hadoop 3.4.1 TestConfiguration testFinalParam L558-578 (two
		// resources in Hadoop's test; the same loadProperty path in one file)
		{
			name:   "testFinalParam final with empty value, later value ignored",
			src:    conf(finalProp("my.var", "") + prop("my.var", "myval")),
			lookup: map[string]string{"my.var": "<null>"},
			codes:  []string{NoticeEmptyValue, NoticeFinalEmptyOverride},
		},
		// Hadoop 3.4.1 TestConfiguration testFinalWarnings L203-245
		{
			name:   "testFinalWarnings first final wins",
			src:    conf(finalProp("prop", "A") + finalProp("prop", "BB")),
			lookup: map[string]string{"prop": "A"},
			codes:  []string{NoticeFinalOverride},
		},
		// checkForOverride warns only when the value differs
		{
			name:   "redefining a final key with the same value is silent",
			src:    conf(finalProp("a", "1") + prop("a", "1")),
			lookup: map[string]string{"a": "1"},
		},
		{
			name:   "final after a value makes the later value final",
			src:    conf(prop("a", "1") + finalProp("a", "2") + prop("a", "3")),
			lookup: map[string]string{"a": "2"},
			codes:  []string{NoticeDuplicateKey, NoticeFinalOverride},
		},
		{
			name:   "final with empty value after a value keeps that value final",
			src:    conf(prop("a", "1") + finalProp("a", "") + prop("a", "3")),
			lookup: map[string]string{"a": "1"},
			codes:  []string{NoticeEmptyValue, NoticeFinalOverride},
		},
		// Hadoop 3.4.1 Configuration.java, "final only if the text is exactly true" (L3388)
		{
			name:   "final True is not final",
			src:    conf("<property><name>a</name><value>1</value><final>True</final></property>\n" + prop("a", "2")),
			lookup: map[string]string{"a": "2"},
			codes:  []string{NoticeDuplicateKey, NoticeFinalNotTrue},
		},
		{
			name:   "compact final TRUE is not final",
			src:    conf(`<property name="a" value="1" final="TRUE"/>` + prop("a", "2")),
			lookup: map[string]string{"a": "2"},
			codes:  []string{NoticeDuplicateKey, NoticeFinalNotTrue},
		},
		{
			name:   "final false is silent",
			src:    conf("<property><name>a</name><value>1</value><final>false</final></property>\n"),
			lookup: map[string]string{"a": "1"},
		},
		// Hadoop 3.4.1 Configuration.java, "Resources added later override earlier ones"; corpus ambari hdfs-site duplicates
		{
			name:   "duplicate non-final key, last wins",
			src:    conf(prop("dfs.namenode.handler.count", "40") + prop("dfs.namenode.handler.count", "100")),
			lookup: map[string]string{"dfs.namenode.handler.count": "100"},
			codes:  []string{NoticeDuplicateKey},
		},
		// Hadoop 3.4.1 Configuration.java deprecated keys (L3432-3445)
		{
			name:   "deprecated key stored under the new key",
			src:    conf(prop("dfs.block.size", "1m")),
			lookup: map[string]string{"dfs.blocksize": "1m", "dfs.block.size": "<nil>"},
			codes:  []string{NoticeDeprecatedKey},
		},
		// Hadoop 3.4.1 TestConfigurationDeprecation testDeprecation L128-: aliased both ways, last wins
		{
			name:   "testDeprecation last of old and new key wins",
			src:    conf(prop("dfs.blocksize", "1m") + prop("dfs.block.size", "2m")),
			lookup: map[string]string{"dfs.blocksize": "2m"},
			codes:  []string{NoticeDuplicateKey, NoticeDeprecatedKey},
		},
		// Hadoop 3.4.1 TestConfigurationDeprecation testDeprecationForFinalParameters L194-
		{
			name:   "testDeprecationForFinalParameters final on the old key protects the new",
			src:    conf(finalProp("dfs.block.size", "1m") + prop("dfs.blocksize", "2m")),
			lookup: map[string]string{"dfs.blocksize": "1m"},
			codes:  []string{NoticeDeprecatedKey, NoticeFinalOverride},
		},
		{
			name:   "testDeprecationForFinalParameters final on the new key protects the old",
			src:    conf(finalProp("dfs.blocksize", "1m") + prop("dfs.block.size", "2m")),
			lookup: map[string]string{"dfs.blocksize": "1m"},
			codes:  []string{NoticeDeprecatedKey, NoticeFinalOverride},
		},
		// Hadoop 3.4.1 Configuration.substituteVars: ${var} substitution within the file
		{
			name:   "substitution from another key of the file",
			src:    conf(prop("my.relfile", "${my.file}${my.suffix}") + prop("my.file", "hello") + prop("my.suffix", ".txt")),
			lookup: map[string]string{"my.relfile": "hello.txt"},
		},
		{
			name:   "substitution uses the winning value",
			src:    conf(prop("a", "${b}") + prop("b", "1") + prop("b", "2")),
			lookup: map[string]string{"a": "2"},
			codes:  []string{NoticeDuplicateKey},
		},
		{
			name:   "substitution from the environment",
			src:    conf(prop("dir", "${env.BASE:-/tmp}/x") + prop("home", "${env.HOME}")),
			opts:   Options{Getenv: mapLookup(map[string]string{"HOME": "/home/u"})},
			lookup: map[string]string{"dir": "/tmp/x", "home": "/home/u"},
		},
		{
			name:   "substitution depth",
			src:    conf(prop("a", "${b}") + prop("b", "${a}")),
			lookup: map[string]string{"a": "${b}", "b": "${a}"},
			codes:  []string{NoticeSubstitutionDepth, NoticeSubstitutionDepth},
		},
		// Configuration.Parser.handleEndProperty drops a property without a name
		{
			name:   "property without a name",
			src:    conf("<property><value>v</value></property>\n"),
			lookup: map[string]string{"": "<nil>"},
			codes:  []string{NoticeNoName},
		},
		{
			name:   "blank name is the empty key",
			src:    conf(prop("  ", "e")),
			lookup: map[string]string{"": "e"},
			codes:  []string{NoticeNoName},
		},
		// Hadoop 3.4.1 Configuration.java L3246-3257: recognised children; others ignored
		{
			name:   "description and tag are ignored",
			src:    conf("<property><name>a</name><value>1</value><description>x</description><tag>HDFS,REQUIRED</tag><unknown>y</unknown></property>\n"),
			lookup: map[string]string{"a": "1"},
		},
		// Parser matches local names anywhere: text of nested elements joins the value
		{
			name:   "elements nested in value add their text",
			src:    conf("<property><name>n</name><value>v<x>in</x>w</value></property>\n"),
			lookup: map[string]string{"n": "vinw"},
		},
		{
			name:   "last non-empty of several value elements",
			src:    conf("<property><name>a</name><value>1</value><value></value><value>3</value></property>\n"),
			lookup: map[string]string{"a": "3"},
		},
		{
			name:   "property below another element is still read",
			src:    conf("<group><property><name>a</name><value>1</value></property></group>\n"),
			lookup: map[string]string{"a": "1"},
		},
		{
			name:   "namespaced elements match by local name",
			src:    conf(`<c:property xmlns:c="urn:x"><c:name>a</c:name><c:value>1</c:value></c:property>` + "\n"),
			lookup: map[string]string{"a": "1"},
		},
		{
			name:   "pure-ASCII file declaring ISO-8859-1",
			src:    "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<configuration>" + prop("a", "b") + "</configuration>",
			lookup: map[string]string{"a": "b"},
		},
		{
			name:   "byte-order mark",
			src:    "\uFEFF" + conf(prop("a", "1")),
			lookup: map[string]string{"a": "1"},
		},
		{
			name:   "DOCTYPE without entity use",
			src:    "<!DOCTYPE configuration>\n<configuration>" + prop("a", "1") + "</configuration>",
			lookup: map[string]string{"a": "1"},
		},
		{
			name:   "empty configuration",
			src:    "<configuration/>",
			lookup: map[string]string{"a": "<nil>"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ParseDoc("core-site.xml", []byte(tt.src), tt.opts)
			f := d.File
			if f.Err != nil {
				t.Fatalf("unexpected error: %v", f.Err)
			}
			checkSpansConsistent(t, d)
			for k, want := range tt.lookup {
				if got := looked(f, k); got != want {
					t.Errorf("Lookup(%q) = %q, want %q", k, got, want)
				}
			}
			if diff := cmp.Diff(tt.codes, noticeCodes(f)); diff != "" {
				t.Errorf("notice codes (-want +got):\n%s\nnotices: %+v", diff, f.Notices)
			}
		})
	}
}

func TestParseEntries(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []entryView
	}{
		{
			// Hadoop 3.4.1 TestConfiguration testCompactFormat L580-600: c final, e has source g
			name: "testCompactFormat entries",
			src:  conf(`<property name="a" value="b"/><property name="c" value="d" final="true"/><property name="e" value="f" source="g"/>`),
			want: []entryView{
				{Key: "a", Value: "b", File: "core-site.xml", Kind: parsed.KindString},
				{Key: "c", Value: "d", File: "core-site.xml", Kind: parsed.KindString, Final: true},
				{Key: "e", Value: "f", File: "core-site.xml", Kind: parsed.KindString, Sources: []string{"g"}},
			},
		},
		{
			// Hadoop 3.4.1 Configuration.java, "<source>" (L3391): every source element is kept
			name: "source elements",
			src:  conf("<property><name>a</name><value>1</value><source>s1</source><source>s2</source></property>"),
			want: []entryView{{Key: "a", Value: "1", File: "core-site.xml", Kind: parsed.KindString, Sources: []string{"s1", "s2"}}},
		},
		{
			name: "deprecated key keeps the written name",
			src:  conf(prop("dfs.block.size", "1m")),
			want: []entryView{{Key: "dfs.blocksize", Value: "1m", WrittenKey: "dfs.block.size", File: "core-site.xml", Kind: parsed.KindString}},
		},
		{
			name: "substituted value keeps the raw text",
			src:  conf(prop("a", "${b}/x") + prop("b", "1")),
			want: []entryView{
				{Key: "a", Value: "1/x", Raw: "${b}/x", File: "core-site.xml", Kind: parsed.KindString},
				{Key: "b", Value: "1", File: "core-site.xml", Kind: parsed.KindString},
			},
		},
		{
			// testFinalParam: the ignored later definition stays in Entries after the final one
			name: "final null entry then ignored entry",
			src:  conf(finalProp("my.var", "") + prop("my.var", "myval")),
			want: []entryView{
				{Key: "my.var", File: "core-site.xml", Kind: parsed.KindNull, Final: true},
				{Key: "my.var", Value: "myval", File: "core-site.xml", Kind: parsed.KindString},
			},
		},
		{
			name: "empty non-final definitions are not entries",
			src:  conf(prop("a", "") + prop("b", "1")),
			want: []entryView{{Key: "b", Value: "1", File: "core-site.xml", Kind: parsed.KindString}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse("core-site.xml", []byte(tt.src), Options{})
			if f.Err != nil {
				t.Fatalf("unexpected error: %v", f.Err)
			}
			if diff := cmp.Diff(tt.want, viewEntries(f)); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNoticeMessages(t *testing.T) {
	tests := []struct {
		name, src, code, want string
	}{
		// Hadoop 3.4.1 Configuration.java L3546-3580: Hadoop's WARN text, resource name first
		{name: "final override text", src: conf(finalProp("p", "A") + finalProp("p", "BB")), code: NoticeFinalOverride,
			want: "conf/core-site.xml:an attempt to override final parameter: p;  Ignoring."},
		// Hadoop 3.4.1 Configuration.checkForOverride (L3574-3580) warns only when the key
		// holds a value ("propertyValue != null"): after a final definition without one,
		// a later definition is dropped without a word
		{name: "redefining a final key without a value logs nothing", src: conf(finalProp("p", "") + prop("p", "BB")), code: NoticeFinalEmptyOverride,
			want: `"p" is final with no value on line 3, so Hadoop ignores this definition without a warning and "p" keeps no value`},
		// Hadoop 3.4.1 Configuration.java L393-410
		{name: "deprecation text", src: conf(prop("dfs.replication.min", "1")), code: NoticeDeprecatedKey,
			want: "dfs.replication.min is deprecated. Instead, use dfs.namenode.replication.min"},
		// Configuration.loadResource keeps the later definition; equal values are marked so the
		// hygiene policy reports an override that changes nothing as info.
		{name: "duplicate text", src: conf(prop("a", "1") + prop("a", "2")), code: NoticeDuplicateKey,
			want: `"a" is set again on line 4; Hadoop uses the later value "2"`},
		{name: "duplicate with the same value", src: conf(prop("a", "1") + prop("a", "1")), code: NoticeDuplicateKey,
			want: `"a" is set again on line 4; Hadoop uses the later value "1" (the same value as this definition)`},
		{name: "depth text", src: conf(prop("a", "${a1}") + prop("a1", "${a}x")), code: NoticeSubstitutionDepth,
			want: "Variable substitution depth too large: 20 ${a1}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse("conf/core-site.xml", []byte(tt.src), Options{})
			for _, n := range f.Notices {
				if n.Code == tt.code {
					if n.Message != tt.want {
						t.Errorf("message = %q, want %q", n.Message, tt.want)
					}
					if n.File != "conf/core-site.xml" || n.Span.IsZero() {
						t.Errorf("notice location = %q %v", n.File, n.Span)
					}
					return
				}
			}
			t.Fatalf("no %s notice in %+v", tt.code, f.Notices)
		})
	}
}

func TestParseErrors(t *testing.T) {
	billion := `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
]>
<configuration><property><name>a</name><value>&lol2;</value></property></configuration>
`
	billion = strings.Replace(billion, "]>", ` <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
]>`, 1)
	manyRefs := "<!DOCTYPE configuration [<!ENTITY a \"0123456789\">]>\n<configuration><property><name>a</name><value>" +
		strings.Repeat("&a;", 3000) + "</value></property></configuration>"
	tests := []struct {
		name      string
		src       string
		line, col int
		msg       string
	}{
		{name: "mismatched end tag", src: "<configuration>\n<property>\n</propertyy>\n</configuration>", line: 3, col: 1,
			msg: "XML syntax error on line 3: element <property> closed by </propertyy>"},
		{name: "unexpected EOF", src: "<configuration>\n<property>", line: 2, col: 11, msg: "XML syntax error on line 2: unexpected EOF"},
		{name: "undefined entity", src: conf(prop("a", "x &nbsp; y")), line: 3, col: 34, msg: "invalid character entity &nbsp;"},
		// billion laughs: each level multiplies by 10; the JDK's limits
		// (jdk.xml.maxGeneralEntitySizeLimit, totalEntitySizeLimit) stop it
		{name: "billion laughs is refused", src: billion, line: 7, col: 2, msg: "jdk.xml.entityExpansionLimit"},
		{name: "many references to a small entity are refused", src: manyRefs, line: 2, col: 7544, msg: "jdk.xml.entityExpansionLimit"},
		{name: "entity with markup is refused", src: "<!DOCTYPE configuration [<!ENTITY m \"<property/>\">]>\n<configuration>&m;</configuration>", line: 1, col: 26, msg: "contains markup"},
		{name: "recursive entity is refused", src: "<!DOCTYPE configuration [<!ENTITY a \"&b;\"><!ENTITY b \"&a;\">]>\n<configuration/>", line: 1, col: 26, msg: "refers to itself"},
		{name: "undeclared entity in an entity value", src: "<!DOCTYPE configuration [<!ENTITY a \"&zz;\">]>\n<configuration/>", line: 1, col: 26, msg: "undeclared entity &zz;"},
		{name: "two roots", src: "<configuration/>\n<configuration/>", line: 2, col: 1, msg: "second root element <configuration>"},
		{name: "text before the root", src: "x<configuration/>", line: 1, col: 1, msg: "text before the root element"},
		{name: "text after the root", src: "<configuration/>\n  oops", line: 2, col: 3, msg: "text after the root element"},
		{name: "no root", src: "<!-- nothing -->\n", line: 2, col: 1, msg: "no root element"},
		{name: "empty file", src: "", line: 1, col: 1, msg: "no root element"},
		{name: "UTF-16 declared on single-byte text", src: "<?xml version=\"1.0\" encoding=\"UTF-16\"?><configuration/>", line: 1, col: 31, msg: `encoding "UTF-16", but the file starts with single-byte text`},
		{name: "multi-byte charset", src: "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><configuration>\x82\xa0</configuration>", line: 1, col: 31, msg: `multi-byte charset`},
		{name: "unknown charset", src: "<?xml version=\"1.0\" encoding=\"x-nonsense\"?><configuration>\xe9</configuration>", line: 1, col: 31, msg: `not one ckptlint can decode`},
		{name: "invalid UTF-8", src: conf(prop("a", "\xff")), line: 3, col: 32, msg: "invalid UTF-8"},
		// corpus GUNDUPOOJA core-site.xml; Woodstox: Illegal processing instruction target ("xml")
		{name: "XML declaration after white space", src: "  <?xml version=\"1.0\"?>\n<configuration/>", line: 1, col: 3, msg: "XML declaration allowed only at the start"},
		// Woodstox: Undeclared namespace prefix "xi"
		{name: "undeclared prefix", src: "<configuration>\n<xi:include href=\"a.xml\"/></configuration>", line: 2, col: 1, msg: `undeclared namespace prefix "xi"`},
		// Woodstox: Duplicate attribute 'name'
		{name: "duplicate attribute", src: `<configuration><property name="a" name="b" value="1"/></configuration>`, line: 1, col: 41, msg: `duplicate attribute "name"`},
		// corpus bigtop templates__*.xml: Puppet ERB tags
		{name: "ERB tag", src: "<configuration>\n<% if @x -%>\n</configuration>", line: 2, col: 2, msg: "expected element name after <"},
		// Woodstox accepts the versions 1.0 and 1.1 only
		{name: "XML 1.2", src: "<?xml version=\"1.2\"?><configuration/>", line: 1, col: 22, msg: `unsupported version "1.2"`},
		{name: "comment with --", src: "<configuration><!-- a -- b --></configuration>", line: 1, col: 23, msg: `invalid sequence "--"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse("hdfs-site.xml", []byte(tt.src), Options{})
			if f.Err == nil {
				t.Fatalf("no error; entries %+v", viewEntries(f))
			}
			if f.Err.File != "hdfs-site.xml" || f.Err.Pos.Line != tt.line || f.Err.Pos.Col != tt.col || !strings.Contains(f.Err.Msg, tt.msg) {
				t.Errorf("error = %v (line %d col %d), want line %d col %d containing %q", f.Err, f.Err.Pos.Line, f.Err.Pos.Col, tt.line, tt.col, tt.msg)
			}
			if strings.Contains(tt.name, "entity") || strings.Contains(tt.name, "XXE") || strings.Contains(tt.name, "laughs") {
				for _, e := range f.Entries {
					if strings.Contains(e.Value, "lol") || strings.Contains(e.Value, "root:") {
						t.Errorf("entity expanded into %q", e.Value)
					}
				}
			}
		})
	}
}

func TestParseErrorKeepsEarlierEntries(t *testing.T) {
	f := Parse("core-site.xml", []byte("<configuration>"+prop("a", "1")+"<property><name>b</name>"), Options{})
	if f.Err == nil {
		t.Fatal("no error")
	}
	if got := looked(f, "a"); got != "1" {
		t.Errorf("Lookup(a) = %q, want 1", got)
	}
}

func TestParseSizeCap(t *testing.T) {
	src := []byte(conf(prop("a", strings.Repeat("x", parsed.MaxFileSize))))
	f := Parse("core-site.xml", src, Options{})
	if f.Err == nil || !strings.Contains(f.Err.Msg, "limit") || f.Err.Pos.Line != 1 {
		t.Fatalf("err = %v, want the size limit at 1:1", f.Err)
	}
}

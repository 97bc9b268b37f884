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

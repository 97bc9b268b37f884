package hadoopxml

import (
	"slices"
	"strings"
	"testing"
)

// TestParamEntities: internal parameter entities declared in the internal
// subset are expanded where referenced between declarations, and the
// declarations of their replacement text take effect (XML 1.0 §4.4.8
// "Included as PE"; Hadoop's Configuration parses with Woodstox,
// Configuration.XML_INPUT_FACTORY, which does the same). The expansions
// count against the limits of dtd.go; recursion is a parse error naming the
// line; external parameter entities are never fetched and noted (CKPT607).
func TestParamEntities(t *testing.T) {
	bomb := "<!ENTITY % p0 \"<!-- x -->\">\n"
	for i := 1; i <= 4; i++ {
		ref := "&#37;p" + string(rune('0'+i-1)) + ";"
		bomb += "<!ENTITY % p" + string(rune('0'+i)) + " \"" + strings.Repeat(ref, 10) + "\">\n"
	}
	bomb += "%p4;\n"
	tests := []struct {
		name    string
		subset  string // the internal subset, after "<!DOCTYPE configuration [\n"
		value   string // the value of property a
		want    string // Lookup("a"); "" when the file is refused
		errLine int    // the line of the error, 0 for none
		errMsg  string
		notice  string // the text of the xml-parameter-entity notice, "" for none
	}{
		{
			name:   "declaration held by an internal parameter entity",
			subset: "<!ENTITY % decls \"<!ENTITY nn 'hdfs://nn:8020'>\">\n%decls;\n",
			value:  "&nn;/flink/ha", want: "hdfs://nn:8020/flink/ha",
		},
		{
			name:   "nested through character references, general references bypassed",
			subset: "<!ENTITY base 'nn:8020'>\n<!ENTITY % inner \"<!ENTITY url 'hdfs://&base;'>\">\n<!ENTITY % outer \"&#37;inner;\">\n%outer;\n",
			value:  "&url;", want: "hdfs://nn:8020",
		},
		{
			name:   "first declaration binds, also across a parameter entity",
			subset: "<!ENTITY v 'one'>\n<!ENTITY % p \"<!ENTITY v 'two'>\">\n%p;\n",
			value:  "&v;", want: "one",
		},
		{
			name:   "referenced before it is declared: not expanded, noted",
			subset: "%p;\n<!ENTITY % p \"<!ENTITY v 'x'>\">\n",
			value:  "2", want: "2", notice: "%p; (undeclared)",
		},
		{
			name:   "external parameter entity is never fetched, internal one expanded",
			subset: "<!ENTITY % ext SYSTEM \"http://127.0.0.1:1/x.dtd\">\n%ext;\n<!ENTITY % p \"<!ENTITY v 'x'>\">\n%p;\n",
			value:  "&v;", want: "x", notice: "%ext; (Hadoop would read http://127.0.0.1:1/x.dtd)",
		},
		{
			name:    "direct recursion",
			subset:  "<!ENTITY % p \"&#37;p;\">\n\n%p;\n",
			value:   "2",
			errLine: 4, errMsg: "parameter entity %p; refers to itself",
		},
		{
			name:    "indirect recursion",
			subset:  "<!ENTITY % a \"&#37;b;\">\n<!ENTITY % b \"<!-- b --> &#37;a;\">\n%a;\n",
			value:   "2",
			errLine: 4, errMsg: "parameter entity %a; refers to itself",
		},
		{
			name:    "expansion bomb of parameter entities",
			subset:  bomb,
			value:   "2",
			errLine: 7, errMsg: "more than 2500 entity expansions",
		},
		{
			name:    "replacement text over the size limit",
			subset:  "<!ENTITY % big \"<!-- " + strings.Repeat("x", maxEntitySize) + " -->\">\n%big;\n",
			value:   "2",
			errLine: 3, errMsg: "expands to more than 100000 bytes",
		},
		{
			name:    "malformed declaration inside the replacement text",
			subset:  "<!ENTITY % p \"<!ENTITY v 'x'\">\n%p;\n",
			value:   "2",
			errLine: 3, errMsg: "(in parameter entity %p;)",
		},
		{
			name:    "parameter entity reference inside a declaration (WFC: PEs in Internal Subset)",
			subset:  "<!ENTITY % p \"x\">\n<!ENTITY v \"%p;\">\n",
			value:   "2",
			errLine: 3, errMsg: "not well-formed",
		},
		{
			name:    "markup in a general entity declared through a parameter entity",
			subset:  "<!ENTITY % p \"<!ENTITY v '&#60;b>'>\">\n%p;\n",
			value:   "&v;",
			errLine: 3, errMsg: "contains markup",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "<!DOCTYPE configuration [\n" + tt.subset + "]>\n" + strings.TrimPrefix(conf(prop("a", tt.value)), "<?xml version=\"1.0\"?>\n")
			f := Parse("core-site.xml", []byte(src), Options{})
			if tt.errLine != 0 {
				if f.Err == nil {
					t.Fatalf("no error; a = %q", looked(f, "a"))
				}
				if f.Err.Pos.Line != tt.errLine || f.Err.File != "core-site.xml" || !strings.Contains(f.Err.Msg, tt.errMsg) {
					t.Fatalf("error %v, want line %d containing %q", f.Err, tt.errLine, tt.errMsg)
				}
				return
			}
			if f.Err != nil {
				t.Fatalf("%v", f.Err)
			}
			if got := looked(f, "a"); got != tt.want {
				t.Errorf("a = %q, want %q", got, tt.want)
			}
			i := slices.Index(noticeCodes(f), NoticeParamEntity)
			switch {
			case tt.notice == "" && i >= 0:
				t.Errorf("unexpected notice %q", f.Notices[i].Message)
			case tt.notice != "" && i < 0:
				t.Errorf("no %s notice", NoticeParamEntity)
			case tt.notice != "" && !strings.Contains(f.Notices[i].Message, tt.notice):
				t.Errorf("notice %q, want it to name %q", f.Notices[i].Message, tt.notice)
			}
		})
	}
}

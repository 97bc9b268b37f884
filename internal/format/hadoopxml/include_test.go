package hadoopxml

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIncludes(t *testing.T) {
	tests := []struct {
		name     string
		top      string // path of the file given to Parse
		files    map[string]string
		noRead   bool
		lookup   map[string]string
		files2   map[string]string // key -> Entry.File of the winning entry
		includes []string
		codes    []string
	}{
		// Hadoop 3.4.1 TestConfiguration testIncludes L861-897
		{
			name: "testIncludes",
			top:  "conf/core-site.xml",
			files: map[string]string{
				"conf/core-site.xml":    conf(include("config2.xml") + prop("e", "f") + prop("g", "h")),
				"conf/config2.xml":      conf(prop("a", "b") + prop("c", "d")),
				"conf/unrelated.xml":    conf(prop("x", "y")),
				"conf/core-default.xml": conf(""),
			},
			lookup:   map[string]string{"a": "b", "c": "d", "e": "f", "g": "h", "x": "<nil>"},
			files2:   map[string]string{"a": "conf/config2.xml", "e": "conf/core-site.xml"},
			includes: []string{"conf/config2.xml"},
		},
		// Hadoop 3.4.1 TestConfiguration testIncludesWithFallback L960-1002
		{
			name: "testIncludesWithFallback",
			top:  "conf/core-site.xml",
			files: map[string]string{
				"conf/core-site.xml": conf(
					includeWithFallback("config2.xml", prop("a", "b.fallback")+finalProp("c", "d.fallback")) +
						prop("e", "f") + prop("g", "h") +
						includeWithFallback("MissingConfig.xml", prop("i", "j.fallback")+finalProp("k", "l.fallback"))),
				"conf/config2.xml": conf(prop("a", "b") + prop("c", "d")),
			},
			lookup:   map[string]string{"a": "b", "c": "d", "e": "f", "g": "h", "i": "j.fallback", "k": "l.fallback"},
			files2:   map[string]string{"a": "conf/config2.xml", "i": "conf/core-site.xml"},
			includes: []string{"conf/config2.xml"},
		},
		// Hadoop 3.4.1 TestConfiguration relative includes L1098-1160 (testRelativeIncludes)
		{
			name: "testRelativeIncludes",
			top:  "tmp/test-config.xml",
			files: map[string]string{
				"tmp/test-config.xml":  conf(include("test-config2.xml") + prop("c", "d")),
				"tmp/test-config2.xml": conf(prop("a", "b")),
			},
			lookup:   map[string]string{"a": "b", "c": "d"},
			includes: []string{"tmp/test-config2.xml"},
		},
		// Hadoop 3.4.1 TestConfiguration testOrderOfDuplicatePropertiesWithInclude L1070-1096
		{
			name: "testOrderOfDuplicatePropertiesWithInclude",
			top:  "core-site.xml",
			files: map[string]string{
				"core-site.xml": conf(prop("a", "a-OutsideInclude") + include("config2.xml") + prop("b", "b-OutsideInclude")),
				"config2.xml":   conf(prop("a", "a-InsideInclude") + prop("b", "b-InsideInclude")),
			},
			lookup:   map[string]string{"a": "a-InsideInclude", "b": "b-OutsideInclude"},
			includes: []string{"config2.xml"},
			codes:    []string{NoticeDuplicateKey, NoticeDuplicateKey},
		},
		// TestConfiguration testIncludesFromInputStreamWhenResourceAdded: two levels
		// (Hadoop passes the top-level resource name down, so the nested
		// relative href resolves against the top-level directory)
		{
			name: "nested include resolves against the top-level directory",
			top:  "conf/core-site.xml",
			files: map[string]string{
				"conf/core-site.xml": conf(include("sub/first.xml") + prop("a", "1")),
				"conf/sub/first.xml": conf(include("second.xml") + prop("c", "FirstLevelInclude")),
				"conf/second.xml":    conf(prop("e", "SecondLevelInclude")),
			},
			lookup:   map[string]string{"a": "1", "c": "FirstLevelInclude", "e": "SecondLevelInclude"},
			includes: []string{"conf/sub/first.xml", "conf/second.xml"},
		},
		{
			name: "final in an included file protects the key",
			top:  "core-site.xml",
			files: map[string]string{
				"core-site.xml": conf(include("inc.xml") + prop("a", "2")),
				"inc.xml":       conf(finalProp("a", "1")),
			},
			lookup:   map[string]string{"a": "1"},
			includes: []string{"inc.xml"},
			codes:    []string{NoticeFinalOverride},
		},
		{
			name: "substitution across the include",
			top:  "core-site.xml",
			files: map[string]string{
				"core-site.xml": conf(include("inc.xml") + prop("b", "${a}/x")),
				"inc.xml":       conf(prop("a", "1")),
			},
			lookup:   map[string]string{"b": "1/x"},
			includes: []string{"inc.xml"},
		},
		{
			name: "absolute file URL",
			top:  "conf/core-site.xml",
			files: map[string]string{
				"conf/core-site.xml":   conf(include("file:///etc/hadoop/keys.xml")),
				"/etc/hadoop/keys.xml": conf(prop("k", "v")),
			},
			lookup:   map[string]string{"k": "v"},
			includes: []string{"/etc/hadoop/keys.xml"},
		},
		// corpus hadoop-aws core-site.xml: default XInclude namespace, empty fallback
		{
			name: "missing include with an empty fallback",
			top:  "core-site.xml",
			files: map[string]string{
				"core-site.xml": conf(`<include xmlns="http://www.w3.org/2001/XInclude" href="auth-keys.xml"><fallback/></include>` + prop("a", "1")),
			},
			lookup: map[string]string{"a": "1"},
		},
		{
			name: "include without href skips its fallback",
			top:  "core-site.xml",
			files: map[string]string{
				"core-site.xml": conf(`<xi:include xmlns:xi="http://www.w3.org/2001/XInclude"><xi:fallback>` + prop("a", "1") + `</xi:fallback></xi:include>`),
			},
			lookup: map[string]string{"a": "<nil>"},
		},
		{
			name:   "no file access: include not followed, fallback not used",
			top:    "core-site.xml",
			noRead: true,
			files: map[string]string{
				"core-site.xml": conf(includeWithFallback("other.xml", prop("a", "fb")) + prop("b", "1")),
			},
			lookup: map[string]string{"a": "<nil>", "b": "1"},
			codes:  []string{NoticeIncludeNotFollowed},
		},
		{
			name: "http include not followed",
			top:  "core-site.xml",
			files: map[string]string{
				"core-site.xml": conf(include("http://example.invalid/c.xml")),
			},
			codes: []string{NoticeIncludeNotFollowed},
		},
		{
			name: "notices of an included file name that file",
			top:  "core-site.xml",
			files: map[string]string{
				"core-site.xml": conf(include("inc.xml")),
				"inc.xml":       conf(prop("dfs.block.size", "1m")),
			},
			lookup:   map[string]string{"dfs.blocksize": "1m"},
			files2:   map[string]string{"dfs.blocksize": "inc.xml"},
			includes: []string{"inc.xml"},
			codes:    []string{NoticeDeprecatedKey},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{ReadFile: memFS(tt.files)}
			if tt.noRead {
				opts.ReadFile = nil
			}
			f := Parse(tt.top, []byte(tt.files[tt.top]), opts)
			if f.Err != nil {
				t.Fatalf("unexpected error: %v", f.Err)
			}
			for k, want := range tt.lookup {
				if got := looked(f, k); got != want {
					t.Errorf("Lookup(%q) = %q, want %q", k, got, want)
				}
			}
			for k, want := range tt.files2 {
				if e := f.Lookup(k); e == nil || e.File != want {
					t.Errorf("Lookup(%q).File = %+v, want %q", k, e, want)
				}
			}
			if diff := cmp.Diff(tt.includes, f.Includes); diff != "" {
				t.Errorf("includes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.codes, noticeCodes(f)); diff != "" {
				t.Errorf("notice codes (-want +got):\n%s\n%+v", diff, f.Notices)
			}
			if strings.Contains(tt.name, "name that file") && f.Notices[0].File != "inc.xml" {
				t.Errorf("notice file = %q", f.Notices[0].File)
			}
		})
	}
}

func TestIncludeErrors(t *testing.T) {
	chain := map[string]string{}
	for i := 0; i <= 11; i++ {
		chain[fmt.Sprintf("c%d.xml", i)] = conf(include(fmt.Sprintf("c%d.xml", i+1)))
	}
	chain["c12.xml"] = conf(prop("deep", "1"))
	tests := []struct {
		name      string
		top       string
		files     map[string]string
		readErr   error
		file      string
		line, col int
		msg       string
	}{
		// Hadoop 3.4.1 Configuration.java L3398-3406
		{
			name:  "missing include without fallback",
			top:   "conf/core-site.xml",
			files: map[string]string{"conf/core-site.xml": conf(prop("a", "1") + include("missing.xml"))},
			file:  "conf/core-site.xml", line: 4, col: 1,
			msg: "Fetch fail on include for 'missing.xml' with no fallback while loading 'conf/core-site.xml'",
		},
		{
			name: "include cycle",
			top:  "a.xml",
			files: map[string]string{
				"a.xml": conf(include("b.xml")),
				"b.xml": conf(prop("x", "1") + include("a.xml")),
			},
			file: "b.xml", line: 4, col: 1, msg: "xi:include cycle: a.xml -> b.xml -> a.xml",
		},
		{
			name: "self include",
			top:  "a.xml",
			files: map[string]string{
				"a.xml": conf(include("a.xml")),
			},
			file: "a.xml", line: 3, col: 1, msg: "xi:include cycle: a.xml -> a.xml",
		},
		{
			name: "include nesting deeper than 10",
			top:  "c0.xml", files: chain,
			file: "c10.xml", line: 3, col: 1, msg: `xi:include of "c11.xml" nested deeper than 10 levels`,
		},
		{
			name: "syntax error inside an included file",
			top:  "core-site.xml",
			files: map[string]string{
				"core-site.xml": conf(include("inc.xml")),
				"inc.xml":       "<configuration>\n<property>\n</configuration>",
			},
			file: "inc.xml", line: 3, col: 1, msg: "element <property> closed by </configuration>",
		},
		{
			name:    "unreadable include",
			top:     "core-site.xml",
			files:   map[string]string{"core-site.xml": conf(include("inc.xml"))},
			readErr: errors.New("permission denied"),
			file:    "core-site.xml", line: 3, col: 1, msg: `read xi:include "inc.xml": permission denied`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read := memFS(tt.files)
			if tt.readErr != nil {
				read = func(p string) ([]byte, error) {
					if p == tt.top {
						return []byte(tt.files[p]), nil
					}
					return nil, tt.readErr
				}
			}
			f := Parse(tt.top, []byte(tt.files[tt.top]), Options{ReadFile: read})
			if f.Err == nil {
				t.Fatalf("no error; entries %+v", viewEntries(f))
			}
			if f.Err.File != tt.file || f.Err.Pos.Line != tt.line || f.Err.Pos.Col != tt.col || !strings.Contains(f.Err.Msg, tt.msg) {
				t.Errorf("error = %v, want %s:%d:%d containing %q", f.Err, tt.file, tt.line, tt.col, tt.msg)
			}
		})
	}
}

func TestResolveHref(t *testing.T) {
	tests := []struct {
		top, href, want string
		ok              bool
	}{
		{top: "conf/core-site.xml", href: "a.xml", want: "conf/a.xml", ok: true},
		{top: "core-site.xml", href: "a.xml", want: "a.xml", ok: true},
		{top: "/etc/hadoop/core-site.xml", href: "../x/a.xml", want: "/etc/x/a.xml", ok: true},
		{top: "conf/core-site.xml", href: "/abs/a.xml", want: "/abs/a.xml", ok: true},
		{top: "conf/core-site.xml", href: "file:///abs/a.xml", want: "/abs/a.xml", ok: true},
		{top: "conf/core-site.xml", href: "file:rel.xml", want: "conf/rel.xml", ok: true},
		{top: "conf/core-site.xml", href: "https://h/a.xml", ok: false},
		{top: "conf/core-site.xml", href: "c:/x.xml", want: "conf/c:/x.xml", ok: true},
	}
	for _, tt := range tests {
		t.Run(tt.href, func(t *testing.T) {
			got, ok := resolveHref(tt.top, tt.href)
			if got != tt.want || ok != tt.ok {
				t.Errorf("resolveHref(%q, %q) = %q, %v; want %q, %v", tt.top, tt.href, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestParsesAlone: a file is read alone when it needs no decoding and its
// text does not spell include; a UTF-16 file (decoded, and its bytes never
// spell include) never is.
func TestParsesAlone(t *testing.T) {
	utf16 := func(s string) []byte {
		b := []byte{0xFF, 0xFE}
		for _, r := range s {
			b = append(b, byte(r), byte(r>>8))
		}
		return b
	}
	const with = `<?xml version="1.0" encoding="%s"?><configuration xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="a.xml"/></configuration>`
	const without = `<?xml version="1.0" encoding="%s"?><configuration><property><name>a</name><value>b</value></property></configuration>`
	for _, tc := range []struct {
		name string
		src  []byte
		want bool
	}{
		{"UTF-8 with", []byte(strings.Replace(with, "%s", "UTF-8", 1)), false},
		{"UTF-8 without", []byte(strings.Replace(without, "%s", "UTF-8", 1)), true},
		{"ASCII in ISO-8859-1 without", []byte(strings.Replace(without, "%s", "ISO-8859-1", 1)), true},
		{"ISO-8859-1 without, decoded", []byte(strings.Replace(without, "%s", "ISO-8859-1", 1) + "<!-- caf\xe9 -->"), false},
		{"UTF-16 with", utf16(strings.Replace(with, "%s", "UTF-16", 1)), false},
		{"UTF-16 without", utf16(strings.Replace(without, "%s", "UTF-16", 1)), false},
		{"undecodable", []byte(strings.Replace(without, "%s", "UTF-16", 1)), false},
	} {
		if got := ParsesAlone(tc.src); got != tc.want {
			t.Errorf("%s: ParsesAlone = %v, want %v", tc.name, got, tc.want)
		}
	}
}

package flinkyaml

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ckptlint/ckptlint/lint/parsed"
)

// configCases are behaviours of ParseConfig beyond the domain vectors.
var configCases = []struct {
	name    string
	src     string
	want    []kv
	errLine int    // 0: no error
	errHas  string // substring of the error message
}{
	{name: "comments only", src: "# nothing\n\n"},
	{name: "null document", src: "---\n"},
	{name: "tilde document", src: "~\n"},
	{name: "sequence root", src: "- a\n- b\n", errLine: 1, errHas: "found a sequence"},
	{name: "second document", src: "a: 1\n---\nb: 2\n", want: []kv{{"a", "1", kInt}}, errLine: 2, errHas: "single YAML document"},
	{name: "tab indentation", src: "a:\n\tb: 1\n", errLine: 2, errHas: "invalid YAML"},
	{name: "syntax error line 3", src: "a: 1\nb: 2\nc: [x\n", errHas: "invalid YAML", errLine: 3},
	{name: "ints", src: "a: -5\nb: +7\nc: 0x1F\nd: 12345678901234567890\ne: 0\n", want: []kv{
		{"a", "-5", kInt}, {"b", "7", kInt}, {"c", "31", kInt}, {"d", "12345678901234567890", kInt}, {"e", "0", kInt},
	}},
	{name: "floats", src: "a: 1.5\nb: 1e3\nc: .inf\nd: -.Inf\ne: .NaN\nf: 1.\n", want: []kv{
		{"a", "1.5", kFloat}, {"b", "1000.0", kFloat}, {"c", "Infinity", kFloat}, {"d", "-Infinity", kFloat},
		{"e", "NaN", kFloat}, {"f", "1.0", kFloat},
	}},
	{name: "bool case variants", src: "a: True\nb: FALSE\nc: tRUE\n", want: []kv{
		{"a", "true", kBool}, {"b", "false", kBool}, {"c", "tRUE", kStr},
	}},
	{name: "not YAML 1.1 types", src: "a: 2001-12-14\nb: 0777\nc: +0x1F\nd: 1:30:00\n", want: []kv{
		{"a", "2001-12-14", kStr}, {"b", "777", kInt}, {"c", "+0x1F", kStr}, {"d", "1:30:00", kStr},
	}},
	{name: "quoted and block scalars are strings", src: "a: \"1\"\nb: |\n  10\nc: >-\n  true\n", want: []kv{
		{"a", "1", kStr}, {"b", "10\n", kStr}, {"c", "true", kStr},
	}},
	{name: "explicit core tags", src: "a: !!str 010\nb: !!int 010\nc: !!float 1\nd: !!bool TRUE\ne: !!null x\nf: ! 010\ng: !ENV ${HOME}\n", want: []kv{
		{"a", "010", kStr}, {"b", "10", kInt}, {"c", "1.0", kFloat}, {"d", "true", kBool}, {"e", "", kNull},
		{"f", "010", kStr}, {"g", "${HOME}", kStr},
	}},
	{name: "bad !!int", src: "a: !!int 1_000\n", errLine: 1, errHas: "!!int"},
	{name: "local tag", src: "a: 1\nb: !secret x\n", want: []kv{{"a", "1", kInt}}, errLine: 2, errHas: `"!secret"`},
	{name: "set tag", src: "a: !!set {x, y}\n", errLine: 1, errHas: `"!!set"`},
	{name: "binary tag", src: "a: !!binary aGk=\n", errLine: 1, errHas: `"!!binary"`},
	{name: "timestamp inside a list", src: "a: [x, !!timestamp 2001-12-14]\n", errLine: 1, errHas: "!!timestamp"},
	{name: "alias to a scalar", src: "a: &x 5s\nb: *x\n", want: []kv{{"a", "5s", kStr}, {"b", "5s", kStr}}},
	{name: "alias key", src: "k: &k name\n*k : v\n", want: []kv{{"k", "name", kStr}, {"name", "v", kStr}}},
	// Aliases to collections: snakeyaml-engine composes them (up to
	// LoadSettings.maxAliasesForCollections, 50), GlobalConfiguration.flatten
	// walks an aliased mapping like any other, and toYAMLString dumps a
	// collection met twice with an anchor (Serializer, NumberAnchorGenerator).
	{name: "alias to a mapping", src: "a: &m {x: 1}\nb: *m\n", want: []kv{{"a.x", "1", kInt}, {"b.x", "1", kInt}}},
	{name: "alias to a sequence", src: "a: &s [1, 2]\nb: *s\n", want: []kv{{"a", "[1, 2]", kList}, {"b", "[1, 2]", kList}}},
	{name: "alias to a sequence in a list", src: "a: &s [1]\nb: [*s]\n", want: []kv{{"a", "[1]", kList}, {"b", "[[1]]", kList}}},
	{name: "a collection twice in one list gets an anchor", src: "a: &s [1]\nb: [*s, *s]\n", want: []kv{{"a", "[1]", kList}, {"b", "[&id001 [1], *id001]", kList}}},
	{name: "anchors are numbered at the second encounter", src: "x: &x [1]\ny: &y {k: v}\nb: [*x, *y, *y, *x]\n",
		want: []kv{{"x", "[1]", kList}, {"y.k", "v", kStr}, {"b", "[&id002 [1], &id001 {k: v}, *id001, *id002]", kList}}},
	{name: "nested aliased mappings", src: "a: &a {x: 1}\nb: &b {p: *a, q: *a}\nc: *b\n",
		want: []kv{{"a.x", "1", kInt}, {"b.p.x", "1", kInt}, {"b.q.x", "1", kInt}, {"c.p.x", "1", kInt}, {"c.q.x", "1", kInt}}},
	{name: "recursive alias", src: "a: &a\n  b: *a\n", errLine: 2, errHas: "contains it"},
	{name: "more than 50 aliases to collections", src: "a: &a [1]\nb: [" + strings.TrimSuffix(strings.Repeat("*a, ", 51), ", ") + "]\n",
		want: nil, errLine: 2, errHas: "Number of aliases for non-scalar nodes exceeds the specified max=50"},
	{name: "alias to a scalar in a list", src: "a: &s x\nb: [*s, *s]\n", want: []kv{{"a", "x", kStr}, {"b", "[x, x]", kList}}},
	{name: "typed duplicate 010 and 10", src: "010: a\n10: b\n", want: []kv{{"10", "a", kStr}}, errLine: 2, errHas: "duplicate key"},
	{name: "typed keys 1 and '1' are distinct", src: "1: a\n'1': b\n", want: []kv{{"1", "a", kStr}, {"1", "b", kStr}}},
	{name: "null, bool and float keys", src: "~: a\ntrue: b\n1.5: c\n", want: []kv{{"null", "a", kStr}, {"true", "b", kStr}, {"1.5", "c", kStr}}},
	{name: "duplicate in a nested mapping", src: "a:\n  b: 1\n  b: 2\n", want: []kv{{"a.b", "1", kInt}}, errLine: 3, errHas: `"a.b"`},
	{name: "duplicate in a mapping inside a list", src: "a: [{k: 1, k: 2}]\n", errLine: 1, errHas: "duplicate key"},
	{name: "complex key", src: "? [a, b]\n: c\n", errLine: 1, errHas: "expected a scalar key"},
	{name: "empty mapping and list", src: "a: {}\nb: []\n", want: []kv{{"b", "[]", kList}}},
	{name: "block list of maps", src: "a:\n  - k: v\n    n: 1\n  - [x, 'y z', \"q\\tr\"]\n", want: []kv{
		{"a", `[{k: v, n: 1}, [x, y z, "q\tr"]]`, kList},
	}},
	{name: "list with null and floats", src: "a: [~, 1e3, .inf, '', 'a: b']\n", want: []kv{
		{"a", "[null, 1000.0, .inf, '', 'a: b']", kList},
	}},
	{name: "merge key is a plain string key", src: "<<: x\n", want: []kv{{"<<", "x", kStr}}},
}

func TestParseConfig(t *testing.T) {
	for _, tc := range configCases {
		t.Run(tc.name, func(t *testing.T) {
			f := ParseConfig("conf/config.yaml", []byte(tc.src))
			checkFile(t, f)
			if f.Path != "conf/config.yaml" || f.Format != parsed.FlinkConfigYAML || !bytes.Equal(f.Src, []byte(tc.src)) {
				t.Errorf("file header = %q %q, src kept %v", f.Path, f.Format, bytes.Equal(f.Src, []byte(tc.src)))
			}
			if diff := cmp.Diff(tc.want, entriesKV(f.Entries), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
			if tc.errLine == 0 {
				if f.Err != nil {
					t.Fatalf("unexpected error: %v", f.Err)
				}
				return
			}
			if f.Err == nil {
				t.Fatalf("no error, want one at line %d containing %q", tc.errLine, tc.errHas)
			}
			if f.Err.Pos.Line != tc.errLine || !strings.Contains(f.Err.Msg, tc.errHas) || f.Err.File != "conf/config.yaml" {
				t.Errorf("error = %v, want line %d containing %q", f.Err, tc.errLine, tc.errHas)
			}
		})
	}
}

func TestParseConfigEntryDetails(t *testing.T) {
	src := "a.b: 1\n" +
		"x:\n" +
		"  y:\n" +
		"    'z': \"v\"\n" +
		"010: n\n" +
		"l:\n" +
		"- 1\n"
	f := ParseConfig("config.yaml", []byte(src))
	if f.Err != nil {
		t.Fatal(f.Err)
	}
	type detail struct {
		Key, Raw, WrittenKey string
		Nested               bool
	}
	var got []detail
	for _, e := range f.Entries {
		got = append(got, detail{e.Key, e.Raw, e.WrittenKey, e.Nested})
	}
	want := []detail{
		{"a.b", "", "", false},
		{"x.y.z", `"v"`, "z", true},
		{"10", "", "010", false},
		{"l", "- 1", "", false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	if !f.Nested {
		t.Error("File.Nested = false for a file using nested keys")
	}
	if flat := ParseConfig("config.yaml", []byte("a.b: 1\nc: [1]\n")); flat.Nested {
		t.Error("File.Nested = true for a flat file")
	}
}

func TestParseConfigNotices(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []noticeAt
	}{
		{
			name: "flat then nested overlap",
			src:  "a.b: 1\na:\n  b: 2\n",
			want: []noticeAt{{NoticeFlatNestedOverlap, 3}},
		},
		{
			name: "nested then flat overlap",
			src:  "a:\n  b: 2\nc: 0\na.b: 1\n",
			want: []noticeAt{{NoticeFlatNestedOverlap, 4}},
		},
		{
			name: "overlap inside one nested mapping",
			src:  "a:\n  b.c: 1\n  b:\n    c: 2\n",
			want: []noticeAt{{NoticeFlatNestedOverlap, 4}},
		},
		{
			// Flink 1.20 YamlParserUtilsTest L83-95: yes/on/y are strings under YAML 1.2; Flink's boolean parser rejects them
			name: "bool-like plain strings",
			src:  "a: yes\nb: 'yes'\nc: Off\nd: N\ne: no way\nf: !!str on\n",
			want: []noticeAt{{NoticeBoolLikeString, 1}, {NoticeBoolLikeString, 3}, {NoticeBoolLikeString, 4}},
		},
		{
			// Flink 1.20 bin/bash-java-utils.sh L25-44: env.java.home must be written flat
			name: "env.java.home nested",
			src:  "env:\n  java:\n    home: /opt/jdk\n",
			want: []noticeAt{{NoticeEnvJavaHomeNested, 3}},
		},
		{
			name: "env.java.home half nested",
			src:  "env:\n  java.home: /opt/jdk\n",
			want: []noticeAt{{NoticeEnvJavaHomeNested, 2}},
		},
		{
			name: "env.java.home flat",
			src:  "env.java.home: /opt/jdk\n",
		},
		{
			name: "null values",
			src:  "a:\nb:\n  c: ~\nd: [~]\n",
			want: []noticeAt{{NoticeNullValue, 1}, {NoticeNullValue, 3}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := ParseConfig("config.yaml", []byte(tc.src))
			if f.Err != nil {
				t.Fatal(f.Err)
			}
			checkFile(t, f)
			if diff := cmp.Diff(tc.want, noticesAt(f.Notices)); diff != "" {
				t.Errorf("notices (-want +got):\n%s", diff)
			}
			for _, n := range f.Notices {
				if n.File != "config.yaml" || n.Key == "" || n.Message == "" {
					t.Errorf("incomplete notice %+v", n)
				}
			}
		})
	}
}

func TestParseConfigOverlapLaterWins(t *testing.T) {
	// Flink's flatten puts both into one map in file order: the later value wins.
	f := ParseConfig("config.yaml", []byte("state:\n  backend:\n    type: hashmap\nstate.backend.type: rocksdb\n"))
	if f.Err != nil {
		t.Fatal(f.Err)
	}
	if got := f.Lookup("state.backend.type"); got == nil || got.Value != "rocksdb" {
		t.Errorf("Lookup = %+v, want rocksdb", got)
	}
}

func TestParseConfigSizeLimit(t *testing.T) {
	src := bytes.Repeat([]byte("#"), parsed.MaxFileSize+1)
	f := ParseConfig("big.yaml", src)
	if f.Err == nil || f.Err.Pos.Line != 1 || !strings.Contains(f.Err.Msg, "limit") {
		t.Fatalf("err = %v, want a size-limit error at line 1", f.Err)
	}
	if _, err := ParseManifests("big.yaml", src); err == nil {
		t.Fatal("ParseManifests accepted an oversized file")
	}
}

// TestAliasBomb: aliases that expand to more keys than maxAliasEntries are
// refused with a clear error at the outermost alias, fast.
func TestAliasBomb(t *testing.T) {
	f := ParseConfig("config.yaml", []byte(aliasBomb()))
	if f.Err == nil || !strings.Contains(f.Err.Msg, "alias bomb") || f.Err.File != "config.yaml" {
		t.Fatalf("error = %v, want an alias-bomb error naming the file", f.Err)
	}
	if len(f.Entries) > maxAliasEntries+100 {
		t.Errorf("%d entries kept", len(f.Entries))
	}
}

// aliasBomb nests mappings two aliases wide, 15 levels deep: 2^15 keys.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("l0: &l0 {a: 1, b: 2}\n")
	for i := 1; i < 15; i++ {
		fmt.Fprintf(&b, "l%d: &l%d {a: *l%d, b: *l%d}\n", i, i, i-1, i-1)
	}
	b.WriteString("top: *l14\n")
	return b.String()
}

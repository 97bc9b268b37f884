package flinkyaml

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ckptlint/ckptlint/internal/parsed"
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
	// A Double's string form in Flink 1.19/1.20 is YamlParserUtils.toYAMLString
	// (ConfigurationUtils.convertToString with standardYaml), whose
	// snakeyaml-engine 2.6 StandardRepresenter.RepresentNumber writes
	// .inf, -.inf and .nan and Double.toString otherwise; a float beyond a
	// double is infinite (Double.parseDouble in ConstructYamlCoreFloat).
	{name: "floats", src: "a: 1.5\nb: 1e3\nc: .inf\nd: -.Inf\ne: .NaN\nf: 1.\ng: 1e400\nh: -1e400\ni: +.INF\n", want: []kv{
		{"a", "1.5", kFloat}, {"b", "1000.0", kFloat}, {"c", ".inf", kFloat}, {"d", "-.inf", kFloat},
		{"e", ".nan", kFloat}, {"f", "1.0", kFloat}, {"g", ".inf", kFloat}, {"h", "-.inf", kFloat}, {"i", ".inf", kFloat},
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
	// a deliberate difference (docs/input.md): snakeyaml-engine 2.6
	// StandardConstructor builds !!set (ConstructYamlSet), ckptlint refuses it
	{name: "set tag", src: "a: !!set {x, y}\n", errLine: 1, errHas: `"!!set"`},
	// snakeyaml-engine 2.6 JsonSchema (which CoreSchema extends) constructs
	// !!binary as a byte[] (ConstructYamlBinary: white space dropped,
	// java.util.Base64's basic decoder); Flink's string form is
	// toYAMLString's, RepresentByteArray in literal style:
	// BinaryRoundTripTest expects "!!binary |-\n  wpY=\n", and
	// toYAMLString drops the last line break. In a list (flow context) the
	// emitter falls back to double quotes.
	{name: "binary tag", src: "a: !!binary aGk=\n", want: []kv{{"a", "!!binary |-\n  aGk=", kStr}}},
	{name: "binary as in BinaryRoundTripTest", src: "a: !!binary |-\n  wpY=\n", want: []kv{{"a", "!!binary |-\n  wpY=", kStr}}},
	{name: "binary without padding, across lines", src: "a: !!binary |\n  aG\n  k\n", want: []kv{{"a", "!!binary |-\n  aGk=", kStr}}},
	{name: "empty binary", src: "a: !!binary ''\n", want: []kv{{"a", `!!binary ""`, kStr}}},
	{name: "binary in a list", src: "a: [!!binary aGk=, x]\n", want: []kv{{"a", `[!!binary "aGk=", x]`, kList}}},
	// java.util.Base64.Decoder.decode: Flink fails to load the file
	{name: "binary that is not Base64", src: "a: 1\nb: !!binary a-b=\n", want: []kv{{"a", "1", kInt}}, errLine: 2, errHas: "Illegal base64 character 2d"},
	{name: "binary with text after its padding", src: "a: !!binary aGk=a\n", errLine: 1, errHas: "Input byte array has incorrect ending byte at 4"},
	{name: "binary with a dangling last character", src: "a: !!binary aGk=aa=\n", errLine: 1, errHas: "incorrect ending byte"},
	{name: "binary with one character", src: "a: !!binary a\n", errLine: 1, errHas: "Input byte[] should at least have 2 bytes for base64 bytes"},
	{name: "binary with a lone last character", src: "a: !!binary aGk=\nb: !!binary aGkx1\n", want: []kv{{"a", "!!binary |-\n  aGk=", kStr}}, errLine: 2, errHas: "Last unit does not have enough valid bits"},
	{name: "binary with too little padding", src: "a: !!binary aG=\n", errLine: 1, errHas: "Input byte array has wrong 4-byte ending unit"},
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
	// Flink 1.19/1.20 GlobalConfiguration.flatten iterates the loaded
	// Map<String, Object> with a lambda whose key is a String: a key of
	// another type throws ClassCastException, and loadYAMLResource turns it
	// into "Error parsing YAML configuration.", at any depth of mappings;
	// a null key concatenates to "null". Keys of a mapping inside a list
	// are not iterated (toYAMLString dumps the list).
	{name: "an int key refuses the file", src: "'1': a\n1: b\n", want: []kv{{"1", "a", kStr}, {"1", "b", kStr}}, errLine: 2,
		errHas: "class java.lang.Integer cannot be cast to class java.lang.String"},
	{name: "a null key is the key null", src: "~: a\n", want: []kv{{"null", "a", kStr}}},
	{name: "a bool key refuses the file", src: "~: a\ntrue: b\n", want: []kv{{"null", "a", kStr}, {"true", "b", kStr}}, errLine: 2,
		errHas: "class java.lang.Boolean cannot be cast"},
	{name: "a float key refuses the file", src: "1.5: c\n", want: []kv{{"1.5", "c", kStr}}, errLine: 1, errHas: "class java.lang.Double cannot be cast"},
	{name: "a long key", src: "a:\n  b:\n    4294967296: x\n", want: []kv{{"a.b.4294967296", "x", kStr}}, errLine: 3, errHas: "class java.lang.Long cannot be cast"},
	{name: "a big integer key", src: "99999999999999999999: x\n", want: []kv{{"99999999999999999999", "x", kStr}}, errLine: 1, errHas: "class java.math.BigInteger cannot be cast"},
	{name: "an int key nested", src: "a:\n  1: x\n", want: []kv{{"a.1", "x", kStr}}, errLine: 2, errHas: "Error parsing YAML configuration."},
	{name: "an int key in a list is read", src: "a: [{1: x}]\n", want: []kv{{"a", "[{1: x}]", kList}}},
	{name: "the first non-string key is reported", src: "a: {2: x}\n3: y\n", want: []kv{{"a.2", "x", kStr}, {"3", "y", kStr}}, errLine: 1, errHas: "key 2"},
	{name: "a duplicate key is found first", src: "1: x\nb: 1\nb: 2\n", want: []kv{{"1", "x", kStr}, {"b", "1", kInt}}, errLine: 3, errHas: "duplicate key"},
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
	// snakeyaml-engine 2.6 ParserImpl.processDirectives with
	// LoadSettingsBuilder's versionFunction: any %YAML 1.x is read (as
	// YAML 1.2), another major version throws YamlVersionException
	{name: "%YAML 1.2 directive", src: "%YAML 1.2\n---\na: 010\n", want: []kv{{"a", "10", kInt}}},
	{name: "%YAML 1.1 directive", src: "# c\n%YAML 1.1 # why\n---\na: 1\n", want: []kv{{"a", "1", kInt}}},
	{name: "%YAML 1.3 directive", src: "%YAML   1.3\n%TAG !e! tag:example.com,2000:\n---\na: 1\n", want: []kv{{"a", "1", kInt}}},
	{name: "%YAML 2.0 directive", src: "%YAML 2.0\n---\na: 1\n", errLine: 1, errHas: "Version{major=2, minor=0}"},
	{name: "two %YAML directives", src: "%YAML 1.2\n%YAML 1.2\n---\na: 1\n", errHas: "duplicate %YAML directive", errLine: 2},
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
	if _, _, err := ParseManifests("big.yaml", src); err == nil {
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

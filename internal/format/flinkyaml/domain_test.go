package flinkyaml

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

const (
	kStr   = parsed.KindString
	kInt   = parsed.KindInt
	kFloat = parsed.KindFloat
	kBool  = parsed.KindBool
	kNull  = parsed.KindNull
	kList  = parsed.KindList
)

// standardYAML is the file written by F1.20 GlobalConfigurationTest
// testConfigurationWithStandardYAML (PrintWriter.println, so LF endings).
const standardYAML = "Key1: \n" +
	"    Key2: v1\n" +
	"    Key3: 'v2'\n" +
	"Key4: 1\n" +
	"Key5: '1'\n" +
	"Key6: '*'\n" +
	"Key7: true\n" +
	"Key8: 'true'\n" +
	"Key9: [a, b, '*', 1, '2',  true, 'true']\n" +
	"Key10: {k1: v1, k2: '2', k3: 3}\n" +
	"Key11: [{k1: v1, k2: '2', k3: 3}, {k4: true}]\n"

// domainVectors are the test vectors of Flink 1.20 GlobalConfigurationTest,
// YamlParserUtilsTest and docs/content/docs/deployment/config.md, one row each.
var domainVectors = []struct {
	name string
	src  string
	want []kv
	// errLine is the line of the expected ParseError, 0 for none.
	errLine int
	// errNot lists words that must not appear in the error (Flink hides
	// values in its messages; ckptlint should not leak them either).
	errNot []string
	// distinct is the expected number of distinct keys, 0 to skip.
	distinct int
}{
	{
		// Flink 1.20 GlobalConfigurationTest L88-134 (testConfigurationWithStandardYAML)
		name: "F1.20 GlobalConfigurationTest testConfigurationWithStandardYAML keySet hasSize 12",
		src:  standardYAML,
		want: []kv{
			{"Key1.Key2", "v1", kStr},
			{"Key1.Key3", "v2", kStr},
			{"Key4", "1", kInt},
			{"Key5", "1", kStr},
			{"Key6", "*", kStr},
			{"Key7", "true", kBool},
			{"Key8", "true", kStr},
			{"Key9", "[a, b, '*', 1, '2', true, 'true']", kList},
			{"Key10.k1", "v1", kStr},
			{"Key10.k2", "2", kStr},
			{"Key10.k3", "3", kInt},
			{"Key11", "[{k1: v1, k2: '2', k3: 3}, {k4: true}]", kList},
		},
		distinct: 12,
	},
	{
		// Flink 1.20 GlobalConfigurationTest L174-192 (testInvalidStandardYamlFile)
		name:    "F1.20 GlobalConfigurationTest testInvalidStandardYamlFile scalar root",
		src:     "invalid\n",
		errLine: 1,
	},
	{
		// Flink 1.20 YamlParserUtilsTest L45-74 (testLoadYamlFile)
		name: "F1.20 YamlParserUtilsTest testLoadYamlFile",
		src: "key1: value1\nkey2: \n  subKey1: value2\nkey3: [a, b, c]\n" +
			"key4: {k1: v1, k2: v2, k3: v3}\nkey5: '*'\nkey6: true\nkey7: 'true'\n",
		want: []kv{
			{"key1", "value1", kStr},
			{"key2.subKey1", "value2", kStr},
			{"key3", "[a, b, c]", kList},
			{"key4.k1", "v1", kStr},
			{"key4.k2", "v2", kStr},
			{"key4.k3", "v3", kStr},
			{"key5", "*", kStr},
			{"key6", "true", kBool},
			{"key7", "true", kStr},
		},
	},
	{
		// Flink 1.20 YamlParserUtilsTest L83-130 (testYaml12Features): Yes, y, on stay strings
		name: "F1.20 YamlParserUtilsTest testYaml12Features booleans",
		src:  "key1: Yes\nkey2: y\nkey3: on\n",
		want: []kv{{"key1", "Yes", kStr}, {"key2", "y", kStr}, {"key3", "on", kStr}},
	},
	{
		// Flink 1.20 YamlParserUtilsTest L83-130 (testYaml12Features): 1_000 stays a string
		name: "F1.20 YamlParserUtilsTest testYaml12Features underline",
		src:  "key1: 1_000",
		want: []kv{{"key1", "1_000", kStr}},
	},
	{
		// Flink 1.20 YamlParserUtilsTest L83-130 (testYaml12Features): 010 is 10
		name: "F1.20 YamlParserUtilsTest testYaml12Features octal 010",
		src:  "octal: 010",
		want: []kv{{"octal", "10", kInt}},
	},
	{
		// Flink 1.20 YamlParserUtilsTest L83-130 (testYaml12Features): 0o10 is 8
		name: "F1.20 YamlParserUtilsTest testYaml12Features octal 0o10",
		src:  "octal: 0o10",
		want: []kv{{"octal", "8", kInt}},
	},
	{
		// Flink 1.20 YamlParserUtilsTest L83-130 (testYaml12Features): 0b101 stays a string
		name: "F1.20 YamlParserUtilsTest testYaml12Features binary",
		src:  "binary: 0b101",
		want: []kv{{"binary", "0b101", kStr}},
	},
	{
		// Flink 1.20 YamlParserUtilsTest L83-130 (testYaml12Features): 1:00 stays a string
		name: "F1.20 YamlParserUtilsTest testYaml12Features sexagesimal",
		src:  "sexagesimal: 1:00",
		want: []kv{{"sexagesimal", "1:00", kStr}},
	},
	{
		// Flink 1.20 YamlParserUtilsTest L83-130 (testYaml12Features): !!timestamp → YamlEngineException
		name:    "F1.20 YamlParserUtilsTest testYaml12Features timestamp",
		src:     "!!timestamp 2001-12-15T02:59:43.1Z",
		errLine: 1,
	},
	{
		// Flink 1.20 YamlParserUtilsTest testYaml12Features, same vector as a value
		name:    "F1.20 YamlParserUtilsTest testYaml12Features timestamp as a value",
		src:     "key: value\nts: !!timestamp 2001-12-15T02:59:43.1Z\n",
		want:    []kv{{"key", "value", kStr}},
		errLine: 2,
	},
	{
		// Flink 1.20 YamlParserUtilsTest L141-154 (testLoadYamlFile_InvalidYAMLSyntaxException)
		name:    "F1.20 YamlParserUtilsTest InvalidYAMLSyntax",
		src:     "key: value: secret\n",
		errLine: 1,
		errNot:  []string{"secret"},
	},
	{
		// Flink 1.20 YamlParserUtilsTest L157-171 (testLoadYamlFile_DuplicateKeyException)
		name:    "F1.20 YamlParserUtilsTest DuplicateKey",
		src:     "key: secret1\nkey: secret2\n",
		want:    []kv{{"key", "secret1", kStr}},
		errLine: 2,
		errNot:  []string{"secret1", "secret2"},
	},
	{
		// Flink 1.20: an empty file gives an empty config (YamlParserUtils L96-101; testLoadEmptyYamlFile)
		name: "F1.20 YamlParserUtils empty file",
		src:  "",
	},
	{
		// Flink 1.20 docs/content/docs/deployment/config.md L86-110: null may be written as null, ~ or blank
		name: "F1.20 config.md null forms",
		src:  "a: null\nb: ~\nc:\n",
		want: []kv{{"a", "", kNull}, {"b", "", kNull}, {"c", "", kNull}},
	},
	{
		// Flink 1.20 docs/content/docs/deployment/config.md L86-110: # starts a comment only at the start of a line or after whitespace
		name: "F1.20 config.md comments",
		src:  "# comment\na: foo#bar\nb: foo #bar\n",
		want: []kv{{"a", "foo#bar", kStr}, {"b", "foo", kStr}},
	},
	{
		// Flink 1.20 docs/content/docs/deployment/config.md L54-74: flat and nested notation coexist; a flat key with dots is literal
		name: "F1.20 config.md flat and nested coexist",
		src:  "state.backend.type: rocksdb\nstate:\n  backend:\n    incremental: true\n",
		want: []kv{{"state.backend.type", "rocksdb", kStr}, {"state.backend.incremental", "true", kBool}},
	},
	{
		// Flink 1.20 YamlParserUtilsTest L83-95: incremental: yes is a string
		name: "F1.20 YamlParserUtilsTest yes is a string",
		src:  "execution.checkpointing.incremental: yes\n",
		want: []kv{{"execution.checkpointing.incremental", "yes", kStr}},
	},
	{
		// Flink 1.20: a List value is turned back into a YAML flow string (GlobalConfiguration L292-316);
		// rendering from Flink 1.20 YamlParserUtilsTest testToYAMLString
		name: "F1.20 YamlParserUtilsTest testToYAMLString list",
		src:  "k: ['*', '123', 'true']\n",
		want: []kv{{"k", "['*', '123', 'true']", kList}},
	},
}

func TestParseConfigDomainVectors(t *testing.T) {
	for _, tc := range domainVectors {
		t.Run(tc.name, func(t *testing.T) {
			f := ParseConfig("config.yaml", []byte(tc.src))
			checkFile(t, f)
			if diff := cmp.Diff(tc.want, entriesKV(f.Entries), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
			switch {
			case tc.errLine == 0 && f.Err != nil:
				t.Fatalf("unexpected error: %v", f.Err)
			case tc.errLine != 0 && f.Err == nil:
				t.Fatalf("no error, want one at line %d", tc.errLine)
			case tc.errLine != 0 && f.Err.Pos.Line != tc.errLine:
				t.Errorf("error at line %d, want %d: %v", f.Err.Pos.Line, tc.errLine, f.Err)
			}
			for _, w := range tc.errNot {
				if strings.Contains(f.Err.Msg, w) {
					t.Errorf("error %q leaks %q", f.Err.Msg, w)
				}
			}
			if tc.distinct != 0 {
				keys := map[string]bool{}
				for _, e := range f.Entries {
					keys[e.Key] = true
				}
				if len(keys) != tc.distinct {
					t.Errorf("%d distinct keys, want %d", len(keys), tc.distinct)
				}
			}
		})
	}
}

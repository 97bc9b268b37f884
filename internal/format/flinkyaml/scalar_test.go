package flinkyaml

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestYAMLv3NodeTags records how yaml.v3 tags plain scalars in Node form,
// which is why this package resolves them itself: yes/on are already
// strings, but 010, 1_000 and 0b101 are YAML 1.1 ints and dates are
// timestamps, unlike Flink's YAML 1.2 core schema.
func TestYAMLv3NodeTags(t *testing.T) {
	tests := []struct {
		in, yamlTag string
		flink       value
	}{
		{"yes", "!!str", value{kind: kStr, text: "yes"}},
		{"On", "!!str", value{kind: kStr, text: "On"}},
		{"y", "!!str", value{kind: kStr, text: "y"}},
		{"010", "!!int", value{kind: kInt, text: "10"}},
		{"1_000", "!!int", value{kind: kStr, text: "1_000"}},
		{"0b101", "!!int", value{kind: kStr, text: "0b101"}},
		{"2001-12-14", "!!timestamp", value{kind: kStr, text: "2001-12-14"}},
		{"True", "!!bool", value{kind: kBool, text: "true"}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte("k: "+tc.in), &doc); err != nil {
				t.Fatal(err)
			}
			n := doc.Content[0].Content[1]
			if n.Tag != tc.yamlTag {
				t.Errorf("yaml.v3 tag = %s, want %s", n.Tag, tc.yamlTag)
			}
			if got, _ := resolveScalar(n, false); got != tc.flink {
				t.Errorf("resolveScalar = %+v, want %+v", got, tc.flink)
			}
		})
	}
}

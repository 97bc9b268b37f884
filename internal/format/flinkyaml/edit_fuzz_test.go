package flinkyaml

import (
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed/edittest"
)

// fuzzEdit checks the editor contract on one input (edittest.FuzzOps):
// zero edits give the same bytes, and every operation that succeeds gives
// a file Flink reads as intended, where doing it again changes nothing. A
// YAML error is an allowed failure; with edittest.StrictFuzz the editor's
// own check may not catch a wrong edit, except with anchors and aliases,
// which are legitimately refused (an alias may refer to a deleted anchor).
func fuzzEdit(t *testing.T, src []byte, dep int, key, arg string) {
	yamlErr := func(err error) bool { return strings.Contains(err.Error(), "yaml:") }
	strict := edittest.StrictFuzz && !strings.ContainsAny(string(src), "&*")
	edittest.FuzzOps(t, yamlFormat(dep, true), src, key, arg, yamlErr, strict)
}

func FuzzEditConfigYAML(f *testing.F) {
	for _, tc := range configEditCases {
		f.Add([]byte(tc.src), tc.key, tc.arg)
	}
	f.Add([]byte(standardYAML), "Key9", "x")
	f.Fuzz(func(t *testing.T, src []byte, key, arg string) {
		fuzzEdit(t, src, -1, key, arg)
	})
}

func FuzzEditDeployment(f *testing.F) {
	for _, tc := range deploymentEditCases {
		f.Add([]byte(tc.src), uint8(tc.dep), tc.key, tc.arg)
	}
	f.Fuzz(func(t *testing.T, src []byte, dep uint8, key, arg string) {
		fuzzEdit(t, src, int(dep%3), key, arg)
	})
}

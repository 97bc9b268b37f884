package hadoopxml

import (
	"testing"

	"github.com/ckptlint/ckptlint/lint/edit/edittest"
)

// FuzzEditHadoopXML checks the editor contract on any input
// (edittest.FuzzOps): no panic, zero edits give the same bytes, and every
// operation that succeeds gives a file Hadoop reads as intended, where
// doing it again changes nothing. With edittest.StrictFuzz the editor's
// own check may not catch a wrong edit.
func FuzzEditHadoopXML(f *testing.F) {
	for _, tc := range editCases {
		f.Add([]byte(tc.src), tc.key, tc.arg)
	}
	f.Fuzz(func(t *testing.T, src []byte, key, arg string) {
		edittest.FuzzOps(t, xmlFormat(""), src, key, arg, nil, edittest.StrictFuzz)
	})
}

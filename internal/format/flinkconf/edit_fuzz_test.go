package flinkconf

import (
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed/edittest"
)

// FuzzEditFlinkConf checks the editor contract on any input: no panic,
// zero edits give the same bytes, and every operation that succeeds gives
// a file Flink reads as intended, where doing it again changes nothing.
// The legacy format is simple enough that the editor's own check must
// never catch a wrong edit, so the check is always strict.
func FuzzEditFlinkConf(f *testing.F) {
	for _, tc := range editCases {
		f.Add([]byte(tc.src), tc.key, tc.arg)
	}
	f.Fuzz(func(t *testing.T, src []byte, key, arg string) {
		edittest.FuzzOps(t, format, src, key, arg, nil, true)
	})
}

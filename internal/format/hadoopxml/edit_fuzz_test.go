package hadoopxml

import (
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed/edittest"
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
	// non-UTF-8 files (issue 11.4): the editor maps edits back to the encoding
	f.Add([]byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<configuration>\n<property><name>c</name><value>M\xfcller</value></property>\n</configuration>\n"), "c", "5\u20ac")
	f.Add([]byte("\xff\xfe<\x00?\x00x\x00m\x00l\x00 \x00v\x00e\x00r\x00s\x00i\x00o\x00n\x00=\x00'\x001\x00.\x000\x00'\x00?\x00>\x00<\x00c\x00o\x00n\x00f\x00i\x00g\x00u\x00r\x00a\x00t\x00i\x00o\x00n\x00/\x00>\x00"), "a", "b")
	f.Fuzz(func(t *testing.T, src []byte, key, arg string) {
		edittest.FuzzOps(t, xmlFormat(""), src, key, arg, nil, edittest.StrictFuzz)
	})
}

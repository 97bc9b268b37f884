package edittest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

func TestSameEnding(t *testing.T) {
	if !SameEnding([]byte("a\n"), []byte("a\nb\n")) || !SameEnding([]byte("a"), []byte("a\nb")) || SameEnding([]byte("a"), []byte("a\n")) || !SameEnding([]byte("a"), nil) {
		t.Error("SameEnding is wrong")
	}
}

func TestCRLF(t *testing.T) {
	got := CRLF([]byte("a\nb\n"))
	if string(got) != "a\r\nb\r\n" || !OnlyCRLF(got) || OnlyCRLF([]byte("a\nb")) || OnlyCRLF([]byte("a\rb")) {
		t.Fatalf("CRLF/OnlyCRLF wrong: %q", got)
	}
}

func TestLineOps(t *testing.T) {
	old := []byte("<a>\r\n  <p>\r\n    x\r\n  </p>\r\n  <p>\r\n    y\r\n  </p>\r\n</a>")
	new := []byte("<a>\r\n  <p>\r\n    Y\r\n  </p>\r\n  <p>\r\n    z\r\n  </p>\r\n</a>")
	in, ok := InsertionOf(old, parsed.Edit{Start: 49, End: 49, Text: "  <p>\r\n    z\r\n  </p>\r\n"})
	if !ok {
		t.Fatal("InsertionOf: not whole lines")
	}
	ops := LineOps{Replace: map[int]string{6: "    Y"}, Delete: map[int]bool{2: true, 3: true, 4: true}, Insert: []Insertion{in}}
	if diff := cmp.Diff(Result(new), ops.Apply(old)); diff != "" {
		t.Errorf("(-edited +expected):\n%s", diff)
	}
	end, ok := InsertionOf([]byte("a\nb"), parsed.Edit{Start: 3, End: 3, Text: "\nc"})
	if !ok || end.Before != 3 || len(end.Lines) != 1 || end.Lines[0] != "c" {
		t.Errorf("InsertionOf at the end without a final newline: %+v, %t", end, ok)
	}
	if _, ok := InsertionOf([]byte("ab"), parsed.Edit{Start: 1, End: 1, Text: "x\n"}); ok {
		t.Error("InsertionOf accepted a mid-line insert")
	}
}

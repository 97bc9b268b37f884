package fix

import (
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// TestBlockViewEdits: edits of a literal block's text land in the
// container at the block's lines, new lines indented, and nothing outside
// the block changes.
func TestBlockViewEdits(t *testing.T) {
	container := "data:\n  flink-conf.yaml: |\n    a: 1\n    b: 2\nother: x\n"
	start := len("data:\n  flink-conf.yaml: |\n")
	end := start + len("    a: 1\n    b: 2\n")
	v, err := viewOf([]byte(container), &parsed.Embed{Exact: true, Start: start, End: end, Indent: "    "})
	if err != nil {
		t.Fatal(err)
	}
	if string(v.text) != "a: 1\nb: 2\n" {
		t.Fatalf("text %q", v.text)
	}
	for _, tt := range []struct {
		name string
		edit parsed.Edit
		want string
	}{
		{"value", parsed.Edit{Start: 3, End: 4, Text: "9"}, "data:\n  flink-conf.yaml: |\n    a: 9\n    b: 2\nother: x\n"},
		{"append", parsed.Edit{Start: 10, End: 10, Text: "c: 3\n"}, "data:\n  flink-conf.yaml: |\n    a: 1\n    b: 2\n    c: 3\nother: x\n"},
		{"insert", parsed.Edit{Start: 5, End: 5, Text: "x: 0\ny: 0\n"}, "data:\n  flink-conf.yaml: |\n    a: 1\n    x: 0\n    y: 0\n    b: 2\nother: x\n"},
		{"delete line", parsed.Edit{Start: 5, End: 10, Text: ""}, "data:\n  flink-conf.yaml: |\n    a: 1\nother: x\n"},
	} {
		got, err := parsed.Apply([]byte(container), v.edits([]parsed.Edit{tt.edit}))
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: %q (%v), want %q", tt.name, got, err, tt.want)
		}
	}
}

package parsed

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLineBreak(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"", "\n"}, {"a", "\n"}, {"a\nb\r\n", "\n"}, {"a\r\nb\n", "\r\n"}, {"a\rb", "\r"}, {"\r", "\r"},
	} {
		if got := LineBreak([]byte(tt.src)); got != tt.want {
			t.Errorf("LineBreak(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

func TestLineBounds(t *testing.T) {
	type bounds struct{ Start, End, Next int }
	tests := []struct {
		name string
		src  string
		off  int
		want bounds
	}{
		{"first line", "ab\ncd\n", 1, bounds{0, 2, 3}},
		{"on the line feed", "ab\ncd\n", 2, bounds{0, 2, 3}},
		{"second line", "ab\ncd\n", 4, bounds{3, 5, 6}},
		{"last line without break", "ab\ncd", 4, bounds{3, 5, 5}},
		{"at the end after a break", "ab\n", 3, bounds{3, 3, 3}},
		{"CRLF", "ab\r\ncd\r\n", 1, bounds{0, 2, 4}},
		{"on the CR of CRLF", "ab\r\ncd", 2, bounds{0, 2, 4}},
		{"on the LF of CRLF", "ab\r\ncd", 3, bounds{0, 2, 4}},
		{"lone CR", "ab\rcd", 4, bounds{3, 5, 5}},
		{"clamped", "ab", 9, bounds{0, 2, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, e, n := LineBounds([]byte(tt.src), tt.off)
			if diff := cmp.Diff(tt.want, bounds{s, e, n}); diff != "" {
				t.Errorf("LineBounds(%q, %d) (-want +got):\n%s", tt.src, tt.off, diff)
			}
		})
	}
}

func TestLineEdits(t *testing.T) {
	tests := []struct {
		name string
		src  string
		edit func(src []byte) Edit
		want string
	}{
		{"insert after a line", "a: 1\nb: 2\n", func(s []byte) Edit { return InsertAfterLine(s, 2, []string{"x: 9"}, "\n") }, "a: 1\nx: 9\nb: 2\n"},
		{"insert after the last line", "a: 1\nb: 2\n", func(s []byte) Edit { return InsertAfterLine(s, 7, []string{"x: 9", "y: 8"}, "\n") }, "a: 1\nb: 2\nx: 9\ny: 8\n"},
		{"insert after a last line without break", "a: 1\nb: 2", func(s []byte) Edit { return InsertAfterLine(s, 7, []string{"x: 9"}, "\n") }, "a: 1\nb: 2\nx: 9"},
		{"insert CRLF", "a: 1\r\nb: 2\r\n", func(s []byte) Edit { return InsertAfterLine(s, 0, []string{"x: 9"}, "\r\n") }, "a: 1\r\nx: 9\r\nb: 2\r\n"},
		{"append to an empty file", "", func(s []byte) Edit { return AppendLines(s, []string{"x: 9"}, "\n") }, "x: 9\n"},
		{"append after a break", "a: 1\n", func(s []byte) Edit { return AppendLines(s, []string{"x: 9"}, "\n") }, "a: 1\nx: 9\n"},
		{"append without final break", "a: 1", func(s []byte) Edit { return AppendLines(s, []string{"x: 9"}, "\n") }, "a: 1\nx: 9"},
		{"delete a middle line", "a\nb\nc\n", func(s []byte) Edit { return DeleteLines(s, 2, 4) }, "a\nc\n"},
		{"delete the last line", "a\nb\nc\n", func(s []byte) Edit { return DeleteLines(s, 4, 6) }, "a\nb\n"},
		{"delete the last line without break", "a\nb\nc", func(s []byte) Edit { return DeleteLines(s, 4, 5) }, "a\nb"},
		{"delete the last lines without break, CRLF", "a\r\nb\r\nc", func(s []byte) Edit { return DeleteLines(s, 3, 7) }, "a"},
		{"delete the only line", "a", func(s []byte) Edit { return DeleteLines(s, 0, 1) }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Apply([]byte(tt.src), []Edit{tt.edit([]byte(tt.src))})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

package parsed

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestApply(t *testing.T) {
	const src = "0123456789"
	tests := []struct {
		name    string
		edits   []Edit
		want    string
		wantErr error
	}{
		{name: "no edits", want: src},
		{name: "replace", edits: []Edit{{2, 4, "ab"}}, want: "01ab456789"},
		{name: "delete", edits: []Edit{{2, 4, ""}}, want: "01456789"},
		{name: "insert", edits: []Edit{{3, 3, "x"}}, want: "012x3456789"},
		{name: "insert at start and end", edits: []Edit{{10, 10, "E"}, {0, 0, "S"}}, want: "S0123456789E"},
		{name: "any order", edits: []Edit{{8, 9, "h"}, {1, 2, "b"}}, want: "0b234567h9"},
		{name: "two inserts at one offset keep their order", edits: []Edit{{5, 5, "a"}, {5, 5, "b"}}, want: "01234ab56789"},
		{name: "insert before a range that starts there", edits: []Edit{{2, 4, "R"}, {2, 2, "i"}}, want: "01iR456789"},
		{name: "insert after a range that ends there", edits: []Edit{{4, 4, "i"}, {2, 4, "R"}}, want: "01Ri456789"},
		{name: "adjacent ranges", edits: []Edit{{2, 4, "A"}, {4, 6, "B"}}, want: "01AB6789"},
		{name: "the same replacement twice applies once", edits: []Edit{{2, 4, "A"}, {2, 4, "A"}}, want: "01A456789"},
		{name: "overlapping ranges", edits: []Edit{{2, 5, "A"}, {4, 6, "B"}}, wantErr: ErrOverlap},
		{name: "same range, different text", edits: []Edit{{2, 5, "A"}, {2, 5, "B"}}, wantErr: ErrOverlap},
		{name: "insert inside a range", edits: []Edit{{2, 5, "A"}, {3, 3, "i"}}, wantErr: ErrOverlap},
		{name: "nested range", edits: []Edit{{1, 8, ""}, {3, 4, "x"}}, wantErr: ErrOverlap},
		{name: "negative start", edits: []Edit{{-1, 2, ""}}, wantErr: ErrOutOfRange},
		{name: "past the end", edits: []Edit{{8, 11, ""}}, wantErr: ErrOutOfRange},
		{name: "end before start", edits: []Edit{{5, 4, ""}}, wantErr: ErrOutOfRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Apply([]byte(src), tt.edits)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Apply: err %v, want %v", err, tt.wantErr)
				}
				if got != nil {
					t.Fatalf("Apply returned %q with an error", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("Apply (-want +got):\n%s", diff)
			}
		})
	}
}

func TestApplyDoesNotModifyInput(t *testing.T) {
	src := []byte("abc")
	edits := []Edit{{2, 3, "Z"}, {0, 1, "X"}}
	out, err := Apply(src, edits)
	if err != nil {
		t.Fatal(err)
	}
	if string(src) != "abc" || string(out) != "XbZ" || edits[0].Start != 2 {
		t.Fatalf("src %q, out %q, edits %v", src, out, edits)
	}
	same, _ := Apply(src, nil)
	same[0] = 'q'
	if src[0] != 'a' {
		t.Fatal("Apply with no edits returned the input slice")
	}
}

func TestEditString(t *testing.T) {
	for _, tt := range []struct {
		e    Edit
		want string
	}{
		{Edit{3, 3, "x"}, `insert "x" at byte 3`},
		{Edit{3, 5, ""}, "delete bytes 3-5"},
		{Edit{3, 5, "y"}, `replace bytes 3-5 with "y"`},
	} {
		if got := tt.e.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.e, got, tt.want)
		}
	}
}

func FuzzApply(f *testing.F) {
	f.Add([]byte("0123456789"), 2, 4, "ab", 4, 4, "x")
	f.Add([]byte("a\r\nb"), 0, 0, "", 1, 3, "\n")
	f.Fuzz(func(t *testing.T, src []byte, s1, e1 int, t1 string, s2, e2 int, t2 string) {
		if _, err := Apply(src, nil); err != nil {
			t.Fatal(err)
		}
		edits := []Edit{{s1, e1, t1}, {s2, e2, t2}}
		out, err := Apply(src, edits)
		if err != nil {
			return
		}
		// Applying one edit at a time, the later one first, gives the same.
		n, _ := Normalize(len(src), edits)
		step := src
		for i := len(n) - 1; i >= 0; i-- {
			e := n[i]
			step = append(append(append([]byte{}, step[:e.Start]...), e.Text...), step[e.End:]...)
		}
		if string(step) != string(out) {
			t.Fatalf("Apply = %q, one by one = %q", out, step)
		}
	})
}

package finding

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	long := strings.Repeat("x", 10<<20)
	spaced := strings.Repeat("ab ", 1<<20)
	tests := []struct {
		name, in  string
		wantStart string
		wantEnd   string
	}{
		{"short message unchanged", `dfs.blocksize "128m" is fine`, `dfs.blocksize "128m" is fine`, ""},
		{"quoted value", `key "` + long + `" is not a size; set it to "1m"`, `key "xxx`, `bytes cut]" is not a size; set it to "1m"`},
		{"unquoted token", "value " + long + " here", "value xxx", "bytes cut] here"},
		{"unclosed quote", `key "` + long, `key "xxx`, "bytes cut]"},
		{"escaped quotes stay inside", `key "a\"` + long + `" end`, `key "a\"xxx`, `bytes cut]" end`},
		{"many short words", spaced, "ab ab", "…[message cut, 3145728 bytes]"},
		{"runes are not split", `v "` + strings.Repeat("é", 1000) + `"`, `v "éé`, `bytes cut]"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Clip(tt.in)
			if !strings.HasPrefix(got, tt.wantStart) || !strings.HasSuffix(got, tt.wantEnd) {
				t.Errorf("Clip = %.80q ... %.80q", got, got[max(0, len(got)-80):])
			}
			if len(got) > MaxMessage || !utf8.ValidString(got) {
				t.Errorf("Clip: %d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
			}
			if again := Clip(got); again != got {
				t.Errorf("Clip is not idempotent:\n%.200q\n%.200q", got, again)
			}
			if tt.wantEnd == "" && got != tt.in {
				t.Errorf("Clip changed a short message: %q", got)
			}
		})
	}
	// A clipped quoted value fills MaxQuoted runes, marker included (the
	// marker may come out a digit shorter than sized).
	got := Clip(`"` + long + `"`)
	if n := utf8.RuneCountInString(got) - 2; n > MaxQuoted || n < MaxQuoted-2 {
		t.Errorf("clipped value is %d runes, want %d", n, MaxQuoted)
	}
}

func TestBounded(t *testing.T) {
	in := []Finding{{Message: "ok"}, {Message: strings.Repeat("y", 1000), Suppression: &Suppression{Reason: strings.Repeat("r", 1000)}}}
	out := Bounded(in)
	if &out[0] == &in[0] || in[1].Message != strings.Repeat("y", 1000) || in[1].Suppression.Reason != strings.Repeat("r", 1000) {
		t.Fatal("Bounded changed its input")
	}
	if utf8.RuneCountInString(out[1].Message) > MaxQuoted || utf8.RuneCountInString(out[1].Suppression.Reason) > MaxQuoted ||
		!strings.HasSuffix(out[1].Message, "bytes cut]") {
		t.Errorf("not clipped: %q / %q", out[1].Message, out[1].Suppression.Reason)
	}
	short := []Finding{{Message: "a"}}
	if got := Bounded(short); &got[0] != &short[0] {
		t.Error("Bounded copied a slice with nothing to clip")
	}
}

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

// TestWithinAgreesWithClip checks Clip's fast path: whenever within says
// a message is inside the bounds, the full pass returns it unchanged.
func TestWithinAgreesWithClip(t *testing.T) {
	pieces := []string{"a", "é", " ", "\t", "\n", "\r", `"`, `\`, `\"`, strings.Repeat("x", MaxQuoted-1),
		strings.Repeat("x", MaxQuoted), strings.Repeat("é", MaxQuoted/2+1), strings.Repeat("w ", MaxMessage/2)}
	var msgs []string
	for _, a := range pieces {
		for _, b := range pieces {
			for _, c := range pieces {
				msgs = append(msgs, a+b+c, `k "`+a+b+`" v `+c)
			}
		}
	}
	for _, m := range msgs {
		if within(m) && clip(m) != m {
			t.Errorf("within(%.60q) but the full pass changes it", m)
		}
		if Clip(m) != clip(m) {
			t.Errorf("Clip(%.60q) differs from the full pass", m)
		}
	}
}

// FuzzClip holds the fast path to the full pass on any input.
func FuzzClip(f *testing.F) {
	f.Add(`dfs.blocksize "128m" is fine`)
	f.Add(strings.Repeat("x", MaxQuoted+1))
	f.Fuzz(func(t *testing.T, s string) {
		if Clip(s) != clip(s) {
			t.Fatalf("Clip(%.80q) differs from the full pass", s)
		}
	})
}

// TestSeen: a repeat is seen again whatever its strings' lengths, and a
// finding differing in one field, or in where one string ends and the
// next begins, is not.
func TestSeen(t *testing.T) {
	base := Finding{RuleID: "CKPT101", Message: "m", Detail: "d", Range: Range{File: "a/hdfs-site.xml"}}
	base.Range.Start.Line = 3
	var s Seen
	if s.Again(base) || !s.Again(base) {
		t.Fatal("a finding is not seen the second time")
	}
	others := []func(*Finding){
		func(f *Finding) { f.RuleID = "CKPT102" },
		func(f *Finding) { f.Message = "m2" },
		func(f *Finding) { f.Detail = "" },
		func(f *Finding) { f.Range.File = "b/hdfs-site.xml" },
		func(f *Finding) { f.Range.Start.Line = 4 },
		func(f *Finding) { f.Range.End.Offset = 9 },
		func(f *Finding) { f.Message, f.Detail = "md", "" }, // the boundary moved
		func(f *Finding) { f.RuleID, f.Message = "CKPT101m", "" },
	}
	for i, change := range others {
		f := base
		change(&f)
		if s.Again(f) {
			t.Errorf("change %d: seen before", i)
		}
	}
}

// BenchmarkClipWithin clips a detail of a few hundred bytes within the
// bounds: the fast path every rendered finding takes.
func BenchmarkClipWithin(b *testing.B) {
	s := "state backend rocksdb (state.backend at svc0/env0/job-0000/flink/flink-conf.yaml:5) with incremental checkpoints off " +
		"(state.backend.incremental unset, default false): every checkpoint, every 10 s (execution.checkpointing.interval at " +
		"svc0/env0/job-0000/flink/flink-conf.yaml:7), uploads the complete RocksDB state of every stateful task to " +
		`hdfs://nn:8020/flink/checkpoints/job-0, so the "bytes written" to HDFS and the checkpoint duration grow with the whole state`
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if Clip(s) != s {
			b.Fatal("clipped")
		}
	}
}

// FuzzClosingQuote holds closingQuote to a loop over every byte.
func FuzzClosingQuote(f *testing.F) {
	for _, s := range []string{`a"b`, `\"x"`, `\\"`, `x\`, `"`, `\\\"\"q"r`} {
		f.Add(s, 0)
	}
	f.Fuzz(func(t *testing.T, s string, i int) {
		i = min(max(i, 0), len(s))
		want := len(s)
		for j := i; j < len(s); j++ {
			if s[j] == '\\' {
				j++
			} else if s[j] == '"' {
				want = j
				break
			}
		}
		if got := closingQuote(s, i); got != want {
			t.Fatalf("closingQuote(%q, %d) = %d, want %d", s, i, got, want)
		}
	})
}

// BenchmarkClipEscapes clips a quoted value of a million backslashes:
// linear (it once took 20 s, searching for the quote after each one).
func BenchmarkClipEscapes(b *testing.B) {
	s := `The value "` + strings.Repeat(`\\`, 1<<19) + `" is bad.`
	for b.Loop() {
		_ = Clip(s)
	}
}

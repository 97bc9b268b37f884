package template

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// controlSamples are the files under testdata/ and ../shared/corpus (when
// present) and a few made-up sources around the delimiters.
func controlSamples(t testing.TB) [][]byte {
	t.Helper()
	out := [][]byte{
		nil, []byte(""), []byte("{"), []byte("{%"), []byte("{% if"), []byte("x {%- if y %}"), []byte("{{{{ if"),
		[]byte("<%= x %> <% if y %>"), []byte("a: {{ .Values.x }}\n{{- range .Values.y }}"), []byte("<%- @x.each do %>"),
		[]byte("{%raw%}"), []byte("{% iffy %}{% if %}"), []byte("<<%% end"), []byte("{{-\n\twith x}}"),
		[]byte("a: #{if Ha}b#{/if}"), []byte("#{each n in Nodes}#{n}#{/each} #{iffy}"),
	}
	for _, root := range []string{"../../testdata", "../../../shared/corpus"} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				if b, err := os.ReadFile(p); err == nil {
					out = append(out, b)
				}
			}
			return nil
		})
	}
	return out
}

// TestControlTagIsTheRegexp: the prefiltered search finds what the regular
// expression alone finds, on every sample and every suffix of the made-up
// ones.
func TestControlTagIsTheRegexp(t *testing.T) {
	n := 0
	for _, src := range controlSamples(t) {
		for i := range min(len(src), 64) + 1 {
			s := src[i:]
			got, want := controlTag(s), reControl().FindIndex(s)
			if !slices.Equal(got, want) {
				t.Errorf("%q: controlTag %v, reControl %v", clip(s), got, want)
			}
			if want != nil {
				n++
			}
		}
	}
	if n == 0 {
		t.Error("no sample holds a control tag")
	}
}

func clip(b []byte) string {
	s := string(b)
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return strings.ReplaceAll(s, "\n", `\n`)
}

// FuzzControlTag compares the prefiltered search with the regular
// expression on arbitrary bytes.
func FuzzControlTag(f *testing.F) {
	for _, s := range controlSamples(f)[:16] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if got, want := controlTag(src), reControl().FindIndex(src); !slices.Equal(got, want) {
			t.Errorf("%q: controlTag %v, reControl %v", src, got, want)
		}
	})
}

// BenchmarkControlTag and BenchmarkControlRegexp search every sample for a
// control tag, with and without the prefilter (docs/performance.md):
//
//	go test ./internal/template -run XXX -bench Control
func BenchmarkControlTag(b *testing.B) { benchControl(b, controlTag) }
func BenchmarkControlRegexp(b *testing.B) {
	benchControl(b, func(s []byte) []int { return reControl().FindIndex(s) })
}

func benchControl(b *testing.B, find func([]byte) []int) {
	srcs := controlSamples(b)
	n := 0
	for _, s := range srcs {
		n += len(s)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, s := range srcs {
			find(s)
		}
	}
}

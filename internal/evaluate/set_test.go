package evaluate

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// TestParseHeadline: every kind of parse error, on a Flink and a Hadoop
// file, has a headline of its own that keeps the contract of
// finding.Finding.Message (one sentence ending in a full stop, at most
// finding.MaxHeadline characters) even for a file name of 255 bytes, and
// names who cannot read the file.
func TestParseHeadline(t *testing.T) {
	kinds := []parsed.ErrKind{parsed.ErrRefused, parsed.ErrXML, parsed.ErrYAML, parsed.ErrConfig, parsed.ErrInclude,
		parsed.ErrLimit, parsed.ErrEncoding, parsed.ErrOutside, parsed.ErrUndecided}
	sentenceBreak := regexp.MustCompile(`[.!?;]["')\]]? +[A-Z]`)
	long := "conf/" + strings.Repeat("x", 245) + "-site.xml"
	for _, fm := range []parsed.Format{parsed.FlinkConfigYAML, parsed.HadoopHDFSSite} {
		seen := map[string]bool{}
		for _, unread := range []bool{false, true} {
			for _, k := range kinds {
				for _, file := range []string{"conf/hdfs-site.xml", long} {
					h := parseHeadline(&parsed.ParseError{Kind: k, Unread: unread}, fm, file)
					if n := utf8.RuneCountInString(h); n > finding.MaxHeadline || !strings.HasSuffix(h, ".") || sentenceBreak.MatchString(h) {
						t.Errorf("%s %s unread=%v: headline of %d characters breaks the contract: %s", fm, k, unread, n, h)
					}
					if file == long && !strings.Contains(h, "…") {
						t.Errorf("%s %s: a long name is not cut: %s", fm, k, h)
					}
					if file != long {
						seen[h] = true
					}
				}
			}
		}
		// Each kind says something of its own; unread says the same
		// whatever the kind.
		if len(seen) != len(kinds)+1 {
			t.Errorf("%s: %d distinct headlines, want %d", fm, len(seen), len(kinds)+1)
		}
	}
	for _, tt := range []struct {
		k    parsed.ErrKind
		fm   parsed.Format
		want string
	}{
		{parsed.ErrXML, parsed.HadoopHDFSSite, "Hadoop cannot load hdfs-site.xml: it is not well-formed XML."},
		{parsed.ErrYAML, parsed.FlinkConfigYAML, "Flink cannot load config.yaml: it is not valid YAML."},
		{parsed.ErrLimit, parsed.HadoopCoreSite, "ckptlint does not lint core-site.xml: it is past the limits of what ckptlint reads."},
	} {
		file := map[parsed.Format]string{parsed.HadoopHDFSSite: "a/hdfs-site.xml", parsed.FlinkConfigYAML: "a/config.yaml", parsed.HadoopCoreSite: "core-site.xml"}[tt.fm]
		if got := parseHeadline(&parsed.ParseError{Kind: tt.k}, tt.fm, file); got != tt.want {
			t.Errorf("parseHeadline(%s, %s) = %q, want %q", tt.k, tt.fm, got, tt.want)
		}
	}
}

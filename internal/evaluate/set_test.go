package evaluate

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/model"
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

// TestVersionConflictHeadline: a conflict pinned by a long instruction in a
// deep path keeps its headline within finding.MaxHeadline characters, the
// place cut in the headline and whole in the detail.
func TestVersionConflictHeadline(t *testing.T) {
	what := "ENV FLINK_TGZ_URL=https://archive.apache.org/dist/flink/flink-1.17.2/flink-1.17.2-bin-scala_2.12.tgz"
	file := "deploy/" + strings.Repeat("environments/", 8) + "Dockerfile"
	s := &model.Set{Name: "jobs", Flink: &parsed.File{Path: "conf/flink-conf.yaml"}, FlinkVersion: model.Resolved{
		Version: model.V(1, 20), Source: "config", Where: "flink_version in .ckptlint.hcl",
		Conflicts: []model.Evidence{{Version: "1.17.2", Source: "script", What: what, File: file, Line: 3}},
	}}
	fs := versionConflicts(s)
	if len(fs) != 1 {
		t.Fatalf("%d findings, want 1", len(fs))
	}
	f := fs[0]
	if n := utf8.RuneCountInString(f.Message); n > finding.MaxHeadline || !strings.HasSuffix(f.Message, " pins Flink 1.17.2.") || !strings.Contains(f.Message, "…") {
		t.Errorf("headline of %d characters: %s", n, f.Message)
	}
	if !strings.Contains(f.Detail, what+", "+file+":3") {
		t.Errorf("the detail does not name the place whole: %s", f.Detail)
	}
}

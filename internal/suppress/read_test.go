package suppress

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/format/flinkconf"
	"github.com/ckptlint/ckptlint/internal/format/flinkyaml"
	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// comments are the comments of src as the reader of a file in syntax syn
// finds them, as internal/discover hands them to Parse: flink-conf.yaml's
// line parser, config.yaml's YAML reader, the Hadoop XML reader.
func comments(path, src string, syn Syntax) *parsed.Comments {
	switch syn {
	case FlinkConf:
		return flinkconf.Parse(path, []byte(src)).Comments
	case YAML:
		return flinkyaml.ParseConfig(path, []byte(src)).Comments
	case XML:
		return hadoopxml.Parse(path, []byte(src), hadoopxml.Options{}).Comments
	}
	return nil
}

// parseText is Parse of the comments the reader of syn finds in src.
func parseText(path, src string, syn Syntax) *File {
	return Parse(path, comments(path, src, syn), syn)
}

// TestParseWhereTheReaderDecides covers the inputs on which the lexer this
// package had (before the readers returned comments) and the readers'
// comments disagree; each expectation is the reader's, for the reason
// given.
func TestParseWhereTheReaderDecides(t *testing.T) {
	tests := []struct {
		name  string
		syn   Syntax
		src   string
		want  []ig
		probs []prob
	}{
		// YAML 1.2 §8.1.1.2: a line less indented than a block scalar's
		// content ends the scalar, and a comment there is a trailing
		// comment (l-trail-comments), not text; yaml.v3 and snakeyaml
		// read it so. The old lexer took it for content.
		{name: "yaml comment less indented than a block scalar's content", syn: YAML,
			src:  "a: |\n    text # not a comment\n  # ckptlint:ignore CKPT101 -- after the block\nb: 1\n",
			want: []ig{{"inline", 3, 4, 4, "CKPT101", "after the block"}}},
		// A file YAML cannot parse has no comments: where a quoted or
		// block scalar lies, and so which '#' is text, is what the parse
		// tells. Its set is not evaluated and its CKPT000 is what is
		// reported; the old lexer reported the malformed ignore too.
		{name: "yaml that does not parse holds no ignore", syn: YAML,
			src: "a: [1\n# ckptlint:ignore CKPT101\n"},
		// Hadoop stops at the first XML error: the comments before it are
		// read, those after it are not (the old lexer read them all).
		{name: "xml comments after the error are not read", syn: XML,
			src:   "<configuration>\n<!-- ckptlint:ignore CKPT101 -->\n<x></y>\n<!-- ckptlint:ignore CKPT102 -->\n</configuration>\n",
			probs: []prob{{2, "ckptlint:ignore has no reason, so it silences nothing: write <!-- ckptlint:ignore CKPT101 - reason --> (a single '-': XML comments cannot hold \"--\")"}}},
		// Not a difference, but the case the readers could get wrong: a
		// comment inside <value> is a comment (Hadoop's StAX reader drops
		// it from the value), on the lines of its <property>.
		{name: "xml comment inside a value", syn: XML,
			src:  "<configuration>\n<property><name>a</name><value>1<!-- ckptlint:ignore CKPT101 - inside -->2</value></property>\n</configuration>\n",
			want: []ig{{"inline", 2, 2, 2, "CKPT101", "inside"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, probs := compact(parseText("f", tt.src, tt.syn))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ignores (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.probs, probs); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

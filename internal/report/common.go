package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/safetext"
)

// columns converts ckptlint's byte columns to Unicode code point columns,
// the unit SARIF's columnKind "unicodeCodePoints" and GitHub annotations
// count in, using the file contents. Without the contents a byte column is
// kept (exact for ASCII lines).
type columns struct {
	sources map[string][]byte
	lines   map[string]*parsed.Lines
}

func newColumns(sources map[string][]byte) *columns {
	return &columns{sources: sources, lines: map[string]*parsed.Lines{}}
}

// col returns the 1-based code point column of p in file.
func (c *columns) col(file string, p parsed.Pos) int {
	src, ok := c.sources[file]
	if !ok || p.Line < 1 || p.Col < 1 {
		return max(p.Col, 1)
	}
	ls := c.lines[file]
	if ls == nil {
		ls = parsed.NewLines(src)
		c.lines[file] = ls
	}
	start := ls.LineStart(p.Line)
	end := min(start+p.Col-1, len(src))
	return utf8.RuneCount(src[start:end]) + 1
}

// region is a 1-based start/end line and code point column pair; the end
// is exclusive, as in both SARIF and ckptlint's spans.
type region struct{ startLine, startCol, endLine, endCol int }

// region converts a span of file. A span without an end (or an end before
// its start) becomes an empty region at the start.
func (c *columns) region(file string, s parsed.Span) region {
	start := s.Start
	if start.Line < 1 {
		start = parsed.Top()
	}
	rg := region{startLine: start.Line, startCol: c.col(file, start)}
	end := s.End
	if end.Line < start.Line || (end.Line == start.Line && end.Col < start.Col) {
		end = start
	}
	rg.endLine, rg.endCol = end.Line, c.col(file, end)
	return rg
}

// targetWords says where a fix operation's target is.
var targetWords = map[string]string{
	"flink":        "in the Flink configuration",
	"hdfs-client":  "where Flink's HDFS client reads it (hdfs-site.xml)",
	"core-client":  "where Flink's HDFS client reads it (core-site.xml)",
	"hdfs-cluster": "in the cluster's hdfs-site.xml",
}

// fixWords says what a fix's operations do, e.g. `set dfs.blocksize to
// "1m" where Flink's HDFS client reads it (hdfs-site.xml)`.
func fixWords(ops []finding.Op) string {
	parts := make([]string, 0, len(ops))
	for _, op := range ops {
		where := targetWords[op.Target]
		if where == "" {
			where = "in " + op.Target
		}
		switch op.Op {
		case "set":
			parts = append(parts, fmt.Sprintf("set %s to %q %s", op.Key, op.Value, where))
		case "delete":
			parts = append(parts, fmt.Sprintf("delete %s %s", op.Key, where))
		case "rename":
			parts = append(parts, fmt.Sprintf("rename %s to %s %s", op.Key, op.NewKey, where))
		default:
			parts = append(parts, fmt.Sprintf("%s %s %s", op.Op, op.Key, where))
		}
	}
	return strings.Join(parts, "; ")
}

// encodeJSON writes v as indented JSON (HTML characters escaped with
// escapeHTML) through safetext's JSON guard: the document decodes to the
// same data, and printed to a CI log or a terminal it carries no workflow
// command, control or bidirectional override a name or value held.
func encodeJSON(w io.Writer, v any, escapeHTML bool) error {
	out, err := indentedJSON(v, escapeHTML)
	if err != nil {
		return err
	}
	g := safetext.NewJSONWriter(w)
	if _, err := g.Write(out); err != nil {
		return err
	}
	return g.Flush()
}

// indentedJSON is v encoded as encodeJSON writes it, before its guard:
// compact, then indented as json.Encoder's SetIndent("", "  ") would
// (indentJSON), with its closing newline.
func indentedJSON(v any, escapeHTML bool) ([]byte, error) {
	compact, err := compactJSON(v, escapeHTML)
	if err != nil {
		return nil, err
	}
	out := indentJSON(make([]byte, 0, len(compact)*5/4+1), compact, "", "  ")
	return append(out, '\n'), nil
}

// compactJSON is v as json.Encoder encodes it (HTML characters escaped
// with escapeHTML), without the encoder's closing newline.
func compactJSON(v any, escapeHTML bool) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// oneLine folds a message onto one line: line breaks and runs of blanks
// become single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// repoPath returns file relative to the repository root (see
// Result.RepoDir), and false when file is absolute.
func (r Result) repoPath(file string) (string, bool) {
	if path.IsAbs(file) || (len(file) > 2 && file[1] == ':' && (file[2] == '/' || file[2] == '\\')) {
		return file, false
	}
	if r.RepoDir == "" || r.RepoDir == "." {
		return file, true
	}
	return path.Join(r.RepoDir, file), true
}

// foldParagraphs joins the hard-wrapped lines of each paragraph of s (as
// METADATA descriptions are written) and keeps blank lines between
// paragraphs.
func foldParagraphs(s string) string {
	var paras []string
	for _, p := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n\n") {
		if p = oneLine(p); p != "" {
			paras = append(paras, p)
		}
	}
	return strings.Join(paras, "\n\n")
}

// Package template handles configuration files that are templates
// (docs/templates.md): during discovery Mark records the placeholders of
// a parsed file and whether its structure is templated (then no rule reads
// it); during evaluation Apply keeps findings and fixes off the values
// placeholders make unknown and Notes reports each template file (CKPT003).
// Placeholders themselves are recognised by internal/placeholder.
package template

import (
	"bytes"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/format"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/placeholder"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/internal/span"
)

// Rule is the info finding of a file read as a template
// (docs/templates.md).
const (
	Rule = rule.Template
	Name = rule.TemplateName
)

// Placeholder modes (--placeholders, placeholders in .ckptlint.hcl).
const (
	Detect  = "detect"  // placeholders are unknown values (the default)
	Literal = "literal" // placeholders are literal text: the files are rendered output
)

// HelmChart reports whether path lies under the templates/
// directory of a Helm chart (a directory holding Chart.yaml); it returns the
// chart directory.
// stat is os.Stat (recorded for the result cache by discovery).
func HelmChart(path string, stat func(string) (fs.FileInfo, error)) (string, bool) {
	for d := filepath.Dir(path); ; {
		if filepath.Base(d) == "templates" {
			chart := filepath.Dir(d)
			if st, err := stat(filepath.Join(chart, "Chart.yaml")); err == nil && st.Mode().IsRegular() {
				return chart, true
			}
		}
		p := filepath.Dir(d)
		if p == d {
			return "", false
		}
		d = p
	}
}

// reControl matches template control tags, which decide which settings the
// rendered file holds: Jinja/Ansible {% … %}, ERB <% … %> (not <%= … %>),
// Go template actions {{ if }} / {{ range }} / {{ with }} / {{ define }}.
var reControl = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\{%-?\s*(?:if|for|macro|block|set|include|import|raw)\b|<%-?\s*(?:if|unless|@?\w+\.each|for|end)\b|\{\{-?\s*(?:if|range|with|define|block)\b`)
})

// controlOpeners are the delimiters every reControl match starts with.
var controlOpeners = [][]byte{[]byte("{%"), []byte("<%"), []byte("{{")}

// controlTag is reControl().FindIndex(src), the regular expression run
// only from the first delimiter a control tag opens with: no match can
// start before it, and most files hold none, where the expression would
// try a match at every byte (Go's backtracker: 10% of the parse-only floor,
// docs/performance.md).
func controlTag(src []byte) []int {
	start := -1
	for _, o := range controlOpeners {
		if i := bytes.Index(src, o); i >= 0 && (start < 0 || i < start) {
			start = i
		}
	}
	if start < 0 {
		return nil
	}
	loc := reControl().FindIndex(src[start:])
	if loc == nil {
		return nil
	}
	return []int{start + loc[0], start + loc[1]}
}

// Mark records the placeholders of f (internal/placeholder): each
// entry's kinds in Entry.Placeholders and a summary in f.Template. A file
// whose structure is templated (control tags, a Helm chart's templates/
// directory, YAML or XML that does not parse until rendered) is marked
// skipped: no rule reads it. chart is the Helm chart directory when f lies
// in its templates/.
func Mark(f *parsed.File, chart string) { mark(f, chart, controlTags) }

// MarkShared is Mark for files that share one Src, the FlinkDeployments of
// one manifest (each a parsed.File of the whole manifest's bytes): the
// search for control tags runs once over those bytes, not once per
// deployment (issue 25: a manifest of 1,000 deployments was searched whole
// 1,000 times).
func MarkShared(files []*parsed.File, chart string) {
	var src []byte
	var reason string
	searched := false
	control := func(b []byte) string {
		if !searched || !sameBytes(b, src) {
			src, reason, searched = b, controlTags(b), true
		}
		return reason
	}
	for _, f := range files {
		mark(f, chart, control)
	}
}

// controlTags is the reason a file of bytes src is a template by its
// control tags, or "".
func controlTags(src []byte) string {
	loc := controlTag(src)
	if loc == nil {
		return ""
	}
	return fmt.Sprintf("template control tags (%s on line %d) decide which settings the rendered file holds",
		strings.TrimSpace(string(src[loc[0]:loc[1]])), 1+bytes.Count(src[:loc[0]], []byte("\n")))
}

// sameBytes reports whether a and b are the same bytes in memory.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// mark is Mark, with control telling the control-tag reason of a file's
// bytes.
func mark(f *parsed.File, chart string, control func([]byte) string) {
	if f == nil {
		return
	}
	count, first := placeholder.Mark(f, format.PlaceholderOptions(f.Format))
	reason := ""
	switch {
	case chart != "":
		reason = "it lies in the templates/ directory of the Helm chart " + filepath.ToSlash(chart) + ", which Helm renders before Flink reads it"
	case f.Err != nil:
		if srcCount, _ := countSource(f); srcCount.Total() > 0 {
			reason = fmt.Sprintf("it does not parse until rendered (%s)", f.Err.Msg)
		}
	default:
		reason = control(f.Src)
	}
	if reason != "" {
		c, pos := countSource(f)
		if c.Total() == 0 {
			pos = span.Top()
		}
		f.Template = &parsed.Template{Count: c, First: pos, Skipped: true, Reason: reason}
		return
	}
	if count.Total() > 0 {
		f.Template = &parsed.Template{Count: count, First: first}
	}
}

// countSource counts the placeholders on the lines of f that are not
// comments, for a file that is not read entry by entry.
func countSource(f *parsed.File) (placeholder.Count, span.Pos) {
	c := placeholder.Count{}
	var first span.Pos
	o := format.Of(f.Format).Placeholders("")
	off := 0
	for n, line := range strings.SplitAfter(string(f.Src), "\n") {
		t := strings.TrimSpace(line)
		if t != "" && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "<!--") {
			ms := placeholder.Find(line, o)
			c.Add(ms)
			if len(ms) > 0 && first.Line == 0 {
				first = span.Pos{Line: n + 1, Col: ms[0].Start + 1, Offset: off + ms[0].Start}
			}
		}
		off += len(line)
	}
	return c, first
}

// templated is an entry whose key or value holds a placeholder.
type templated struct {
	file           string
	key            string
	fromLine, line int
	loc            string
}

// templatedEntries lists the entries of s's files that hold placeholders.
func templatedEntries(s *model.Set) []templated {
	var out []templated
	for _, f := range s.Files() {
		for i := range f.Entries {
			e := &f.Entries[i]
			if len(e.Placeholders) == 0 {
				continue
			}
			file := e.File
			if file == "" {
				file = f.Path
			}
			from, to := e.KeySpan.Start.Line, max(e.ValueSpan.End.Line, e.KeySpan.End.Line)
			if from == 0 {
				from = e.ValueSpan.Start.Line
			}
			out = append(out, templated{file: file, key: e.Key, fromLine: from, line: to,
				loc: fmt.Sprintf("%s:%d", file, from)})
			if strings.HasPrefix(e.Key, "flink.hadoop.") {
				out = append(out, templated{file: file, key: strings.TrimPrefix(e.Key, "flink.hadoop."), fromLine: from, line: to,
					loc: fmt.Sprintf("%s:%d", file, from)})
			}
		}
	}
	return out
}

// reKeyChars are the characters of a configuration key.
func isKeyChar(c byte) bool {
	return c == '.' || c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// mentions reports whether msg names key as a whole key.
func mentions(msg, key string) bool {
	for i := 0; ; {
		j := strings.Index(msg[i:], key)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(key)
		before := a == 0 || !isKeyChar(msg[a-1])
		after := b == len(msg) || !isKeyChar(msg[b]) || (msg[b] == '.' && (b+1 == len(msg) || !isKeyChar(msg[b+1])))
		if before && after {
			return true
		}
		i = a + 1
	}
}

// Apply keeps findings off what placeholders make unknown: a
// finding on a templated line is dropped (the value is unknown, not wrong);
// a fix operation that would touch a templated key is dropped; a finding
// elsewhere whose message names a templated key reasons from an unknown
// value, so it becomes info, without its fix, and says so.
func Apply(s *model.Set, fs []finding.Finding) []finding.Finding {
	out, capped, _ := ApplyCapped(s, fs)
	for i := range out {
		if capped[i] && out[i].Severity > finding.Info {
			out[i].Severity = finding.Info
		}
	}
	return out
}

// ApplyCapped is Apply without the severity change: for each finding it
// keeps it reports whether Apply lowers it to info, so the result cache
// (internal/cache) can store findings before the rule blocks of .ckptlint.hcl
// set their severities; kept holds the index in fs of each finding
// returned.
func ApplyCapped(s *model.Set, fs []finding.Finding) (out []finding.Finding, capped []bool, kept []int) {
	ts := templatedEntries(s)
	if len(ts) == 0 {
		kept = make([]int, len(fs))
		for i := range kept {
			kept[i] = i
		}
		return fs, make([]bool, len(fs)), kept
	}
	out = fs[:0]
next:
	for i, f := range fs {
		for _, t := range ts {
			if f.Range.File == t.file && f.Range.Start.Line >= t.fromLine && f.Range.Start.Line <= t.line {
				continue next
			}
		}
		if len(f.Fix) > 0 {
			var ops []finding.Op
			for _, op := range f.Fix {
				if !slices.ContainsFunc(ts, func(t templated) bool { return t.key == op.Key || (op.NewKey != "" && t.key == op.NewKey) }) {
					ops = append(ops, op)
				}
			}
			f.Fix = ops
		}
		c := false
		for _, t := range ts {
			if mentions(f.Message, t.key) {
				c = true
				f.Fix = nil
				f.Message += fmt.Sprintf(" (not judged: %s at %s is an unrendered template placeholder, so its value is unknown)", t.key, t.loc)
				break
			}
		}
		out = append(out, f)
		capped = append(capped, c)
		kept = append(kept, i)
	}
	return out, capped, kept
}

// Notes returns the info finding of each file of s read as a
// template.
func Notes(s *model.Set) []finding.Finding {
	var out []finding.Finding
	for _, f := range s.Files() {
		t := f.Template
		if t == nil {
			continue
		}
		c := placeholder.Count(t.Count)
		var msg string
		if t.Skipped {
			msg = fmt.Sprintf("not linted: the file is a template, %s", t.Reason)
			if c.Total() > 0 {
				msg += fmt.Sprintf("; it holds %d placeholder(s) (%s)", c.Total(), c)
			}
			msg += ". Lint the rendered output (with --placeholders=literal), or list the file under ignore in .ckptlint.hcl"
		} else {
			msg = fmt.Sprintf("read as a template: %d placeholder(s) (%s) stand for values known only once the file is rendered; "+
				"ckptlint reports nothing about those values and fixes none of their lines. Lint the rendered output with --placeholders=literal to judge them",
				c.Total(), c)
		}
		pos := t.First
		if pos.Line == 0 {
			pos = span.Top()
		}
		out = append(out, finding.Finding{
			RuleID: Rule, RuleName: Name, Severity: finding.Info, Message: msg,
			Range: finding.Range{File: f.Path, Span: span.At(pos)}, ConfigSet: s.Name,
			DocURL: "https://github.com/ckptlint/ckptlint/blob/main/docs/templates.md",
		})
	}
	return out
}

// Skipped reports whether f is a template no rule reads.
func Skipped(f *parsed.File) bool {
	return f != nil && f.Template != nil && f.Template.Skipped
}

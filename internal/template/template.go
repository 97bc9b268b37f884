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
	"strings"
	"sync"

	"github.com/ckptlint/ckptlint/internal/parsed"
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
// Go template actions {{ if }} / {{ range }} / {{ with }} / {{ define }},
// Octopus Deploy's #{if …}, #{unless …}, #{each …}.
var reControl = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\{%-?\s*(?:if|for|macro|block|set|include|import|raw)\b|<%-?\s*(?:if|unless|@?\w+\.each|for|end)\b|\{\{-?\s*(?:if|range|with|define|block)\b|#\{(?:if|unless|each) `)
})

// controlOpeners are the delimiters every reControl match starts with.
var controlOpeners = [][]byte{[]byte("{%"), []byte("<%"), []byte("{{"), []byte("#{")}

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
	count, first := MarkEntries(f, For(f.Format))
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
			pos = parsed.Top()
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
func countSource(f *parsed.File) (Count, parsed.Pos) {
	c := Count{}
	var first parsed.Pos
	o := For(f.Format)("")
	off := 0
	for n, line := range strings.SplitAfter(string(f.Src), "\n") {
		t := strings.TrimSpace(line)
		if t != "" && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "<!--") {
			ms := Find(line, o)
			c.Add(ms)
			if len(ms) > 0 && first.Line == 0 {
				first = parsed.Pos{Line: n + 1, Col: ms[0].Start + 1, Offset: off + ms[0].Start}
			}
		}
		off += len(line)
	}
	return c, first
}

// Skipped reports whether f is a template no rule reads.
func Skipped(f *parsed.File) bool {
	return f != nil && f.Template != nil && f.Template.Skipped
}

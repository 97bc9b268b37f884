package evaluate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/internal/template"
)

// What the placeholders internal/template marked at discovery mean for a
// set's findings (docs/templates.md): the CKPT003 note of each file read
// as a template, and no judgement of an unknown value.

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

// applyTemplatesCapped keeps findings off what placeholders make unknown:
// a finding on a templated line is dropped (the value is unknown, not
// wrong); a fix operation that would touch a templated key is dropped; a
// finding elsewhere whose message names a templated key reasons from an
// unknown value, so it loses its fix, says so, and capped reports that it
// is at most info (a cap the report stage applies after the rule blocks of
// .ckptlint.hcl set severities); kept holds the index in fs of each
// finding returned.
func applyTemplatesCapped(s *model.Set, fs []finding.Finding) (out []finding.Finding, capped []bool, kept []int) {
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
			if mentions(f.Message, t.key) || mentions(f.Detail, t.key) {
				c = true
				f.Fix = nil
				f.Detail = appendDetail(f.Detail, fmt.Sprintf(" (not judged: %s at %s is an unrendered template placeholder, so its value is unknown)", t.key, t.loc))
				break
			}
		}
		out = append(out, f)
		capped = append(capped, c)
		kept = append(kept, i)
	}
	return out, capped, kept
}

// templateNotes returns the info finding of each file of s read as a
// template.
func templateNotes(s *model.Set) []finding.Finding {
	var out []finding.Finding
	for _, f := range s.Files() {
		t := f.Template
		if t == nil {
			continue
		}
		c := template.Count(t.Count)
		var msg, headline string
		if t.Skipped {
			headline = "This file is a template, so it is not linted; lint the rendered output instead."
			msg = fmt.Sprintf("not linted: the file is a template, %s", t.Reason)
			if c.Total() > 0 {
				msg += fmt.Sprintf("; it holds %d placeholder(s) (%s)", c.Total(), c)
			}
			msg += ". Lint the rendered output (with --placeholders=literal), or list the file under ignore in .ckptlint.hcl"
		} else {
			headline = fmt.Sprintf("This file is read as a template: the values of its %d placeholder(s) are neither judged nor fixed.", c.Total())
			msg = fmt.Sprintf("read as a template: %d placeholder(s) (%s) stand for values known only once the file is rendered; "+
				"ckptlint reports nothing about those values and fixes none of their lines. Lint the rendered output with --placeholders=literal to judge them",
				c.Total(), c)
		}
		pos := t.First
		if pos.Line == 0 {
			pos = parsed.Top()
		}
		out = append(out, finding.Finding{
			RuleID: rule.Template, RuleName: rule.TemplateName, Severity: finding.Info, Message: headline, Detail: msg,
			Range: finding.Range{File: f.Path, Span: parsed.At(pos)}, ConfigSet: s.Name,
			DocURL: "https://github.com/ckptlint/ckptlint/blob/main/docs/templates.md",
		})
	}
	return out
}

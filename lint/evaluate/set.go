package evaluate

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/lint/engine"
	"github.com/ckptlint/ckptlint/lint/finding"
	"github.com/ckptlint/ckptlint/lint/format"
	"github.com/ckptlint/ckptlint/lint/model"
	"github.com/ckptlint/ckptlint/lint/placeholder"
	"github.com/ckptlint/ckptlint/lint/rule"
	"github.com/ckptlint/ckptlint/lint/span"
	"github.com/ckptlint/ckptlint/lint/template"
	"github.com/ckptlint/ckptlint/lint/versions"
)

// The rules the evaluation itself reports rather than a policy, declared
// in lint/rule: ParseErrorRule is the id of the finding every unreadable
// file produces; VersionConflictRule reports version evidence that
// disagrees with the version ckptlint goes by (docs/versions.md).
const (
	ParseErrorRule      = rule.ParseError
	ParseErrorName      = rule.ParseErrorName
	VersionConflictRule = rule.VersionConflict
	VersionConflictName = rule.VersionConflictName
)

// Set evaluates the policies on one assembled config set with the
// prepared engine and applies the rule blocks of .ckptlint.hcl (rules). A
// set with an unreadable file, or with a file skipped as a template, is
// not evaluated: its findings are that file's parse error or template note.
// A panic is returned as a *PanicError. The findings are not sorted.
func Set(ctx context.Context, eng *engine.Engine, s *model.Set, rules RuleSettings) (fs []finding.Finding, err error) {
	defer func() {
		if r := recover(); r != nil {
			fs, err = nil, &PanicError{Value: r, Stack: debug.Stack()}
		}
	}()
	if os.Getenv("CKPTLINT_TEST_PANIC") == "eval" { // test hook: cmd/ckptlint/testdata/script/internal_error.txtar
		panic("test hook: panic in an evaluation worker for " + s.Name)
	}
	return evalSet(ctx, eng, s, rules)
}

func evalSet(ctx context.Context, eng *engine.Engine, s *model.Set, rules RuleSettings) ([]finding.Finding, error) {
	notes := applyRuleBlocks(rules, template.Notes(s))
	pe := parseErrors(s)
	if len(pe) > 0 || slices.ContainsFunc(s.Files(), template.Skipped) {
		return append(pe, notes...), nil
	}
	conflicts := versionConflicts(s)
	v, err := model.Input(s)
	if err != nil {
		return nil, fmt.Errorf("convert input: %w", err)
	}
	raws, err := eng.Eval(ctx, v)
	if err != nil {
		return nil, err
	}
	out := make([]finding.Finding, 0, len(raws)+len(conflicts))
	out = append(out, applyRuleBlocks(rules, conflicts)...)
	for _, r := range raws {
		sev := r.Rule.Severity
		if rc := rules.lookup(r.Rule.ID); rc != nil {
			if rc.Enabled != nil && !*rc.Enabled {
				continue
			}
			if rc.Severity != "" {
				if s, err := finding.ParseSeverity(rc.Severity); err == nil {
					sev = s
				}
			}
		}
		if r.Severity != 0 {
			sev = min(sev, r.Severity) // a rule may lower its own severity (info when a fact is missing), never raise it
		}
		f := finding.Finding{
			RuleID: r.Rule.ID, RuleName: r.Rule.Name, Severity: sev, Message: r.Message,
			Fix: r.Fix, ConfigSet: s.Name, DocURL: r.Rule.HelpURI(), VersionDependent: r.VersionDependent,
		}
		if f.VersionDependent && !s.FlinkVersion.Known() {
			f.Severity = min(f.Severity, finding.Info)
			f.Message += unknownVersionNote(f)
		}
		if loc := model.LocFromInput(r.Loc); loc != nil && loc.File != "" {
			f.Range = finding.Range{File: loc.File, Span: loc.Span}
		} else {
			f.Range = finding.Range{File: defaultFile(s), Span: span.At(span.Top())}
		}
		out = append(out, f)
	}
	return append(template.Apply(s, out), notes...), nil
}

// applyRuleBlocks applies the rule blocks of .ckptlint.hcl to findings the
// Go code reports: a disabled rule's findings are dropped, a severity is
// overridden.
func applyRuleBlocks(rules RuleSettings, fs []finding.Finding) []finding.Finding {
	out := fs[:0]
	for _, f := range fs {
		if rules.apply(&f) {
			out = append(out, f)
		}
	}
	return out
}

// parseErrors returns a finding for each unreadable file of s.
func parseErrors(s *model.Set) []finding.Finding {
	var out []finding.Finding
	for _, f := range s.Files() {
		if f.Err == nil || template.Skipped(f) {
			continue
		}
		pos := f.Err.Pos
		if pos.Line == 0 {
			pos = span.Top()
		}
		file := f.Err.File
		if file == "" {
			file = f.Path
		}
		msg := f.Err.Msg
		line := lineAt(f.Src, pos.Line)
		if placeholder.Has(line, format.Of(f.Format).Placeholders("")) && f.Template == nil {
			msg += " (this line holds an unrendered template tag: lint the rendered file, or list the template under ignore in .ckptlint.hcl)"
		}
		if strings.Contains(msg, `"--"`) && strings.Contains(strings.ToLower(line), "ckptlint:ignore") {
			msg += ` (XML comments cannot hold "--": separate the reason with a single '-', <!-- ckptlint:ignore CKPT101 - reason -->)`
		}
		out = append(out, finding.Finding{
			RuleID: ParseErrorRule, RuleName: ParseErrorName, Severity: finding.Error,
			Message:   msg,
			Range:     finding.Range{File: file, Span: span.At(pos)},
			ConfigSet: s.Name,
		})
	}
	return out
}

// versionConflicts reports each pinned version of another major.minor than
// the one ckptlint goes by, at the top of the set's Flink file, naming both
// places.
func versionConflicts(s *model.Set) []finding.Finding {
	var out []finding.Finding
	for _, pv := range []struct {
		product string
		r       model.Resolved
	}{{"Flink", s.FlinkVersion}, {"Hadoop", s.HadoopVersion}} {
		for _, c := range pv.r.Conflicts {
			lower := strings.ToLower(pv.product)
			out = append(out, finding.Finding{
				RuleID: VersionConflictRule, RuleName: VersionConflictName, Severity: finding.Info,
				Message: fmt.Sprintf("%s versions disagree: ckptlint goes by %s, but %s pins %s %s. If %s %s is what runs with this configuration, declare it with --%s-version or %s_version in .ckptlint.hcl",
					pv.product, pv.r.Text(pv.product), c.Place(), pv.product, c.Version, pv.product, c.Version, lower, lower),
				Range:     finding.Range{File: defaultFile(s), Span: span.At(span.Top())},
				ConfigSet: s.Name,
				DocURL:    "https://github.com/ckptlint/ckptlint/blob/main/docs/versions.md",
			})
		}
	}
	return out
}

// unknownVersionNote is appended to a version-dependent finding while the
// Flink version is not known: what declaring it would change.
func unknownVersionNote(f finding.Finding) string {
	note := " [info while the Flink version is not known: once it is declared, ckptlint judges this for that release"
	if slices.ContainsFunc(f.Fix, versions.NeedsVersion) {
		note += " and fix applies the edit it holds back now"
	}
	return note + "]"
}

// defaultFile is where a finding about a default value is reported: the
// Flink file, else the first file of the set.
func defaultFile(s *model.Set) string {
	if s.Flink != nil {
		return s.Flink.Path
	}
	if fs := s.Files(); len(fs) > 0 {
		return fs[0].Path
	}
	return s.Name
}

// lineAt returns 1-based line n of src, or "".
func lineAt(src []byte, n int) string {
	for i := 1; len(src) > 0; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			j = len(src) - 1
		}
		if i == n {
			return string(src[:j+1])
		}
		src = src[j+1:]
	}
	return ""
}

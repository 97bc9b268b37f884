package evaluate

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"runtime/debug"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/internal/template"
	"github.com/ckptlint/ckptlint/internal/testhook"
	"github.com/ckptlint/ckptlint/internal/versions"
)

// Pending is a finding before the rule blocks of .ckptlint.hcl are
// applied: what the result cache stores, so that changing a severity or
// turning a rule off does not invalidate it.
type Pending struct {
	finding.Finding
	// Cap is the most severe the finding may be, whatever a rule block
	// says (the rule lowered its own severity, the Flink version is not
	// known, the finding reasons from a template placeholder); 0 is none.
	Cap finding.Severity `json:"cap,omitempty"`
	// Fixed findings take no rule block (CKPT000).
	Fixed bool `json:"fixed,omitempty"`
}

// Settle applies the rule blocks (rules) to pending findings: a disabled
// rule's findings are dropped, a severity is set, then each cap applies.
func Settle(ps []Pending, rules RuleSettings) []finding.Finding {
	out := make([]finding.Finding, 0, len(ps))
	for _, p := range ps {
		f := p.Finding
		if !p.Fixed && !rules.apply(&f) {
			continue
		}
		if p.Cap != 0 {
			f.Severity = min(f.Severity, p.Cap)
		}
		out = append(out, f)
	}
	return out
}

// Raw evaluates the policies on one assembled config set with the
// prepared engine and returns its findings before the rule blocks of
// .ckptlint.hcl apply, unsorted. A set with an unreadable file, or with a
// file skipped as a template, is not evaluated: its findings are that
// file's parse error or template note. A panic is returned as a
// *PanicError.
func Raw(ctx context.Context, eng *engine.Engine, s *model.Set) (ps []Pending, err error) {
	defer func() {
		if r := recover(); r != nil {
			ps, err = nil, &PanicError{Value: r, Stack: debug.Stack()}
		}
	}()
	// Test hook (cmd/ckptlint/testdata/script/internal_error.txtar): "eval"
	// panics for every set, "eval:NAME" for the set NAME only.
	if v := testhook.Env("CKPTLINT_TEST_PANIC"); v == "eval" || v == "eval:"+s.Name {
		panic("test hook: panic in an evaluation worker for " + s.Name)
	}
	return evalSet(ctx, eng, s)
}

func pending(fs []finding.Finding, fixed bool) []Pending {
	out := make([]Pending, len(fs))
	for i, f := range fs {
		out[i] = Pending{Finding: f, Fixed: fixed}
	}
	return out
}

func evalSet(ctx context.Context, eng *engine.Engine, s *model.Set) ([]Pending, error) {
	notes := pending(templateNotes(s), false)
	pe := parseErrors(s)
	if len(pe) > 0 || slices.ContainsFunc(s.Files(), template.Skipped) {
		return append(pending(pe, true), notes...), nil
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
	caps := make([]finding.Severity, 0, len(raws)+len(conflicts))
	out = append(out, conflicts...)
	caps = append(caps, make([]finding.Severity, len(conflicts))...)
	for _, r := range raws {
		var cp finding.Severity
		if r.Severity != 0 {
			cp = r.Severity // a rule may lower its own severity (info when a fact is missing), never raise it
		}
		f := finding.Finding{
			RuleID: r.Rule.ID, RuleName: r.Rule.Name, Severity: r.Rule.Severity, Message: r.Message, Detail: r.Detail,
			Fix: r.Fix, ConfigSet: s.Name, DocURL: r.Rule.HelpURI(), VersionDependent: r.VersionDependent,
		}
		if f.VersionDependent && !s.FlinkVersion.Covered() {
			cp = lowest(cp, finding.Info)
			f.Detail = appendDetail(f.Detail, versionNote(f, s.FlinkVersion))
		}
		if loc := model.LocFromInput(r.Loc); loc != nil && loc.File != "" {
			f.Range = finding.Range{File: loc.File, Span: loc.Span}
		} else {
			f.Range = finding.Range{File: defaultFile(s), Span: parsed.At(defaultPos(s))}
		}
		out = append(out, f)
		caps = append(caps, cp)
	}
	kept, capped, idx := applyTemplatesCapped(s, out)
	ps := make([]Pending, 0, len(kept)+len(notes))
	for i, f := range kept {
		cp := caps[idx[i]]
		if capped[i] {
			cp = lowest(cp, finding.Info)
		}
		ps = append(ps, Pending{Finding: f, Cap: cp})
	}
	return append(ps, notes...), nil
}

// appendDetail adds a note (a sentence or a parenthesis that starts with a
// space) to a finding's detail.
func appendDetail(detail, note string) string {
	if detail == "" {
		return strings.TrimSpace(note)
	}
	return detail + note
}

// lowest is the lower of two caps, 0 being no cap.
func lowest(a, b finding.Severity) finding.Severity {
	if a == 0 {
		return b
	}
	return min(a, b)
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
			pos = parsed.Top()
		}
		file := f.Err.File
		if file == "" {
			file = f.Path
		}
		msg := f.Err.Msg
		line := lineAt(f.Src, pos.Line)
		if template.Has(line, template.For(f.Format)("")) && f.Template == nil {
			msg += " (this line holds an unrendered template tag: lint the rendered file, or list the template under ignore in .ckptlint.hcl)"
		}
		if strings.Contains(msg, `"--"`) && strings.Contains(strings.ToLower(line), "ckptlint:ignore") {
			msg += ` (XML comments cannot hold "--": separate the reason with a single '-', <!-- ckptlint:ignore CKPT101 - reason -->)`
		}
		if at := fmt.Sprintf("line %d", pos.Line); pos != parsed.Top() && !strings.Contains(msg, at) {
			msg = at + ": " + msg
		}
		out = append(out, finding.Finding{
			RuleID: rule.ParseError, RuleName: rule.ParseErrorName, Severity: finding.Error,
			Message:   parseHeadline(f.Err, f.Format, file),
			Detail:    msg,
			Range:     finding.Range{File: file, Span: parsed.At(pos)},
			ConfigSet: s.Name,
		})
	}
	return out
}

// parseHeadline is the headline of the CKPT000 finding on file (a display
// path), whose parse of format fm failed with e: who cannot read it and
// why, in the words of e's kind (parsed.ErrKind); e.Msg is the detail.
func parseHeadline(e *parsed.ParseError, fm parsed.Format, file string) string {
	name := finding.Short(path.Base(file))
	who := "Flink"
	if fm == parsed.HadoopCoreSite || fm == parsed.HadoopHDFSSite {
		who = "Hadoop"
	}
	if e.Unread {
		return "ckptlint cannot read " + name + ", so the run ends with exit code 2."
	}
	switch e.Kind {
	case parsed.ErrXML:
		return who + " cannot load " + name + ": it is not well-formed XML."
	case parsed.ErrYAML:
		return who + " cannot load " + name + ": it is not valid YAML."
	case parsed.ErrConfig:
		return who + " cannot load " + name + ": its YAML is not a configuration " + who + " accepts."
	case parsed.ErrInclude:
		return "An xi:include in " + name + " cannot be loaded, so its config set is not linted."
	case parsed.ErrLimit:
		return "ckptlint does not lint " + name + ": it is past the limits of what ckptlint reads."
	case parsed.ErrEncoding:
		return "ckptlint does not lint " + name + ": it is not text in an encoding ckptlint decodes."
	case parsed.ErrOutside:
		return "ckptlint does not lint " + name + ": it lies outside the repository."
	case parsed.ErrUndecided:
		return "ckptlint cannot tell that " + name + " is Flink's configuration, so it does not lint it."
	}
	return who + " refuses to load " + name + ", so ckptlint does not lint its config set."
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
			headline := func(place string) string {
				return fmt.Sprintf("%s versions disagree: ckptlint goes by %s %s, but %s pins %s %s.",
					pv.product, pv.product, pv.r.Version, place, pv.product, c.Version)
			}
			h := headline(c.Place())
			if utf8.RuneCountInString(h) > finding.MaxHeadline {
				h = headline(finding.Short(c.Place())) // a long path or instruction: the detail names it whole
			}
			out = append(out, finding.Finding{
				RuleID: rule.VersionConflict, RuleName: rule.VersionConflictName, Severity: finding.Info,
				Message: h,
				Detail: fmt.Sprintf("%s versions disagree: ckptlint goes by %s, but %s pins %s %s. If %s %s is what runs with this configuration, declare it with --%s-version or %s_version in .ckptlint.hcl",
					pv.product, pv.r.Text(pv.product), c.Place(), pv.product, c.Version, pv.product, c.Version, lower, lower),
				Range:     finding.Range{File: defaultFile(s), Span: parsed.At(parsed.Top())},
				ConfigSet: s.Name,
				DocURL:    "https://github.com/ckptlint/ckptlint/blob/main/docs/versions.md",
			})
		}
	}
	return out
}

// versionNote is appended to a version-dependent finding while the Flink
// version is not known (what declaring it would change) or is outside the
// releases the key tables cover (docs/versions.md).
func versionNote(f finding.Finding, v model.Resolved) string {
	if c := v.Coverage("Flink"); c != "" {
		note := " [info: " + c + ", so ckptlint cannot judge this for it"
		if slices.ContainsFunc(f.Fix, versions.NeedsVersion) {
			note += ", and fix holds the edit back"
		}
		return note + "]"
	}
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

// defaultPos is where a finding about no key in particular (an unset
// key) is reported: the top of the set's Flink file, or for a text
// written inside another file (FLINK_PROPERTIES, a ConfigMap key) the line
// that holds it there.
func defaultPos(s *model.Set) parsed.Pos {
	if s.Flink == nil || s.Flink.Embed == nil || s.Flink.Embed.Line <= 1 {
		return parsed.Top()
	}
	e := s.Flink.Embed
	off, line := 0, 1
	for line < e.Line {
		i := bytes.IndexByte(e.Container[off:], '\n')
		if i < 0 {
			return parsed.Top()
		}
		off += i + 1
		line++
	}
	return parsed.Pos{Line: line, Col: 1, Offset: off}
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

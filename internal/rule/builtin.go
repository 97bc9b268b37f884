package rule

import (
	"github.com/ckptlint/ckptlint/internal/buildinfo"
	"github.com/ckptlint/ckptlint/internal/finding"
)

// BuiltinFamily is the Family of the rules the Go code reports.
const BuiltinFamily = "builtin"

// The ids and names of the rules the Go code reports rather than a policy.
const (
	// ParseError is the finding every unreadable file produces (lint).
	ParseError     = "CKPT000"
	ParseErrorName = "parse-error"
	// UnusedIgnore and InvalidIgnore report ckptlint:ignore comments
	// (internal/suppress, docs/suppressions.md).
	UnusedIgnore      = "CKPT001"
	UnusedIgnoreName  = "unused-ignore"
	InvalidIgnore     = "CKPT002"
	InvalidIgnoreName = "invalid-ignore"
	// Template is the info finding of a file read as a template
	// (lint/templates.go, docs/templates.md).
	Template     = "CKPT003"
	TemplateName = "template-placeholders"
	// VersionConflict reports version evidence that disagrees with the
	// version ckptlint goes by (docs/versions.md).
	VersionConflict     = "CKPT004"
	VersionConflictName = "version-evidence-conflict"
	// FixLeftover reports a fix journal or a staged file of ckptlint fix
	// found in the work tree (lint/leftovers.go, docs/security.md).
	FixLeftover     = "CKPT005"
	FixLeftoverName = "fix-leftover"
)

// AboutIgnores reports a rule whose findings are about the ignore comments
// (CKPT001, CKPT002). They are known only once every config set is done,
// so a report gives them last (lint.Group, docs/output.md "Order").
func AboutIgnores(id string) bool { return id == UnusedIgnore || id == InvalidIgnore }

// InLastGroup reports a rule whose findings belong to no config set and
// come in the last group: the ignore problems and CKPT005, a fix leftover
// in the tree (docs/output.md "Order"; JUnit's last suite).
func InLastGroup(id string) bool { return AboutIgnores(id) || id == FixLeftover }

// builtins are declared once, here, and documented in docs/suppressions.md
// "Rules the Go code reports" (Doc). They have no policy file; a rule block
// in .ckptlint.hcl can turn them off or change their severity (CKPT000
// only its severity: internal/config).
var builtins = []*Rule{
	{ID: ParseError, Name: ParseErrorName, Severity: finding.Error, Family: BuiltinFamily,
		Title: "Flink or Hadoop cannot read this file",
		Description: "The file is one Flink or Hadoop would refuse to load (a YAML or XML syntax error; an unrendered template only with --placeholders=literal, see docs/templates.md), or one ckptlint does not read: over a size limit, outside the repository (a symlink leading out), or unreadable (then the run ends with exit code 2). " +
			"Its config set is not evaluated, so no rule judges half a configuration; other config sets are unaffected. Fix the file, or list it under ignore in .ckptlint.hcl.",
		Doc: "docs/suppressions.md#ckpt000-parse-error"},
	{ID: UnusedIgnore, Name: UnusedIgnoreName, Severity: finding.Warning, Family: BuiltinFamily,
		Title:       "A ckptlint:ignore comment matches no finding",
		Description: "An inline or file-level ignore names a rule that reports nothing on the lines it covers (or in its file): the problem was fixed, or the ignore sits on the wrong line. Remove it, or move it to the end of the finding's line or alone on the line above.",
		Related:     []string{buildinfo.DocURL("docs/suppressions.md")},
		Doc:         "docs/suppressions.md#ckpt001-unused-ignore"},
	{ID: InvalidIgnore, Name: InvalidIgnoreName, Severity: finding.Warning, Family: BuiltinFamily,
		Title:       "A ckptlint:ignore comment is malformed and silences nothing",
		Description: "The comment looks like an ignore but has no reason, names no rule or a rule that does not exist, is a file-level ignore below the first key, or is spelled otherwise than ckptlint:ignore / ckptlint:ignore-file. It silences nothing until it is fixed.",
		Related:     []string{buildinfo.DocURL("docs/suppressions.md")},
		Doc:         "docs/suppressions.md#ckpt002-invalid-ignore"},
	{ID: Template, Name: TemplateName, Severity: finding.Info, Family: BuiltinFamily,
		Title: "The file is a template: its placeholders are unknown until rendered",
		Description: "The file holds unrendered template placeholders (${VAR}, {{ .Values.x }}, {{ x }}, <%= x %>, @VAR@, %{VAR}, [PLEASE_FILL_IN], ...). " +
			"A value or key holding one is unknown: no rule reports on it and fix does not touch its line. A file whose structure is templated " +
			"(control tags, a Helm chart's templates/ directory, YAML or XML that does not parse until rendered) is not linted at all. " +
			"Lint the rendered output with --placeholders=literal (or placeholders = \"literal\" in .ckptlint.hcl) to judge the values.",
		Related: []string{"https://github.com/ckptlint/ckptlint/blob/main/docs/templates.md"},
		Doc:     "docs/suppressions.md#ckpt003-template-placeholders"},
	{ID: VersionConflict, Name: VersionConflictName, Severity: finding.Info, Family: BuiltinFamily,
		Title: "The repository pins different Flink or Hadoop versions",
		Description: "Two sources of version evidence disagree on the major.minor release: a declaration (--flink-version, .ckptlint.hcl), a FlinkDeployment's spec.flinkVersion or spec.image, an image tag (Dockerfile, docker-compose, Kubernetes, Helm values), a build file (pom.xml, Gradle) or a tarball name in a script. " +
			"ckptlint goes by the strongest (docs/versions.md) and names both places; if the other one is what runs, declare the version with --flink-version / --hadoop-version or flink_version / hadoop_version in .ckptlint.hcl.",
		Related: []string{"https://github.com/ckptlint/ckptlint/blob/main/docs/versions.md"},
		Doc:     "docs/suppressions.md#ckpt004-version-evidence-conflict"},
	{ID: FixLeftover, Name: FixLeftoverName, Severity: finding.Warning, Family: BuiltinFamily,
		Title: "A ckptlint fix journal or staged file lies in the work tree",
		Description: "A file named like the journal ckptlint fix once kept at the top of the work tree (.ckptlint-fix.journal) or like the file it stages beside a target while it writes (.NAME.ckptlint-<digits>). " +
			"fix keeps its journal in the git directory (outside git, in the user cache directory) and never reads one from the work tree, and moves a staged file into place only when that journal names it, so the file does nothing; " +
			"one a fix killed here left is finished or removed by the next fix. A pull request that adds one is suspect (issue 25: a committed journal used to make fix swap the staged file into a file the pull request never touched). Delete it.",
		Related: []string{buildinfo.DocURL("docs/security.md")},
		Doc:     "docs/suppressions.md#ckpt005-fix-leftover"},
}

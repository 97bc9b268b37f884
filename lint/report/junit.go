package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/ckptlint/ckptlint/lint/finding"
)

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut *junitText    `xml:"system-out,omitempty"`
}

// junitText is element text written with line breaks and quotes as they
// are (encoding/xml would write &#xA; and &#34;), for readable reports.
type junitText struct {
	Inner string `xml:",innerxml"`
}

func newJUnitText(s string) *junitText { return &junitText{Inner: xmlTextEscaper.Replace(validXML(s))} }

var xmlTextEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// validXML replaces the characters XML 1.0 cannot hold with U+FFFD.
func validXML(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r',
			r >= 0x20 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
			return r
		}
		return '\uFFFD'
	}, s)
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",innerxml"` // escaped by newJUnitText's rules
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// noSet names the suite of findings that belong to no config set.
const noSet = "(no config set)"

// JUnit writes a JUnit XML report: one <testsuite> per config set and one
// <testcase> per config set × loaded rule, passing ones included so that CI
// dashboards show what was checked. A test case fails when the rule has a
// finding at or above Result.FailLevel in that set (the findings that make
// the exit code 1); findings below it and suppressed findings go to the
// case's <system-out>. Rules disabled in .ckptlint.hcl are <skipped>.
func JUnit(w io.Writer, r Result) error {
	rules, _ := r.rules()
	fail := r.failLevel()
	type key struct{ set, rule string }
	found := map[key][]finding.Finding{}
	quiet := map[key][]string{}
	sets := append([]string(nil), r.ConfigSets...)
	known := map[string]bool{}
	for _, s := range sets {
		known[s] = true
	}
	addSet := func(s string) string {
		if s == "" {
			s = noSet
		}
		if !known[s] {
			known[s] = true
			sets = append(sets, s)
		}
		return s
	}
	for _, f := range r.Findings {
		k := key{addSet(f.ConfigSet), f.RuleID}
		if f.Severity >= fail {
			found[k] = append(found[k], f)
		} else {
			quiet[k] = append(quiet[k], textLine(f))
		}
	}
	for _, f := range r.Suppressed {
		k := key{addSet(f.ConfigSet), f.RuleID}
		reason := ""
		if f.Suppression != nil {
			reason = f.Suppression.Reason
		}
		quiet[k] = append(quiet[k], fmt.Sprintf("suppressed (%s): %s", reason, textLine(f)))
	}

	doc := junitSuites{Name: toolName}
	for _, s := range sets {
		suite := junitSuite{Name: s}
		if r.Version != "" {
			suite.Properties = []junitProperty{{Name: "ckptlint.version", Value: r.Version}}
		}
		for _, ru := range rules {
			k := key{s, ru.ID}
			c := junitCase{Name: strings.TrimSpace(ru.ID + " " + ru.Name), ClassName: s}
			switch fs := found[k]; {
			case len(fs) > 0:
				c.File = fs[0].Range.File
				c.Failure = junitFailureOf(fs)
				suite.Failures++
			case ru.Disabled:
				c.Skipped = &junitSkipped{Message: "disabled in .ckptlint.hcl"}
				suite.Skipped++
			}
			if q := quiet[k]; len(q) > 0 {
				c.SystemOut = newJUnitText(strings.Join(q, "\n") + "\n")
			}
			suite.Cases = append(suite.Cases, c)
		}
		suite.Tests = len(suite.Cases)
		doc.Tests += suite.Tests
		doc.Failures += suite.Failures
		doc.Skipped += suite.Skipped
		doc.Suites = append(doc.Suites, suite)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitFailureOf is the failure of one set × rule: the first finding in the
// message attribute, every finding in the body.
func junitFailureOf(fs []finding.Finding) *junitFailure {
	msg := fmt.Sprintf("%s:%d: %s", fs[0].Range.File, fs[0].Range.Start.Line, shorten(oneLine(fs[0].Message), 200))
	if len(fs) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(fs)-1)
	}
	lines := make([]string, len(fs))
	for i, f := range fs {
		lines[i] = textLine(f)
	}
	return &junitFailure{Message: validXML(msg), Type: finding.Max(fs).String(),
		Text: newJUnitText(strings.Join(lines, "\n") + "\n").Inner}
}

// textLine is the text reporter's line for f.
func textLine(f finding.Finding) string { return f.String() }

package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/internal/safetext"
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

// xmlTextEscaper escapes element text; a \r is a character reference, as
// an XML parser turns a literal one into \n (XML 1.0, 2.11).
var xmlTextEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#xD;")

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

// noSet names the suite of the last group (Group): the problems of the
// ignore comments and any finding of no config set.
const noSet = "(ignore comments)"

// JUnit writes a JUnit XML report: one <testsuite> per config set and one
// <testcase> per config set × loaded rule, passing ones included so that CI
// dashboards show what was checked. A test case fails when the rule has a
// finding at or above Result.FailLevel in that set (the findings that make
// the exit code 1); findings below it and suppressed findings go to the
// case's <system-out>. Rules disabled in .ckptlint.hcl are <skipped>. The
// rules of the ignore comments (CKPT001, CKPT002) are the cases of a last
// suite, "(ignore comments)", after every set's (docs/output.md). It
// streams (NewStreamer): the suites are spooled (Spool) until the totals
// of the root element are known.
func JUnit(w io.Writer, r Result) error { return streamed("junit", Options{})(w, r) }

// junitStreamer writes a suite per group.
type junitStreamer struct {
	head   Result
	rules  []listed
	listed map[string]bool // the ids in rules
	fail   finding.Severity
	spool  *Spool
	doc    junitSuites // the totals; Suites stays empty
	n      int         // suites written
}

func newJUnitStreamer(head Result, _ Options) Streamer {
	rules, idx := head.rules()
	listed := make(map[string]bool, len(idx))
	for id := range idx {
		listed[id] = true
	}
	return &junitStreamer{head: head, rules: rules, listed: listed, fail: head.failLevel(), spool: NewSpool(),
		doc: junitSuites{Name: toolName}}
}

func (s *junitStreamer) Group(g Group) error {
	last := g.Set == ""
	if last && s.n == 0 && len(g.Findings)+len(g.Suppressed) == 0 {
		return nil // no config set and nothing to report: no suites
	}
	type key = string // rule id
	found := map[key][]finding.Finding{}
	quiet := map[key][]string{}
	var extra []listed // rules a finding names that the run's list lacks
	note := func(f finding.Finding) {
		if !s.listed[f.RuleID] && !slices.ContainsFunc(extra, func(l listed) bool { return l.ID == f.RuleID }) {
			extra = append(extra, unlisted(f))
		}
	}
	for _, f := range g.Findings {
		note(f)
		if f.Severity >= s.fail {
			found[f.RuleID] = append(found[f.RuleID], f)
		} else {
			quiet[f.RuleID] = append(quiet[f.RuleID], textLine(f))
		}
	}
	for _, f := range g.Suppressed {
		note(f)
		reason := ""
		if f.Suppression != nil {
			reason = f.Suppression.Reason
		}
		quiet[f.RuleID] = append(quiet[f.RuleID], fmt.Sprintf("suppressed (%s): %s", reason, textLine(f)))
	}
	name := setOf(g)
	suite := junitSuite{Name: name}
	if s.head.Version != "" {
		suite.Properties = []junitProperty{{Name: "ckptlint.version", Value: s.head.Version}}
	}
	for _, ru := range append(slices.Clip(s.rules), extra...) {
		if rule.InLastGroup(ru.ID) != last && found[ru.ID] == nil && quiet[ru.ID] == nil {
			continue // a set's suite has no ignore rules (nor CKPT005), the last suite only those
		}
		c := junitCase{Name: strings.TrimSpace(ru.ID + " " + ru.Name), ClassName: name}
		switch fs := found[ru.ID]; {
		case len(fs) > 0:
			c.File = fs[0].Range.File
			c.Failure = junitFailureOf(fs)
			suite.Failures++
		case ru.Disabled:
			c.Skipped = &junitSkipped{Message: "disabled in .ckptlint.hcl"}
			suite.Skipped++
		}
		if q := quiet[ru.ID]; len(q) > 0 {
			c.SystemOut = newJUnitText(strings.Join(q, "\n") + "\n")
		}
		suite.Cases = append(suite.Cases, c)
	}
	suite.Tests = len(suite.Cases)
	s.doc.Tests += suite.Tests
	s.doc.Failures += suite.Failures
	s.doc.Skipped += suite.Skipped
	s.n++
	// The suite as the encoder writes it inside the root element: on a
	// line of its own, indented one level.
	if _, err := io.WriteString(s.spool, "\n"); err != nil {
		return err
	}
	enc := xml.NewEncoder(s.spool)
	enc.Indent("  ", "  ")
	return enc.EncodeElement(suite, xml.StartElement{Name: xml.Name{Local: "testsuite"}})
}

// Discard lets go of the spooled suites.
func (s *junitStreamer) Discard() { s.spool.Close() }

// Close writes the document to w: the root element with the totals, then
// the spooled suites.
//
// The document goes through safetext's XML guard: it parses to the same
// data, and printed to a CI log it carries no workflow command a name
// holds (the text of a failure keeps its line breaks, so a name with a
// newline would otherwise start a line of the log).
func (s *junitStreamer) Close(out io.Writer, _ Result) error {
	defer s.spool.Close()
	w := safetext.NewXMLWriter(out)
	root, err := xml.Marshal(s.doc) // <testsuites …></testsuites>: no suites in doc
	if err != nil {
		return err
	}
	end := []byte("</testsuites>")
	open := bytes.TrimSuffix(root, end)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	if _, err := w.Write(open); err != nil {
		return err
	}
	if err := s.spool.CopyTo(w); err != nil {
		return err
	}
	if s.n > 0 {
		end = append([]byte("\n"), end...)
	}
	if _, err = w.Write(append(end, '\n')); err != nil {
		return err
	}
	return w.Flush()
}

// unlisted is the entry of a rule a finding names that the run's rule
// list lacks (Result.rules).
func unlisted(f finding.Finding) listed {
	return listed{Rule: &Rule{ID: f.RuleID, Name: f.RuleName, Severity: f.Severity, Fixable: len(f.Fix) > 0,
		Title: f.RuleName}, HelpURI: f.DocURL}
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

// textLine is the text reporter's line for f with its data as it is: the
// XML encoder escapes it, and a JUnit consumer reads data, not a terminal
// (finding.Finding.Raw).
func textLine(f finding.Finding) string {
	if f.Detail == "" {
		return f.Raw()
	}
	return f.Raw() + "\n" + detailIndent + finding.Clip(f.Detail)
}

// Package finding defines what a rule reports: the Finding type, its
// severity, its location and its fix operations. It is a leaf package shared
// by the engine, the reporters and the fixer.
package finding

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/safetext"
)

// Severity orders findings: Info < Warning < Error.
type Severity int

// Severities.
const (
	Info Severity = iota + 1
	Warning
	Error
)

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "error":
		return Error, nil
	case "warning", "warn":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	}
	return "none"
}

// MarshalText renders the severity as its lowercase name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText parses a lowercase severity name.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Range is a half-open span in one file. File is slash-separated and
// relative to the working directory when possible.
type Range struct {
	File string `json:"file"`
	parsed.Span
}

// Op is one semantic fix operation, lowered to byte edits by the editors.
type Op struct {
	Op     string `json:"op"`     // set | delete | rename
	Target string `json:"target"` // flink | hdfs-client | core-client | hdfs-cluster
	Key    string `json:"key"`
	Value  string `json:"value,omitempty"`
	NewKey string `json:"new_key,omitempty"` // for rename
	// NeedsVersion marks an edit that is right only for some Flink releases
	// (a rename, a version-specific value, a quoting change): fix holds it
	// back while the Flink version is not known (docs/versions.md).
	NeedsVersion bool `json:"needs_version,omitempty"`
}

// Finding is a single rule violation at one place in one file.
type Finding struct {
	RuleID   string   `json:"rule_id"`
	RuleName string   `json:"rule_name"`
	Severity Severity `json:"severity"`
	// Message is the headline: one sentence of at most MaxHeadline
	// characters saying the fact and its consequence, the line an
	// annotation or a compact report shows.
	Message string `json:"message"`
	// Detail is the evidence behind the headline: the values and where
	// they came from, the arithmetic, the error seen in production and the
	// value that fixes it. Empty when the headline says everything.
	Detail string `json:"detail,omitempty"`
	Range  Range  `json:"range"`
	// Key is the configuration key the finding is about, if any.
	Key    string `json:"key,omitempty"`
	DocURL string `json:"doc_url,omitempty"`
	// ConfigSet names the config set the finding came from.
	ConfigSet string `json:"config_set,omitempty"`
	Fix       []Op   `json:"fix,omitempty"`
	// Edits are the exact byte replacements Fix makes, when they could be
	// computed (lint/fix Edits; SARIF fixes); nil when the fix is known
	// only as its operations. Not part of the JSON output.
	Edits []Replacement `json:"-"`
	// VersionDependent marks a finding whose truth depends on the Flink
	// version; while the version is not known it is at most info and says
	// what declaring the version changes.
	VersionDependent bool `json:"version_dependent,omitempty"`
	// Suppression is set on a finding an inline ignore silenced.
	Suppression *Suppression `json:"suppression,omitempty"`
}

// Replacement is one exact byte replacement a fix makes: the bytes of Span
// in File are replaced by Text (an empty span inserts).
type Replacement struct {
	File string
	Span parsed.Span
	Text string
}

// Suppression records why a finding is not reported.
type Suppression struct {
	Kind   string `json:"kind"` // "inline" (on or above the line) or "file" (file-level)
	Reason string `json:"reason"`
	File   string `json:"file"`
	Line   int    `json:"line"` // the line of the ignore comment
}

// MaxHeadline is the most characters (runes) of a rule's headline
// (Finding.Message): an annotation's first line, a compact report's line.
// TestHeadlines in lint holds every embedded rule's fixtures to it.
const MaxHeadline = 160

// String renders path:line:col: severity: message [id name], with
// ", fixable" inside the brackets when the finding carries a fix: the line
// of the text report, for people. The message is clipped (Clip), the path
// quoted as git quotes names and the message and tag shown with visible
// escapes (internal/safetext), so a name or value from a pull request
// cannot break the line or reach a terminal or CI runner as a command.
// Raw is the same line with the data as it is, for the machine formats.
func (f Finding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", safetext.Path(f.Range.File), f.Range.Start.Line, f.Range.Start.Col,
		f.Severity, safetext.Text(Clip(f.Message)), safetext.Text(f.Tag()))
}

// Raw is String without the sanitising: the data exactly, for a format
// whose encoder escapes it (the JUnit report's text).
func (f Finding) Raw() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", f.Range.File, f.Range.Start.Line, f.Range.Start.Col,
		f.Severity, Clip(f.Message), f.Tag())
}

// Tag is the bracketed part of the text form: "id name", plus ", fixable"
// when the finding carries a fix.
func (f Finding) Tag() string {
	if len(f.Fix) > 0 {
		return f.RuleID + " " + f.RuleName + ", fixable"
	}
	return f.RuleID + " " + f.RuleName
}

// Compare orders findings by file, position, rule id and message.
func Compare(a, b Finding) int {
	return cmp.Or(
		cmp.Compare(a.Range.File, b.Range.File),
		cmp.Compare(a.Range.Start.Line, b.Range.Start.Line),
		cmp.Compare(a.Range.Start.Col, b.Range.Start.Col),
		cmp.Compare(a.RuleID, b.RuleID),
		cmp.Compare(a.Message, b.Message),
		cmp.Compare(a.Detail, b.Detail),
		cmp.Compare(a.ConfigSet, b.ConfigSet),
	)
}

// Sort orders findings deterministically and drops exact duplicates (the
// same Hadoop file may belong to several config sets).
func Sort(fs []Finding) []Finding {
	slices.SortFunc(fs, Compare)
	return slices.CompactFunc(fs, func(a, b Finding) bool {
		return a.Range == b.Range && a.RuleID == b.RuleID && a.Message == b.Message && a.Detail == b.Detail
	})
}

// Seen remembers the findings reported so far, to drop a repeat of one
// (Group): a finding in a Hadoop file several config sets share is found
// once per set. The zero value is ready to use.
//
// It keeps a 128-bit digest of each finding (its range, rule, message and
// detail, each length-prefixed, under two random hash seeds), not the
// finding's strings: a run of many findings held every message and detail
// to its end for this alone (10,000 generated sets of five to six findings
// each, lint --no-cache: 235 MB peak RSS with the strings, 131 MB with the
// digests, /usr/bin/time -f %M). Two different findings share a digest with a
// probability of about n²/2¹²⁹ for n findings.
type Seen struct {
	m     map[[2]uint64]struct{}
	seeds [2]maphash.Seed
}

// Again reports whether f equals a finding seen before, and notes it.
func (s *Seen) Again(f Finding) bool {
	if s.m == nil {
		s.m = map[[2]uint64]struct{}{}
		s.seeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
	}
	var k [2]uint64
	for i, seed := range s.seeds {
		var h maphash.Hash
		h.SetSeed(seed)
		writeKey(&h, f)
		k[i] = h.Sum64()
	}
	if _, ok := s.m[k]; ok {
		return true
	}
	s.m[k] = struct{}{}
	return false
}

// writeKey writes what makes two findings the same (Sort's comparison) to
// h, each string after its length.
func writeKey(h *maphash.Hash, f Finding) {
	var b [8 * 9]byte
	n := 0
	for _, v := range []int{f.Range.Start.Line, f.Range.Start.Col, f.Range.Start.Offset, f.Range.End.Line, f.Range.End.Col,
		f.Range.End.Offset, len(f.Range.File), len(f.RuleID), len(f.Message)} {
		binary.LittleEndian.PutUint64(b[n:], uint64(v)) //nolint:gosec // G115: positions and lengths, hashed, never read back
		n += 8
	}
	_, _ = h.Write(b[:n])
	_, _ = h.WriteString(f.Range.File)
	_, _ = h.WriteString(f.RuleID)
	_, _ = h.WriteString(f.Message)
	_, _ = h.WriteString(f.Detail)
}

// Max returns the highest severity among fs, or 0 when fs is empty.
func Max(fs []Finding) Severity {
	var m Severity
	for _, f := range fs {
		m = max(m, f.Severity)
	}
	return m
}

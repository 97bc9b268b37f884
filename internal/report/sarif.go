package report

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// SARIF constants. The log is hand-written against the 2.1.0 schema
// rather than built with a SARIF library: see docs/output.md.
const (
	sarifSchema      = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion     = "2.1.0"
	toolName         = "ckptlint"
	toolInfoURI      = "https://github.com/ckptlint/ckptlint"
	srcRoot          = "%SRCROOT%"
	fingerprintKey   = "ckptlint/v1"
	sarifColumnsKind = "unicodeCodePoints"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	Results    []sarifResult `json:"results"`
	ColumnKind string        `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string            `json:"id"`
	Name                 string            `json:"name,omitempty"`
	ShortDescription     sarifText         `json:"shortDescription"`
	FullDescription      *sarifText        `json:"fullDescription,omitempty"`
	HelpURI              string            `json:"helpUri,omitempty"`
	DefaultConfiguration sarifRuleConfig   `json:"defaultConfiguration"`
	Properties           sarifRuleProperty `json:"properties"`
}

type sarifRuleConfig struct {
	Enabled *bool  `json:"enabled,omitempty"` // only false is written
	Level   string `json:"level"`
}

type sarifRuleProperty struct {
	Tags    []string `json:"tags"`
	Fixable bool     `json:"fixable"`
	User    bool     `json:"user,omitempty"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Fixes               []sarifFix         `json:"fixes,omitempty"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	Properties          *sarifResultProps  `json:"properties,omitempty"`
}

type sarifResultProps struct {
	ConfigSet string       `json:"configSet,omitempty"`
	Fix       []finding.Op `json:"fix,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent *sarifText  `json:"insertedContent,omitempty"`
}

type sarifSuppression struct {
	Kind          string         `json:"kind"`
	Status        string         `json:"status"`
	Justification string         `json:"justification,omitempty"`
	Location      *sarifLocation `json:"location,omitempty"`
}

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(s finding.Severity) string {
	switch s {
	case finding.Error:
		return "error"
	case finding.Warning:
		return "warning"
	}
	return "note"
}

func sarifRuleOf(ru listed) sarifRule {
	short := ru.Title
	if short == "" {
		short = ru.Name
	}
	if short == "" {
		short = ru.ID
	}
	sr := sarifRule{ID: ru.ID, Name: ru.Name, ShortDescription: sarifText{Text: short}, HelpURI: ru.HelpURI,
		DefaultConfiguration: sarifRuleConfig{Level: sarifLevel(ru.Severity)},
		Properties:           sarifRuleProperty{Tags: []string{toolName}, Fixable: ru.Fixable, User: ru.User}}
	if ru.Family != "" {
		sr.Properties.Tags = append(sr.Properties.Tags, ru.Family)
	}
	if d := foldParagraphs(ru.Description); d != "" {
		sr.FullDescription = &sarifText{Text: d}
	}
	if ru.Disabled {
		off := false
		sr.DefaultConfiguration.Enabled = &off
	}
	return sr
}

// sarifArtifactOf returns the artifact location of a display path: a
// repository-relative URI based on %SRCROOT%, or a file URI for an absolute
// path.
func (r Result) sarifArtifactOf(file string) sarifArtifact {
	p, rel := r.repoPath(file)
	if !rel {
		u := url.URL{Scheme: "file", Path: p}
		if !strings.HasPrefix(p, "/") {
			u.Path = "/" + p
		}
		return sarifArtifact{URI: u.String()}
	}
	return sarifArtifact{URI: (&url.URL{Path: p}).EscapedPath(), URIBaseID: srcRoot}
}

func (r Result) sarifLocation(cols *columns, file string, s parsed.Span) sarifLocation {
	rg := cols.region(file, s)
	return sarifLocation{PhysicalLocation: sarifPhysical{
		ArtifactLocation: r.sarifArtifactOf(file),
		Region:           &sarifRegion{StartLine: rg.startLine, StartColumn: rg.startCol, EndLine: rg.endLine, EndColumn: rg.endCol},
	}}
}

func (r Result) sarifFixOf(cols *columns, f finding.Finding, edits []finding.Replacement) sarifFix {
	fx := sarifFix{Description: sarifText{Text: capitalize(fixWords(f.Fix)) + " (ckptlint fix)."}}
	for _, e := range edits {
		rg := cols.region(e.File, e.Span)
		rep := sarifReplacement{DeletedRegion: sarifRegion{StartLine: rg.startLine, StartColumn: rg.startCol,
			EndLine: rg.endLine, EndColumn: rg.endCol}}
		if e.Text != "" {
			rep.InsertedContent = &sarifText{Text: e.Text}
		}
		n := len(fx.ArtifactChanges)
		if n > 0 && fx.ArtifactChanges[n-1].ArtifactLocation == r.sarifArtifactOf(e.File) {
			fx.ArtifactChanges[n-1].Replacements = append(fx.ArtifactChanges[n-1].Replacements, rep)
			continue
		}
		fx.ArtifactChanges = append(fx.ArtifactChanges, sarifArtifactChange{
			ArtifactLocation: r.sarifArtifactOf(e.File), Replacements: []sarifReplacement{rep}})
	}
	return fx
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// lineRef matches a "file:line" (or file:line:col) reference to a
// configuration file inside a message; fingerprints drop the line so that
// an edit above a value does not make its finding look new.
var lineRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\.(?:ya?ml|xml|hcl)):\d+(?::\d+)?`) })

// sarifMessage is a result's message: the headline as text (what GitHub
// code scanning shows as the alert's title) and, when the finding has a
// detail, the headline and the detail as Markdown (SARIF 2.1.0 §3.11.5:
// a viewer that renders Markdown shows it instead of the text).
func sarifMessage(f finding.Finding) sarifText {
	m := sarifText{Text: f.Message}
	if f.Detail != "" {
		m.Markdown = mdEscape(f.Message) + "\n\n" + mdEscape(f.Detail)
	}
	return m
}

// fingerprint is the stable identity of a finding: its rule, its file
// (repository-relative), its config set and what it is about (the key, else
// the keys its fix changes, else its message without line references).
// Line and column numbers are not part of it. The full fingerprint, which
// a result takes when its fingerprint collides with another's
// (setFingerprints), adds the message and the detail.
func fingerprint(f finding.Finding, uri string, full bool) string {
	short, long := fingerprintSums(f, uri)
	if full {
		return hex.EncodeToString(long[:])
	}
	return hex.EncodeToString(short[:])
}

// fingerprintSums are fingerprint's 16 bytes, short and full, before they
// are written in hex.
func fingerprintSums(f finding.Finding, uri string) (short, full [16]byte) {
	what := f.Key
	if what == "" && len(f.Fix) > 0 {
		var ks []string
		for _, op := range f.Fix {
			ks = append(ks, op.Op+" "+op.Target+" "+op.Key)
		}
		what = strings.Join(ks, "\n")
	}
	if what == "" {
		what = lineRef().ReplaceAllString(oneLine(f.Message), "$1")
	}
	b := make([]byte, 0, len(f.RuleID)+len(uri)+len(f.ConfigSet)+len(what)+len(f.Message)+len(f.Detail)+5)
	for i, part := range []string{f.RuleID, uri, f.ConfigSet, what} {
		if i > 0 {
			b = append(b, 0)
		}
		b = append(b, part...)
	}
	n := len(b)
	b = append(append(append(append(b, 0), f.Message...), 0), f.Detail...)
	h, hf := sha256.Sum256(b[:n]), sha256.Sum256(b)
	return [16]byte(h[:16]), [16]byte(hf[:16])
}

package suppress

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Kinds of ignore, as recorded in finding.Suppression.Kind.
const (
	KindInline = "inline" // on the line, or alone on the line above
	KindFile   = "file"   // ckptlint:ignore-file at the top of the file
)

// Ignore is one well-formed ignore comment.
type Ignore struct {
	Kind string
	// Rules are the ids and names as written, without duplicates.
	Rules  []string
	Reason string
	// Span is the comment's, markers included.
	Span parsed.Span
	// From and To are the first and last line an inline ignore covers.
	From, To int
}

// Problem is a comment that looks like an ignore but silences nothing.
type Problem struct {
	Span parsed.Span
	// Headline is the sentence a CKPT002 finding leads with; Msg, its
	// detail, says what is wrong and how the comment is written.
	Headline string
	Msg      string
}

// File holds the ignores of one file.
type File struct {
	Path     string
	Syntax   Syntax
	Ignores  []Ignore
	Problems []Problem
}

// Parse reads the ignore comments among c, the comments of one file as
// its reader found them (parsed.File Comments), written in syntax syn.
// path is recorded as is (findings name files by the same display path);
// c may be nil (a file whose reader read no comments).
func Parse(path string, c *parsed.Comments, syn Syntax) *File {
	f := &File{Path: path, Syntax: syn}
	if syn == 0 || c == nil {
		return f
	}
	var s *layout // made for the first directive
	for _, cm := range c.List {
		text := string(c.Src[cm.Text.Start.Offset:cm.Text.End.Offset])
		if syn == XML {
			text = strings.Join(strings.Fields(text), " ") // a comment may span lines
		}
		d, isDirective := parseDirective(text)
		if !isDirective {
			continue
		}
		if s == nil {
			s = newLayout(c)
		}
		sp := cm.Span
		if d.problem != "" {
			f.Problems = append(f.Problems, Problem{Span: sp, Headline: d.headline, Msg: d.problem + ": " + example(syn, d.kind, d.rules)})
			continue
		}
		ig := Ignore{Kind: d.kind, Rules: d.rules, Reason: d.reason, Span: sp}
		if d.kind == KindFile {
			if sp.Start.Offset >= c.Body {
				what := "key"
				if syn == XML {
					what = "property"
				}
				f.Problems = append(f.Problems, Problem{Span: sp,
					Headline: fmt.Sprintf("This ckptlint:ignore-file comes after the first %s, so it silences nothing.", what),
					Msg: fmt.Sprintf(
						"misplaced ckptlint:ignore-file silences nothing: it must come before the first %s (line %d); move it to the top of the file, or use ckptlint:ignore on or above the line",
						what, s.lines.Pos(c.Body).Line)})
				continue
			}
		} else {
			first, last := s.commentLines(cm)
			ig.From = first
			if s.alone(cm) {
				ig.From = s.nextCodeLine(last)
			}
			ig.To = max(ig.From, s.elems[ig.From])
		}
		f.Ignores = append(f.Ignores, ig)
	}
	return f
}

type directive struct {
	kind    string
	rules   []string
	reason  string
	problem string // set when the comment silences nothing
	// headline is problem in one sentence, for the finding's headline.
	headline string
}

var (
	// nearMiss is a comment that was meant as an ignore but is spelled
	// otherwise: "ckptlint ignore", "ckptlint-disable", "ckptlint:ignore:X".
	nearMiss = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\s*:\s*|\s*-\s*|_|\s+)(ignore|disable|nolint|skip|suppress)`)
	})
	ruleWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`) })
)

// parseDirective reads a comment's text. isDirective is false for an
// ordinary comment.
func parseDirective(text string) (d directive, isDirective bool) {
	t := strings.TrimSpace(text)
	const marker = "ckptlint"
	if len(t) < len(marker) || !strings.EqualFold(t[:len(marker)], marker) {
		return d, false
	}
	r := t[len(marker):]
	lower := strings.ToLower(r)
	word := func(w string) bool {
		return strings.HasPrefix(lower, w) && (len(r) == len(w) || unicode.IsSpace(rune(r[len(w)])))
	}
	switch {
	case word(":ignore-file"):
		d.kind, r = KindFile, r[len(":ignore-file"):]
	case word(":ignore"):
		d.kind, r = KindInline, r[len(":ignore"):]
	case nearMiss().MatchString(lower):
		d.kind = KindInline
		d.problem = fmt.Sprintf("%q is not a ckptlint ignore and silences nothing; the forms are ckptlint:ignore and ckptlint:ignore-file", truncate(t, 40))
		d.headline = "This comment looks like a ckptlint ignore but is spelled otherwise, so it silences nothing."
		return d, true
	default:
		return d, false
	}
	r = strings.TrimSpace(r)
	ids, reason, hasSep := splitReason(r)
	seen := map[string]bool{}
	var bad []string
	for p := range strings.SplitSeq(ids, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if !ruleWord().MatchString(p) {
			bad = append(bad, p)
			continue
		}
		if k := strings.ToLower(p); !seen[k] {
			seen[k] = true
			d.rules = append(d.rules, p)
		}
	}
	directiveName := "ckptlint:ignore"
	if d.kind == KindFile {
		directiveName = "ckptlint:ignore-file"
	}
	spaced := len(bad) > 0 && strings.ContainsFunc(bad[0], unicode.IsSpace)
	switch {
	case spaced && !hasSep:
		d.problem = fmt.Sprintf("%s has no reason after \"--\", so it silences nothing", directiveName)
		d.headline = "This " + directiveName + " has no reason, so it silences nothing."
	case spaced:
		d.problem = fmt.Sprintf("%s: separate rule ids with commas (%q), so it silences nothing", directiveName, truncate(bad[0], 40))
		d.headline = "This " + directiveName + " does not separate its rule ids with commas, so it silences nothing."
	case len(bad) > 0:
		d.problem = fmt.Sprintf("%s: %q is not a rule id or name, so it silences nothing", directiveName, truncate(bad[0], 40))
		d.headline = "This " + directiveName + " names something that is not a rule id or name, so it silences nothing."
	case len(d.rules) == 0:
		d.problem = fmt.Sprintf("%s names no rule, so it silences nothing", directiveName)
		d.headline = "This " + directiveName + " names no rule, so it silences nothing."
	case reason == "":
		d.problem = fmt.Sprintf("%s has no reason, so it silences nothing", directiveName)
		d.headline = "This " + directiveName + " has no reason, so it silences nothing."
	}
	if len(d.rules) == 0 && len(bad) > 0 {
		if w := strings.Fields(bad[0]); len(w) > 0 && ruleWord().MatchString(w[0]) {
			d.rules = []string{w[0]} // for the example in the message
		}
	}
	d.reason = reason
	return d, true
}

// splitReason splits "IDS -- reason" (or "IDS - reason": XML comments
// cannot hold "--") at the first separator.
func splitReason(r string) (ids, reason string, ok bool) {
	for i := 0; i < len(r); i++ {
		if r[i] != '-' {
			continue
		}
		switch {
		case strings.HasPrefix(r[i:], "--"):
			return r[:i], strings.TrimSpace(r[i+2:]), true
		case (i == 0 || isSpace(r[i-1])) && (i+1 == len(r) || isSpace(r[i+1])):
			return r[:i], strings.TrimSpace(r[i+1:]), true
		}
	}
	return r, "", false
}

// example renders the correct form of an ignore in the file's syntax.
func example(syn Syntax, kind string, rules []string) string {
	ids := "CKPT101"
	if len(rules) > 0 {
		ids = strings.Join(rules, ",")
	}
	d := "ckptlint:ignore"
	if kind == KindFile {
		d = "ckptlint:ignore-file"
	}
	if syn == XML {
		return fmt.Sprintf("write <!-- %s %s - reason --> (a single '-': XML comments cannot hold \"--\")", d, ids)
	}
	return fmt.Sprintf("write # %s %s -- reason", d, ids)
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// Mentions reports whether src contains "ckptlint" in any case: Parse
// finds no directive and no problem in a file that does not.
func Mentions(src []byte) bool { return containsFold(src, "ckptlint") }

// containsFold reports whether src contains the lower-case ASCII word w in
// any case.
func containsFold(src []byte, w string) bool {
	first := []byte{w[0], w[0] - 'a' + 'A'}
	for i := 0; i+len(w) <= len(src); {
		j := bytes.IndexAny(src[i:], string(first))
		if j < 0 || i+j+len(w) > len(src) {
			return false
		}
		if bytes.EqualFold(src[i+j:i+j+len(w)], []byte(w)) {
			return true
		}
		i += j + 1
	}
	return false
}

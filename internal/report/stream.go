package report

import (
	"bytes"
	"fmt"
	"io"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/rule"
)

// Group is one part of a streamed report: a config set's findings, or
// the last group (finding.Group).
type Group = finding.Group

// Streamer renders a report group by group: Group for each group in
// order, then Close once, which writes the report to its destination; or
// Discard, which drops it. A streamer keeps nothing of a group once it is
// rendered: what it renders goes to a Spool, a temporary file, so a
// report's memory does not grow with the number of config sets, and its
// destination (a report file, standard output) is written only when the
// run is done (docs/output.md): a file in the tree being linted appears
// neither half written nor, staged, in a directory the run lists.
//
// Close's tail is the result without its findings, with what is known
// only at the end (Sets, Files), which a format may write before the
// findings (JSON's summary).
type Streamer interface {
	Group(g Group) error
	Close(w io.Writer, tail Result) error
	Discard()
}

// streamers are the formats that stream; the others (Markdown, Code
// Climate) render the whole result at once.
var streamers = map[string]func(head Result, opts Options) Streamer{
	"text":   func(_ Result, opts Options) Streamer { return newLineStreamer(textGroup(opts)) },
	"github": func(head Result, _ Options) Streamer { return newLineStreamer(githubGroup(head)) },
	"junit":  newJUnitStreamer,
	"json":   newJSONStreamer,
	"sarif":  newSARIFStreamer,
}

// Streams reports whether the format name streams (NewStreamer).
func Streams(name string) bool { return streamers[name] != nil }

// ReadsSources reports whether the format name, one that does not stream,
// reads Result.Sources: Code Climate, for the line it fingerprints.
// Markdown reads the findings alone. (SARIF, which reads them for its code
// point columns, streams: it reads each group's Sources as it comes.)
func ReadsSources(name string) bool { return name == "codeclimate" }

// ReadsGroupSources reports whether the streamer of the format name, made
// with opts, reads Group.Sources: GitHub and SARIF for their code point
// columns, text for its snippets (opts.Snippet). JSON and JUnit read the
// findings alone. A run whose reports read no Sources need not read the files the
// findings name (lint.Options.NoSources). TestReadsGroupSources renders
// each format without them.
func ReadsGroupSources(name string, opts Options) bool {
	return name == "github" || name == "sarif" || (name == "text" && opts.Snippet)
}

// NewStreamer returns the streamer of the format name. head is the result
// without its findings, suppressed findings, config sets and sources:
// what the groups bring. Every finding is rendered with its
// message clipped (finding.Bounded), as Get's reporters do.
func NewStreamer(name string, head Result, opts Options) (Streamer, error) {
	mk := streamers[name]
	if mk == nil {
		return nil, fmt.Errorf("format %s does not stream", name)
	}
	return bounded{mk(head, opts)}, nil
}

// bounded clips each group's messages before its streamer sees them.
type bounded struct{ Streamer }

func (b bounded) Group(g Group) error {
	g.Findings, g.Suppressed = finding.Bounded(g.Findings), finding.Bounded(g.Suppressed)
	return b.Streamer.Group(g)
}

// streamed is the Reporter of a format that streams: r's groups, in
// order, through its streamer.
func streamed(name string, opts Options) Reporter {
	return func(w io.Writer, r Result) error {
		st := streamers[name](r, opts)
		for _, g := range r.Groups() {
			if err := st.Group(g); err != nil {
				st.Discard()
				return err
			}
		}
		return st.Close(w, r)
	}
}

// Groups splits r's findings and suppressed findings into the groups a
// streamed report writes: one per config set of ConfigSets, in order,
// then one per set a finding names that ConfigSets does not list, in the
// order they first appear, then the findings of no set and the ignore
// problems (rule.AboutIgnores). Each group keeps the order of r's lists and
// shares r's Sources.
func (r Result) Groups() []Group {
	idx := map[string]int{}
	var out []Group
	add := func(set string) int {
		if i, ok := idx[set]; ok {
			return i
		}
		idx[set] = len(out)
		out = append(out, Group{Set: set, Sources: r.Sources})
		return len(out) - 1
	}
	for _, s := range r.ConfigSets {
		if s != "" {
			add(s)
		}
	}
	var last Group
	for _, list := range []struct {
		fs  []finding.Finding
		get func(*Group) *[]finding.Finding
	}{
		{r.Findings, func(g *Group) *[]finding.Finding { return &g.Findings }},
		{r.Suppressed, func(g *Group) *[]finding.Finding { return &g.Suppressed }},
	} {
		for _, f := range list.fs {
			g := &last
			if f.ConfigSet != "" && !rule.AboutIgnores(f.RuleID) {
				g = &out[add(f.ConfigSet)]
			}
			*list.get(g) = append(*list.get(g), f)
		}
	}
	last.Sources = r.Sources
	return append(out, last)
}

// lineStreamer is a streamer whose groups are lines and that writes
// nothing after them (text, GitHub). Each group is rendered into a buffer
// and spooled in one write.
type lineStreamer struct {
	spool *Spool
	buf   bytes.Buffer
	group func(b *bytes.Buffer, g Group)
}

func newLineStreamer(group func(b *bytes.Buffer, g Group)) Streamer {
	return &lineStreamer{spool: NewSpool(), group: group}
}

func (s *lineStreamer) Group(g Group) error {
	s.buf.Reset()
	s.group(&s.buf, g)
	_, err := s.spool.Write(s.buf.Bytes())
	return err
}

func (s *lineStreamer) Close(w io.Writer, _ Result) error {
	defer s.spool.Close()
	return s.spool.CopyTo(w)
}

func (s *lineStreamer) Discard() { s.spool.Close() }

// setOf is the config set a JUnit suite lists a finding under: its group's
// set, noSet for the last group.
func setOf(g Group) string {
	if g.Set == "" {
		return noSet
	}
	return g.Set
}

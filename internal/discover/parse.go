package discover

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/internal/format"
	"github.com/ckptlint/ckptlint/internal/format/flinkyaml"
	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/suppress"
	"github.com/ckptlint/ckptlint/internal/template"
)

// includeRead is what reading one xi:include target gave (Found.included).
type includeRead struct {
	src  []byte
	real string // the path read
	err  error
}

// errNotRead is an xi:include target discovery did not read: its parse
// there asked for none such (unreachable: what a parse asks for is a
// function of the file's bytes).
var errNotRead = errors.New("not read during discovery")

// Parse parses f for a config set that reads it: as its format reads it,
// with more than parsed.MaxEntries keys refused, and its template
// placeholders marked (unless they are literal). A Hadoop file is read
// without CDATA sections when ignoreCDATA is set (a Hadoop release that
// drops them: internal/assemble), and its xi:include targets are the bytes
// discovery read. A file discovery refused is its parse error. Parse reads
// nothing, and every call returns a new value: each config set owns the
// files it parsed. It is safe for concurrent use.
func (d *Tree) Parse(f *Found, ignoreCDATA bool) *parsed.File {
	if f.Err != nil {
		return &parsed.File{Path: f.Disp, Err: f.Err}
	}
	fm := format.Of(f.Format)
	var o format.Options
	if fm.Product == format.Hadoop {
		o.XML = hadoopxml.Options{IgnoreCDATA: ignoreCDATA, ReadFile: func(p string) ([]byte, error) {
			r, ok := f.included[p]
			if !ok {
				return nil, errNotRead
			}
			return r.src, r.err
		}}
	}
	g := limitKeys(fm.Parse(f.Disp, f.Src, o).File, f.Disp, f.Src)
	if f.embed != nil {
		g.Embed = f.embed
		if !f.embed.Exact {
			atLine(g, f.embed)
		}
	}
	if !d.literal {
		template.Mark(g, f.Chart)
	}
	return g
}

// atLine points every span of g, a file written inside another whose
// text does not lie verbatim there, at the line it is written on.
func atLine(g *parsed.File, e *parsed.Embed) {
	lines := parsed.NewLines(e.Container)
	at := parsed.At(lines.Pos(lines.LineStart(e.Line)))
	for i := range g.Entries {
		g.Entries[i].KeySpan, g.Entries[i].ValueSpan = at, at
	}
	for i := range g.Notices {
		g.Notices[i].Span = at
	}
	if g.Err != nil {
		g.Err.Pos = at.Start
	}
}

// Bytes are the bytes findings on f show: its container's for a file
// written inside another, else its own.
func (f *Found) Bytes() []byte {
	if f.embed != nil {
		return f.embed.Container
	}
	return f.Src
}

// Embedded reports whether f is a file written inside another (AddText).
func (f *Found) Embedded() bool { return f.embed != nil }

// Ignores are the ckptlint:ignore comments of f (suppress.Parse of its
// text, as its findings' positions read it), nil when it holds none or was
// not read: parsed once, however many config sets read f (the
// FlinkDeployments of one manifest share it).
func (f *Found) Ignores() *suppress.File {
	f.once.Do(f.parseIgnores)
	return f.ignores
}

// IncludeIgnores are the ignore comments of the xi:include targets f read,
// by the path its parse names each with; parsed once.
func (f *Found) IncludeIgnores() []*suppress.File {
	f.once.Do(f.parseIgnores)
	return f.incIgnores
}

// Sum is the SHA-256 of f's bytes, in hex: computed once (the result
// cache fingerprints each set by its files).
func (f *Found) Sum() string {
	f.once.Do(f.parseIgnores)
	return f.sum
}

func (f *Found) parseIgnores() {
	h := sha256.Sum256(f.Src)
	f.sum = hex.EncodeToString(h[:])
	if f.Err != nil {
		return // not parsed: its set is its CKPT000
	}
	if syn := format.CommentsOf(f.Format); syn != 0 {
		if text := textOf(f.Disp, f.Src); suppress.Mentions(text) {
			f.ignores = suppress.Parse(f.Disp, text, syn)
		}
	}
	for _, inc := range f.Includes() {
		if inc.Err != "" {
			continue
		}
		if syn := suppress.SyntaxOfPath(inc.Path); syn != 0 {
			if text := textOf(inc.Path, inc.Src); suppress.Mentions(text) {
				f.incIgnores = append(f.incIgnores, suppress.Parse(inc.Path, text, syn))
			}
		}
	}
}

// textOf is the text of the file at display path whose bytes are b, as
// its findings' positions read it: Hadoop XML in UTF-16 or a declared
// single-byte charset decoded (hadoopxml.Text), a config.yaml in UTF-32 or
// without its byte-order mark decoded (flinkyaml.Text), any other file b.
func textOf(path string, b []byte) []byte {
	switch {
	case b == nil:
	case suppress.SyntaxOfPath(path) == suppress.XML:
		return hadoopxml.Text(b)
	case suppress.SyntaxOfPath(path) == suppress.YAML:
		return flinkyaml.Text(b)
	}
	return b
}

// Remark applies the placeholder recogniser to f, a file made from one
// Parse returned (internal/assemble substitution), as Parse marks the files it
// parses: unless placeholders are literal.
func (d *Tree) Remark(f *parsed.File) {
	if !d.literal {
		template.Mark(f, "")
	}
}

// Included returns the bytes of an xi:include target of f as discovery
// read them, by the path f's parse names it with (parsed.File Includes);
// false when it was not read.
func (f *Found) Included(path string) ([]byte, bool) {
	r, ok := f.included[path]
	if !ok || r.err != nil {
		return nil, false
	}
	return r.src, true
}

// IncludedReal returns the real paths of the xi:include targets f read,
// sorted.
func (f *Found) IncludedReal() []string {
	var out []string
	for _, r := range f.included {
		if r.err == nil && r.real != "" {
			out = append(out, r.real)
		}
	}
	slices.Sort(out)
	return out
}

// Include is one xi:include target a Hadoop file asked for, as discovery
// read it.
type Include struct {
	Path string // as the file's parse names it
	Real string // the path read ("" when it was not read)
	Src  []byte
	Err  string // why it was not read, "" when it was
}

// Includes returns the xi:include targets f's parse asked for, sorted by
// path.
func (f *Found) Includes() []Include {
	out := make([]Include, 0, len(f.included))
	for p, r := range f.included {
		inc := Include{Path: p, Real: r.real, Src: r.src}
		if r.err != nil {
			inc.Err = r.err.Error()
		}
		out = append(out, inc)
	}
	slices.SortFunc(out, func(a, b Include) int { return strings.Compare(a.Path, b.Path) })
	return out
}

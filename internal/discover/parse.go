package discover

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/internal/format"
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
	g := fm.Parse(f.Disp, f.Src, o).File
	f.keepIgnores(fm.Comments, g.Comments, g.IncludeComments)
	g = limitKeys(g, f.Disp)
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

// Ignores are the ckptlint:ignore comments of f, nil when it holds none or
// was not parsed (discovery refused it): read from the comments of its
// first parse (Parse, or discovery's for a manifest), once however many
// config sets read f (the FlinkDeployments of one manifest share it). A
// file's ignores are asked for after a parse of it.
func (f *Found) Ignores() *suppress.File { return f.ignores }

// IncludeIgnores are the ignore comments of the xi:include targets f read,
// by the path its parse names each with, sorted by it; read with Ignores.
func (f *Found) IncludeIgnores() []*suppress.File { return f.incIgnores }

// keepIgnores reads f's ignore comments, in syntax syn, from the comments
// c of a parse of f and those of the xi:include targets it read, unless a
// parse of f did before (a Hadoop file that several config sets parse).
// Only a file that mentions ckptlint can hold one.
func (f *Found) keepIgnores(syn suppress.Syntax, c *parsed.Comments, includes []*parsed.Comments) {
	f.ignOnce.Do(func() {
		if syn == 0 {
			return
		}
		if c != nil && suppress.Mentions(c.Src) {
			f.ignores = suppress.Parse(f.Disp, c, syn)
		}
		includes = slices.Clone(includes)
		slices.SortFunc(includes, func(a, b *parsed.Comments) int { return strings.Compare(a.File, b.File) })
		for _, inc := range includes {
			if suppress.Mentions(inc.Src) {
				f.incIgnores = append(f.incIgnores, suppress.Parse(inc.File, inc, syn))
			}
		}
	})
}

// Sum is the SHA-256 of f's bytes, in hex: computed once (the result
// cache fingerprints each set by its files).
func (f *Found) Sum() string {
	f.sumOnce.Do(func() {
		h := sha256.Sum256(f.Src)
		f.sum = hex.EncodeToString(h[:])
	})
	return f.sum
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

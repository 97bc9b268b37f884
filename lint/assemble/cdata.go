package assemble

import (
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/lint/format/hadoopxml"
	"github.com/ckptlint/ckptlint/lint/model"
	"github.com/ckptlint/ckptlint/lint/parsed"
)

// cdataReading re-reads the Hadoop files of a set whose declared Hadoop
// release drops CDATA sections (hadoopxml.CDATAIgnored), so that every value
// a rule sees is the one that release's Configuration.get() returns. Files
// are parsed during discovery the way current releases read them (CDATA is
// text); a version that is unknown, only a lower bound inferred from the
// files, or without the patch level on a line where the patch level decides
// (2.10, 3.1, 3.2) keeps that reading, and the xml-cdata notice says what
// declaring the exact version changes.
func (a *assembler) cdataReading(s *model.Set) {
	if !cdataIgnoredFor(s.HadoopVersion) {
		return
	}
	reread := func(f *parsed.File) *parsed.File {
		// The parse's notices, not the bytes, say whether a property holds
		// CDATA: a UTF-16 file's bytes never spell "<![CDATA[".
		if f == nil || (!slices.ContainsFunc(f.Notices, func(n parsed.Notice) bool { return n.Code == hadoopxml.NoticeCDATA }) && len(f.Includes) == 0) {
			return f
		}
		if g, ok := a.again[f]; ok {
			return a.use(g)
		}
		xo, readOther := a.d.HadoopOptionsTracked(true)
		raw := a.d.Raw(f) // not f.Src, which holds a UTF-16 file's decoded text
		g := hadoopxml.Parse(f.Path, raw, xo)
		if !readOther() {
			// Parsing it again reads nothing else (lint/discover freeParsed).
			path, src := f.Path, raw
			g.SetReload(func(*parsed.File) *parsed.File {
				return hadoopxml.Parse(path, src, hadoopxml.Options{IgnoreCDATA: true})
			})
		}
		a.again[f] = g
		return a.use(g)
	}
	for i := range s.Client {
		s.Client[i].File = reread(s.Client[i].File)
	}
	s.ClusterHDFS = reread(s.ClusterHDFS)
}

// cdataIgnoredFor reports whether the declared Hadoop version certainly
// drops CDATA sections.
func cdataIgnoredFor(r model.Resolved) bool {
	v := r.Version
	if !r.Declared() || v.IsZero() {
		return false
	}
	patchKnown := strings.Count(r.Raw, ".") >= 2
	if !patchKnown && (v.Major == 2 && v.Minor == 10 || v.Major == 3 && (v.Minor == 1 || v.Minor == 2)) {
		return false
	}
	return hadoopxml.CDATAIgnored(v.Major, v.Minor, v.Patch)
}

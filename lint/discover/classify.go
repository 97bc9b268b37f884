package discover

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/ckptlint/ckptlint/lint/format"
	"github.com/ckptlint/ckptlint/lint/format/hadoopxml"
	"github.com/ckptlint/ckptlint/lint/inputfs"
	"github.com/ckptlint/ckptlint/lint/parsed"
	"github.com/ckptlint/ckptlint/lint/span"
	"github.com/ckptlint/ckptlint/lint/template"
)

// Add reads, classifies and parses one file, unless it was read already.
// explicit is true for a file named on the command line or in
// .ckptlint.hcl (or by a Flink option assembly follows): an unknown format
// is then an error. A file that cannot be read never stops the run: a file named like
// a configuration file becomes a CKPT000 finding, anything else a note.
func (d *Tree) Add(path string, explicit bool) error {
	abs, err := inputfs.AbsFrom(d.cwd, path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	path = abs
	if _, ok := d.files[path]; ok {
		return nil
	}
	ov, inOverlay := d.overlay[path]
	base := filepath.Base(path)
	if !format.MayBe(base) && !explicit {
		return nil
	}
	src := ov
	if !inOverlay {
		if src, err = d.read(path); err != nil {
			return d.notRead(path, explicit, err)
		}
	}
	disp := d.Display(path)
	if n := bytes.Count(src, []byte{'\n'}) + 1; n > parsed.MaxLines {
		return d.refuseRead(path, explicit, fmt.Sprintf("file has %d lines; ckptlint reads configuration files up to %d lines", n, parsed.MaxLines), src)
	}
	if format.IsYAML(base) && format.ByName(base) == nil {
		// A YAML parser builds a node per item: a flow collection packs
		// millions of them on one line. Every node beyond one per line
		// needs a ',', '[' or '{'.
		n := countAny(src, ",[{")
		if depth := flowDepth(src); depth > maxFlowDepth && n <= maxFlowItems {
			// Flink flattens nested mappings into dotted keys: each level
			// repeats every key above it, so cost grows with depth squared.
			if explicit || format.Conventional(base) || format.IsManifest(src) {
				if format.IsManifest(src) {
					d.manifestRefused = path
				}
				return d.refuseRead(path, true, fmt.Sprintf("YAML flow collections ('[' or '{') nested %d levels deep; ckptlint reads up to %d", depth, maxFlowDepth), src)
			}
			return nil
		}
		if n > maxFlowItems {
			if explicit || format.Conventional(base) || format.IsManifest(src) {
				if format.IsManifest(src) {
					d.manifestRefused = path
				}
				return d.refuseRead(path, true, fmt.Sprintf("file has %d flow-collection items (',', '[' or '{'); ckptlint reads YAML files with up to %d", n, maxFlowItems), src)
			}
			return nil
		}
	}
	fm, pf, undecided := format.Detect(disp, src, d.declared[path])
	if undecided != "" {
		// A config.yaml with Flink keys among others: a finding, so the
		// lint gate notices the file it does not lint.
		return d.refuseRead(path, true, undecided, src)
	}
	if fm == nil {
		if explicit {
			return &notConfigError{path: d.Display(path)}
		}
		return nil
	}
	f := &Found{Path: path, Disp: disp, Format: fm.ID, File: pf}
	if d.lazy && pf == nil && d.deferrable(fm.ID, src) {
		// Told by its name, and its parse reads nothing else: parsed
		// when a set first holds it.
		f.File = parsed.Deferred(disp, fm.ID, src, d.parser(fm, d.chart(f), nil))
		d.keep(f)
		return nil
	}
	readOther := func() bool { return false }
	if pf == nil {
		var xo hadoopxml.Options
		xo, readOther = d.HadoopOptionsTracked(false)
		p := fm.Parse(disp, src, format.Options{XML: xo})
		f.File, f.Deps, f.Err = p.File, p.Deployments, p.Err
	}
	if f.File != nil {
		f.File = limitKeys(f.File, disp, src)
		if !sameBytes(f.File.Src, src) {
			if d.raw == nil {
				d.raw = map[*parsed.File][]byte{}
			}
			d.raw[f.File] = src
		}
	}
	if f.File != nil && len(f.Deps) == 0 && cap(f.File.Entries) > len(f.File.Entries) {
		// A parsed file can stay in memory until assembly is done: drop
		// the spare capacity append left (a third of a typical file's
		// entries; docs/performance.md). A manifest's deployments may point
		// into its entries, so those keep their array.
		f.File.Entries = slices.Clone(f.File.Entries)
	}
	chart := d.markTemplates(f, src)
	if f.Format == parsed.FlinkDeployment && (f.Err != nil || f.Template != nil) {
		d.keepBytes(f.Disp, src)
	}
	if d.lazy && !readOther() {
		d.freeParsed(f, fm, src, chart)
	}
	d.keep(f)
	return nil
}

// freeParsed lets a lazy run (Options.Lazy) free what discovery parsed of
// f and parse it again from src when a set holds it: a config.yaml (told
// by its keys), a Hadoop file whose parse read no xi:include target
// (parsing one that did would read and charge its targets again; it is
// kept), each FlinkDeployment of a manifest.
func (d *Tree) freeParsed(f *Found, fm *format.Format, src []byte, chart string) {
	if f.File != nil && len(f.Deps) == 0 {
		f.File.SetReload(d.parser(fm, chart, d.raw[f.File])) // the bytes read, when Src is not them (Raw)
		f.File.Drop()
		return
	}
	r := &manifestReload{parse: func() format.Parsed { return fm.Parse(f.Disp, src, format.Options{}) }, literal: d.literal}
	for i := range f.Deps {
		cfg := f.Deps[i].Config
		if cfg == nil {
			continue
		}
		cfg.SetReload(func(*parsed.File) *parsed.File { return r.load(i, cfg) })
		cfg.Drop()
	}
}

// manifestReload parses a manifest again for its FlinkDeployments
// (freeParsed): the first deployment loaded parses the whole file once and
// keeps the others' configurations until each is loaded in turn, so the
// sets of a file of N deployments parse it once more, not N times (issue
// 25: 1,000 documents took 54-68 s when every deployment parsed the whole
// file again). A deployment loaded a second time (two deployment blocks
// name the file) parses it again. Load runs under the Tree's holds lock.
type manifestReload struct {
	parse   func() format.Parsed
	literal bool
	left    []*parsed.File // the configurations parsed and not handed out yet, by deployment
	n       int            // how many of left are not nil
}

// load returns deployment i's configuration as discovery parsed and marked
// it; cfg is what discovery kept of it.
func (r *manifestReload) load(i int, cfg *parsed.File) *parsed.File {
	if i >= len(r.left) || r.left[i] == nil {
		deps := r.parse().Deployments
		r.left, r.n = make([]*parsed.File, len(deps)), 0
		for j := range deps {
			if g := deps[j].Config; g != nil {
				r.left[j] = g
				r.n++
			}
		}
		if !r.literal {
			template.MarkShared(r.left, "") // as markTemplates marks a manifest's deployments
		}
	}
	if i >= len(r.left) || r.left[i] == nil { // unreachable: the parse is a function of src
		return &parsed.File{Path: cfg.Path, Format: cfg.Format, Src: cfg.Src, Err: cfg.Err}
	}
	g := r.left[i]
	r.left[i] = nil
	if r.n--; r.n == 0 {
		r.left = nil
	}
	return g
}

// sameBytes reports whether a and b are the same bytes in memory.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// Raw returns the bytes read of f: its Src, unless the parser decoded
// them (a Hadoop file in UTF-16 or a single-byte charset keeps its decoded
// text in Src, where its spans point). Parsing f again must start from
// these.
func (d *Tree) Raw(f *parsed.File) []byte {
	if r, ok := d.raw[f]; ok {
		return r
	}
	return f.Src
}

// deferrable reports whether discovery may leave a file of format k with
// bytes src unparsed until a set holds it (Options.Lazy): a Flink file,
// which reads no other file, or a Hadoop file hadoopxml.ParsesAlone: in
// UTF-8, and without "include" in its text. Any other Hadoop file is
// parsed now, where its includes are read and charged to the run's budget
// in walk order, and a UTF-16 one keeps the bytes read beside its decoded
// Src (Raw); freeParsed frees it when its parse read nothing else.
func (d *Tree) deferrable(k parsed.Format, src []byte) bool {
	switch k {
	case parsed.FlinkConfLegacy, parsed.FlinkConfigYAML:
		return true
	case parsed.HadoopCoreSite, parsed.HadoopHDFSSite:
		return hadoopxml.ParsesAlone(src)
	}
	return false
}

// limitKeys replaces a parsed file of more than parsed.MaxEntries keys by
// its parse error: every key becomes a value in the policy input, so the
// cost of a set grows with its keys, not its bytes.
func limitKeys(f *parsed.File, disp string, src []byte) *parsed.File {
	if len(f.Entries) <= parsed.MaxEntries {
		return f
	}
	return &parsed.File{Path: disp, Format: f.Format, Src: src, Err: &parsed.ParseError{File: disp, Pos: span.Top(),
		Msg: fmt.Sprintf("file has %d keys; ckptlint reads configuration files of up to %d keys", len(f.Entries), parsed.MaxEntries)}}
}

// parser parses a file as discovery does, the key limit and then the
// template marks for chart (the Helm chart the file lies in), without
// reading anything else: the file's first parse read no xi:include
// target (freeParsed), or it is a Flink file. It parses the file's Path
// and Src, or raw when that is not nil (a Hadoop file whose Src holds its
// decoded text). Outside a Helm chart, one function serves every file of
// a format.
func (d *Tree) parser(fm *format.Format, chart string, raw []byte) func(*parsed.File) *parsed.File {
	if chart == "" && raw == nil {
		if fn := d.parsers[fm.ID]; fn != nil {
			return fn
		}
	}
	literal := d.literal
	fn := func(f *parsed.File) *parsed.File {
		src := f.Src
		if raw != nil {
			src = raw
		}
		g := limitKeys(fm.Parse(f.Path, src, format.Options{}).File, f.Path, src)
		if !literal {
			template.Mark(g, chart)
		}
		g.Entries = slices.Clip(g.Entries)
		return g
	}
	if chart == "" && raw == nil {
		if d.parsers == nil {
			d.parsers = map[parsed.Format]func(*parsed.File) *parsed.File{}
		}
		d.parsers[fm.ID] = fn
	}
	return fn
}

// chart is the Helm chart (display path) f lies in, "" when none or when
// placeholders are literal.
func (d *Tree) chart(f *Found) string {
	if d.literal {
		return ""
	}
	chart, _ := template.HelmChart(f.Path, d.obs.Stat)
	if chart != "" {
		chart = d.Display(chart)
	}
	return chart
}

// maxFlowItems bounds the flow-collection items of a YAML file (see add).
const maxFlowItems = 4 * parsed.MaxEntries

// maxFlowDepth bounds the nesting of YAML flow collections (see add).
const maxFlowDepth = 64

// flowDepth is the deepest nesting of '[' and '{' in src, counted on the
// bytes alone (brackets in quotes and comments count too: an over-count
// only matters past maxFlowDepth).
func flowDepth(src []byte) int {
	depth, deepest := 0, 0
	for _, c := range src {
		switch c {
		case '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return deepest
}

// countAny counts the bytes of src that are in chars.
func countAny(src []byte, chars string) int {
	n := 0
	for _, c := range []byte(chars) {
		n += bytes.Count(src, []byte{c})
	}
	return n
}

// markTemplates applies the placeholder recogniser to a parsed file
// (docs/templates.md), unless placeholders are literal, and returns the
// Helm chart (display path) the file lies in, "" when none.
func (d *Tree) markTemplates(f *Found, src []byte) (chart string) {
	if d.literal {
		return ""
	}
	chart = d.chart(f)
	if f.Format != parsed.FlinkDeployment {
		template.Mark(f.File, chart)
		return chart
	}
	whole := &parsed.File{Path: f.Disp, Format: parsed.FlinkDeployment, Src: src}
	if f.Err != nil {
		whole.Err = f.Err
	}
	if chart != "" || f.Err != nil {
		template.Mark(whole, chart)
		if template.Skipped(whole) {
			f.Template, f.Deps = whole.Template, nil
			return chart
		}
	}
	cfgs := make([]*parsed.File, len(f.Deps))
	for i := range f.Deps {
		cfgs[i] = f.Deps[i].Config
	}
	template.MarkShared(cfgs, "")
	return chart
}

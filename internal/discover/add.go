package discover

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/ckptlint/ckptlint/internal/deploy"
	"github.com/ckptlint/ckptlint/internal/deploy/scan"
	"github.com/ckptlint/ckptlint/internal/format"
	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/template"
)

// noConfig handles a file of no configuration format: a deployment file
// (by its name, or a YAML file whose content is a Kubernetes manifest) is
// kept as one; any other is an error when named explicitly.
func (d *Tree) noConfig(path, real, disp, base, kind string, src []byte, explicit bool) error {
	if kind == "" && format.IsYAML(base) {
		kind = deploy.KindByContent(src)
	}
	if kind != "" {
		d.keepSource(path, real, disp, kind, src)
		return nil
	}
	if explicit {
		return &notConfigError{path: d.Display(path)}
	}
	return nil
}

// nameAndKind are the name a file is read by and its deployment kind: a
// configuration-management template (flink-conf.yaml.j2) is read as the
// file it renders to, its placeholders unknown (docs/templates.md).
func nameAndKind(path string) (base, kind string) {
	base = filepath.Base(path)
	if t := scan.TemplateTarget(base); t != "" {
		base = t
	}
	return base, scan.KindOf(path)
}

// isSource reports whether a file of deployment kind kind, named like
// no configuration file, is read as a deployment source (addSource): a
// template is read only as the configuration file it renders to.
func isSource(kind string) bool { return kind != "" && kind != deploy.KindTemplate }

// Add reads and classifies one file, unless it was read already.
// explicit is true for a file named on the command line or in
// .ckptlint.hcl (or by a Flink option assembly follows): an unknown format
// is then an error. A file that cannot be read never stops the run: a file
// named like a configuration file becomes a CKPT000 finding, anything else
// a note. A file is parsed here only where what it is depends on it (a
// config.yaml's keys, a manifest's documents) or where its parse reads
// other files (a Hadoop file's xi:include targets, read now, in walk order,
// within the run's budget); Parse parses it for the sets that read it.
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
	base, kind := nameAndKind(path)
	if !format.MayBe(base) && !explicit {
		if isSource(kind) {
			return d.addSource(path, kind)
		}
		return nil
	}
	src, real := ov, path
	if !inOverlay {
		if src, real, err = d.read(path); err != nil {
			return d.notRead(path, explicit, err)
		}
	}
	disp := d.Display(path)
	if n := bytes.Count(src, []byte{'\n'}) + 1; n > parsed.MaxLines {
		return d.refuseRead(path, explicit, fmt.Sprintf("file has %d lines; ckptlint reads configuration files up to %d lines", n, parsed.MaxLines), parsed.ErrLimit, src)
	}
	if msg, refuse := yamlTooComplex(base, src, explicit); msg != "" {
		if !refuse {
			return nil // a YAML file that is no configuration: not read
		}
		if format.IsManifest(src) {
			d.manifestRefused = path
		}
		return d.refuseRead(path, true, msg, parsed.ErrLimit, src)
	}
	fm, _, undecided := format.Detect(filepath.ToSlash(filepath.Join(filepath.Dir(disp), base)), src, d.declared[path])
	if undecided != "" {
		// A config.yaml with Flink keys among others: a finding, so the
		// lint gate notices the file it does not lint.
		return d.refuseRead(path, true, undecided, parsed.ErrUndecided, src)
	}
	if fm == nil {
		return d.noConfig(path, real, disp, base, kind, src, explicit)
	}
	if fm.ID == parsed.FlinkDeployment {
		// A manifest's other documents (ConfigMaps, the workloads that
		// mount them) are deployment facts too.
		d.keepSource(path, real, disp, deploy.KindKube, src)
	}
	f := &Found{Path: path, Real: real, Disp: disp, Format: fm.ID, Src: src, Chart: d.chart(path)}
	switch {
	case fm.ID == parsed.FlinkDeployment:
		p := fm.Parse(disp, src, format.Options{})
		f.Deps, f.Err = p.Deployments, p.Err
		if f.Err == nil {
			f.keepIgnores(fm.Comments, p.Comments, nil) // the manifest's comments are not kept
		}
		d.markManifest(f)
	case fm.Product == format.Hadoop && !hadoopxml.ParsesAlone(src):
		// Its parse may read xi:include targets: read them now, in walk
		// order and within the run's budget, for Parse to serve again.
		f.included = map[string]includeRead{}
		fm.Parse(disp, src, format.Options{XML: hadoopxml.Options{ReadFile: func(p string) ([]byte, error) {
			b, real, err := d.readIncluded(p)
			f.included[p] = includeRead{src: b, real: real, err: err}
			return b, err
		}}})
	}
	d.keep(f)
	return nil
}

// limitKeys replaces a parsed file of more than parsed.MaxEntries keys by
// its parse error: every key becomes a value in the policy input, so the
// cost of a set grows with its keys, not its bytes. Its Src stays the
// text the parse read (a UTF-16 config.yaml's decoded text).
func limitKeys(f *parsed.File, disp string) *parsed.File {
	if len(f.Entries) <= parsed.MaxEntries {
		return f
	}
	return &parsed.File{Path: disp, Format: f.Format, Src: f.Src, Encoding: f.Encoding, Err: &parsed.ParseError{File: disp, Pos: parsed.Top(),
		Msg: fmt.Sprintf("file has %d keys; ckptlint reads configuration files of up to %d keys", len(f.Entries), parsed.MaxEntries), Kind: parsed.ErrLimit}}
}

// yamlTooComplex says why a YAML file of name base (told by its content,
// not its name) is past the limits on flow collections, "" when it is not,
// and whether that is a finding: for a file named on the command line, a
// config.yaml or a manifest; any other such YAML file is no configuration
// and is not read. A YAML parser builds a node per item: a flow collection
// packs millions of them on one line, and every node beyond one per line
// needs a ',', '[' or '{'. Flink flattens nested mappings into dotted
// keys: each level repeats every key above it, so cost grows with depth
// squared.
func yamlTooComplex(base string, src []byte, explicit bool) (msg string, refuse bool) {
	if !format.IsYAML(base) || format.ByName(base) != nil {
		return "", false
	}
	refuse = explicit || format.Conventional(base) || format.IsManifest(src)
	n := countAny(src, ",[{")
	if depth := flowDepth(src); depth > maxFlowDepth && n <= maxFlowItems {
		return fmt.Sprintf("YAML flow collections ('[' or '{') nested %d levels deep; ckptlint reads up to %d", depth, maxFlowDepth), refuse
	}
	if n > maxFlowItems {
		return fmt.Sprintf("file has %d flow-collection items (',', '[' or '{'); ckptlint reads YAML files with up to %d", n, maxFlowItems), refuse
	}
	return "", false
}

// chart is the Helm chart (display path) the file at path lies in, ""
// when none or when placeholders are literal.
func (d *Tree) chart(path string) string {
	if d.literal {
		return ""
	}
	chart, _ := template.HelmChart(path, d.fs.Stat)
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

// markManifest applies the placeholder recogniser to a manifest
// (docs/templates.md), unless placeholders are literal: the whole file
// when it lies in a Helm chart or does not parse (it is then skipped when
// mostly template), else each FlinkDeployment's configuration.
func (d *Tree) markManifest(f *Found) {
	if d.literal {
		return
	}
	whole := &parsed.File{Path: f.Disp, Format: parsed.FlinkDeployment, Src: f.Src, Err: f.Err}
	if f.Chart != "" || f.Err != nil {
		template.Mark(whole, f.Chart)
		if template.Skipped(whole) {
			f.Template, f.Deps = whole.Template, nil
			return
		}
	}
	cfgs := make([]*parsed.File, len(f.Deps))
	for i := range f.Deps {
		cfgs[i] = f.Deps[i].Config
	}
	template.MarkShared(cfgs, "") // the deployments share the manifest's bytes: one search for control tags
}

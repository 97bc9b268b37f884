package discover

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/ckptlint/ckptlint/lint/cfgfile"
	"github.com/ckptlint/ckptlint/lint/format/flinkconf"
	"github.com/ckptlint/ckptlint/lint/format/flinkyaml"
	"github.com/ckptlint/ckptlint/lint/format/hadoopxml"
	"github.com/ckptlint/ckptlint/lint/span"
	"github.com/ckptlint/ckptlint/lint/template"
)

// classify tells a file's kind from its name and, for generic YAML names,
// its content. A config.yaml is parsed to be told, and that parse is
// returned so it is not parsed again.
func (d *Tree) classify(path, disp string, src []byte) (Kind, *cfgfile.File) {
	base := filepath.Base(path)
	if k := d.classifyName(base); k != 0 {
		return k, nil
	}
	ext := filepath.Ext(base)
	if ext != ".yaml" && ext != ".yml" {
		return 0, nil
	}
	if flinkyaml.IsManifest(src) {
		return Manifest, nil
	}
	if base == "config.yaml" {
		f := flinkyaml.ParseConfig(disp, src)
		if d.declared[path] || flinkyaml.IsFlinkConfig(f) {
			return ConfigYAML, f
		}
	}
	return 0, nil
}

// Add reads, classifies and parses one file, unless it was read already.
// explicit is true for a file named on the command line or in
// .ckptlint.hcl (or by a Flink option assembly follows): an unknown kind is
// then an
// error. A file that cannot be read never stops the run: a file named like
// a configuration file becomes a CKPT000 finding, anything else a note.
func (d *Tree) Add(path string, explicit bool) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	path = abs
	if _, ok := d.files[path]; ok {
		return nil
	}
	ov, inOverlay := d.overlay[path]
	base := filepath.Base(path)
	ext := filepath.Ext(base)
	interesting := base == "core-site.xml" || base == "hdfs-site.xml" || ext == ".yaml" || ext == ".yml"
	if !interesting && !explicit {
		return nil
	}
	src := ov
	if !inOverlay {
		if src, err = d.read(path); err != nil {
			return d.notRead(path, explicit, err)
		}
	}
	disp := d.Display(path)
	if n := bytes.Count(src, []byte{'\n'}) + 1; n > cfgfile.MaxLines {
		return d.refuse(path, explicit, fmt.Sprintf("file has %d lines; ckptlint reads configuration files up to %d lines", n, cfgfile.MaxLines), false)
	}
	if (ext == ".yaml" || ext == ".yml") && !flinkconf.Detect(base) {
		// A YAML parser builds a node per item: a flow collection packs
		// millions of them on one line. Every node beyond one per line
		// needs a ',', '[' or '{'.
		n := countAny(src, ",[{")
		if depth := flowDepth(src); depth > maxFlowDepth && n <= maxFlowItems {
			// Flink flattens nested mappings into dotted keys: each level
			// repeats every key above it, so cost grows with depth squared.
			if explicit || base == "config.yaml" || flinkyaml.IsManifest(src) {
				if flinkyaml.IsManifest(src) {
					d.manifestRefused = path
				}
				return d.refuse(path, true, fmt.Sprintf("YAML flow collections ('[' or '{') nested %d levels deep; ckptlint reads up to %d", depth, maxFlowDepth), false)
			}
			return nil
		}
		if n > maxFlowItems {
			if explicit || base == "config.yaml" || flinkyaml.IsManifest(src) {
				if flinkyaml.IsManifest(src) {
					d.manifestRefused = path
				}
				return d.refuse(path, true, fmt.Sprintf("file has %d flow-collection items (',', '[' or '{'); ckptlint reads YAML files with up to %d", n, maxFlowItems), false)
			}
			return nil
		}
	}
	k, cfg := d.classify(path, disp, src)
	if k == 0 {
		if explicit {
			return &notConfigError{path: d.Display(path)}
		}
		return nil
	}
	f := &Found{Path: path, Disp: disp, Kind: k}
	switch k {
	case FlinkConf:
		f.File = flinkconf.Parse(f.Disp, src)
	case ConfigYAML:
		f.File = cfg
	case Manifest:
		f.Deps, f.Err = flinkyaml.ParseManifests(f.Disp, src)
	case CoreSite, HDFSSite:
		// The parser joins a relative href to the including file's path as
		// given (its display path, relative to the working directory).
		f.File = hadoopxml.Parse(f.Disp, src, d.HadoopOptions(false))
	}
	if f.File != nil && len(f.File.Entries) > cfgfile.MaxEntries {
		// Every key becomes a value in the policy input: the cost of a set
		// grows with its keys, not its bytes.
		f.File = &cfgfile.File{Path: f.Disp, Format: f.File.Format, Src: src, Err: &cfgfile.ParseError{File: f.Disp, Pos: span.Top,
			Msg: fmt.Sprintf("file has %d keys; ckptlint reads configuration files of up to %d keys", len(f.File.Entries), cfgfile.MaxEntries)}}
	}
	d.markTemplates(f, src)
	d.keep(f)
	return nil
}

// maxFlowItems bounds the flow-collection items of a YAML file (see add).
const maxFlowItems = 4 * cfgfile.MaxEntries

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
// (docs/templates.md), unless placeholders are literal.
func (d *Tree) markTemplates(f *Found, src []byte) {
	if d.literal {
		return
	}
	chart, _ := template.HelmChart(f.Path, d.obs.Stat)
	if chart != "" {
		chart = d.Display(chart)
	}
	if f.Kind != Manifest {
		template.Mark(f.File, chart)
		return
	}
	whole := &cfgfile.File{Path: f.Disp, Format: cfgfile.FlinkDeployment, Src: src}
	if f.Err != nil {
		whole.Err = f.Err
	}
	if chart != "" || f.Err != nil {
		template.Mark(whole, chart)
		if template.Skipped(whole) {
			f.Template, f.Deps = whole.Template, nil
			return
		}
	}
	for i := range f.Deps {
		template.Mark(f.Deps[i].Config, "")
	}
}

func (d *Tree) classifyName(base string) Kind {
	switch {
	case flinkconf.Detect(base):
		return FlinkConf
	case base == "core-site.xml":
		return CoreSite
	case base == "hdfs-site.xml":
		return HDFSSite
	}
	return 0
}

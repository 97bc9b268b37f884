// Package format is the registry of the configuration file formats
// ckptlint reads: for each, how a file is recognised (name, content), how
// it is parsed, how it is edited, how it writes comments (for
// ckptlint:ignore) and how template placeholders are told in its values.
// Discovery, fix planning, SARIF edits, ignore comments and the
// placeholder recogniser all ask this registry, so a new format is one
// entry in formats below plus its reader package beside this file
// (internal/format/flinkconf, flinkyaml, hadoopxml).
package format

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/internal/format/flinkconf"
	"github.com/ckptlint/ckptlint/internal/format/flinkyaml"
	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/suppress"
)

// Products a format configures.
const (
	Flink  = "flink"
	Hadoop = "hadoop"
)

// Format is one kind of configuration file. Its ID is what a parsed
// parsed.File records in Format.
type Format struct {
	ID parsed.Format
	// Product is Flink or Hadoop.
	Product string
	// FileName is the file's conventional name ("" when any YAML file
	// can be one, as for manifests). Named says whether that name alone
	// tells the format (flink-conf.yaml does; config.yaml also needs Flink
	// keys, unless .ckptlint.hcl declares it).
	FileName string
	Named    bool
	// Comments is the comment syntax a ckptlint:ignore is written in; the
	// parser returns the comments themselves (parsed.File Comments).
	Comments suppress.Syntax

	parse func(disp string, src []byte, o Options) Parsed
	// fileEditor edits a parsed file; nil when editing needs more than the
	// file (a manifest's deployment, Hadoop XML's document layout).
	fileEditor func(f *parsed.File) parsed.Editor
	// editor parses src and returns its editor; deployment names the
	// FlinkDeployment of a manifest.
	editor func(disp string, src []byte, deployment string) (parsed.Editor, error)
}

// Options are what parsing reads besides the bytes: Hadoop XML's
// xi:include reader and CDATA handling.
type Options struct {
	XML hadoopxml.Options
}

// Parsed is a parsed file: File for a single configuration (its comments
// in File.Comments), Deployments, Comments (and a whole-file Err) for a
// manifest.
type Parsed struct {
	File        *parsed.File
	Deployments []flinkyaml.Deployment
	Comments    *parsed.Comments
	Err         *parsed.ParseError
}

var (
	flinkConf = &Format{ID: parsed.FlinkConfLegacy, Product: Flink, FileName: flinkconf.FileName, Named: true,
		Comments: suppress.FlinkConf,
		parse: func(disp string, src []byte, _ Options) Parsed {
			return Parsed{File: flinkconf.Parse(disp, src)}
		},
		fileEditor: flinkconf.NewEditor,
		editor: func(disp string, src []byte, _ string) (parsed.Editor, error) {
			return flinkconf.NewEditor(flinkconf.Parse(disp, src)), nil
		},
	}
	configYAML = &Format{ID: parsed.FlinkConfigYAML, Product: Flink, FileName: "config.yaml",
		Comments: suppress.YAML,
		parse: func(disp string, src []byte, _ Options) Parsed {
			return Parsed{File: flinkyaml.ParseConfig(disp, src)}
		},
		fileEditor: flinkyaml.NewConfigEditor,
		editor: func(disp string, src []byte, _ string) (parsed.Editor, error) {
			f := flinkyaml.ParseConfig(disp, src)
			if f.Err != nil {
				return nil, f.Err
			}
			return flinkyaml.NewConfigEditor(f), nil
		},
	}
	deployment = &Format{ID: parsed.FlinkDeployment, Product: Flink,
		Comments: suppress.YAML,
		parse: func(disp string, src []byte, _ Options) Parsed {
			deps, comments, perr := flinkyaml.ParseManifests(disp, src)
			return Parsed{Deployments: deps, Comments: comments, Err: perr}
		},
		editor: func(disp string, src []byte, name string) (parsed.Editor, error) {
			deps, _, perr := flinkyaml.ParseManifests(disp, src)
			if perr != nil {
				return nil, perr
			}
			for i := range deps {
				if deps[i].Name == name {
					return flinkyaml.NewDeploymentEditor(&deps[i], src), nil
				}
			}
			return nil, fmt.Errorf("FlinkDeployment %q not found in %s", name, disp)
		},
	}
	coreSite = hadoopFormat(parsed.HadoopCoreSite, "core-site.xml")
	hdfsSite = hadoopFormat(parsed.HadoopHDFSSite, "hdfs-site.xml")
)

func hadoopFormat(id parsed.Format, name string) *Format {
	return &Format{ID: id, Product: Hadoop, FileName: name, Named: true, Comments: suppress.XML,
		// The parser joins a relative href to the including file's path as
		// given (its display path, relative to the working directory).
		parse: func(disp string, src []byte, o Options) Parsed {
			return Parsed{File: hadoopxml.Parse(disp, src, o.XML)}
		},
		editor: func(disp string, src []byte, _ string) (parsed.Editor, error) {
			d := hadoopxml.ParseDoc(disp, src, hadoopxml.Options{})
			if d.Err != nil {
				return nil, d.Err
			}
			return hadoopxml.NewEditor(d), nil
		},
	}
}

// formats are the formats ckptlint reads, in the order discovery tries
// them.
var formats = []*Format{flinkConf, configYAML, deployment, coreSite, hdfsSite}

// All returns the formats ckptlint reads.
func All() []*Format { return formats }

// Of returns the format with id, or nil.
func Of(id parsed.Format) *Format {
	for _, f := range formats {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// ByName returns the format a file name alone tells (flink-conf.yaml,
// core-site.xml, hdfs-site.xml), or nil. Any directory part is ignored.
func ByName(name string) *Format {
	base := baseName(name)
	for _, f := range formats {
		if f.Named && f.FileName == base {
			return f
		}
	}
	return nil
}

// FileNames are the conventional names of the formats of products (all
// when none is given), in registry order: the files read together from one
// directory.
func FileNames(products ...string) []string {
	var out []string
	for _, f := range formats {
		if f.FileName != "" && (len(products) == 0 || slices.Contains(products, f.Product)) {
			out = append(out, f.FileName)
		}
	}
	return out
}

// MayBe reports whether a file of this name can be a configuration file:
// a name ByName knows, or a YAML file (a config.yaml or a manifest, told
// by content).
func MayBe(name string) bool {
	return ByName(name) != nil || IsYAML(name)
}

// Conventional reports whether name is one of FileNames (config.yaml
// included, although its content decides).
func Conventional(name string) bool {
	base := baseName(name)
	for _, f := range formats {
		if f.FileName != "" && f.FileName == base {
			return true
		}
	}
	return false
}

// IsYAML reports whether name ends in .yaml or .yml.
func IsYAML(name string) bool {
	ext := path.Ext(baseName(name))
	return ext == ".yaml" || ext == ".yml"
}

// Detect tells a file's format from its name (disp, the path findings
// name) and, for a YAML name no format is named by, its content: a FlinkDeployment manifest, or a
// config.yaml holding Flink keys (any config.yaml when declared). The
// config.yaml parse is returned so it is not parsed again; nil, nil when
// the file is none of the formats. undecided is set, with the format nil,
// for a config.yaml that holds keys of several Flink namespaces but is not
// judged Flink's (flinkyaml.MaybeFlink): why it is not linted, for a
// CKPT000 on it.
func Detect(disp string, src []byte, declared bool) (f *Format, pf *parsed.File, undecided string) {
	if f := ByName(disp); f != nil {
		return f, nil, ""
	}
	if !IsYAML(disp) {
		return nil, nil, ""
	}
	if flinkyaml.IsManifest(src) {
		return deployment, nil, ""
	}
	if baseName(disp) == configYAML.FileName {
		f := flinkyaml.ParseConfig(disp, src)
		if declared {
			return configYAML, f, ""
		}
		switch v, why := flinkyaml.Classify(f); v {
		case flinkyaml.Flink:
			return configYAML, f, ""
		case flinkyaml.MaybeFlink:
			return nil, nil, why
		}
	}
	return nil, nil, ""
}

// IsManifest reports whether src holds a FlinkDeployment.
func IsManifest(src []byte) bool { return flinkyaml.IsManifest(src) }

// Parse reads src as this format; disp is the path findings name.
func (f *Format) Parse(disp string, src []byte, o Options) Parsed {
	return f.parse(disp, src, o)
}

// FileEditor returns the editor of a parsed file, or nil when this
// format's editor needs more than the parsed file (Editor does).
func (f *Format) FileEditor(pf *parsed.File) parsed.Editor {
	if f.fileEditor == nil {
		return nil
	}
	return f.fileEditor(pf)
}

// Editor parses src and returns its editor; deployment names the
// FlinkDeployment of a manifest to edit.
func (f *Format) Editor(disp string, src []byte, deployment string) (parsed.Editor, error) {
	return f.editor(disp, src, deployment)
}

// CommentsOf is the comment syntax of a file of format id, or 0.
func CommentsOf(id parsed.Format) suppress.Syntax {
	if f := Of(id); f != nil {
		return f.Comments
	}
	return 0
}

func baseName(name string) string { return path.Base(strings.ReplaceAll(name, `\`, "/")) }

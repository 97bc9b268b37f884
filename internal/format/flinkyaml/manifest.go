package flinkyaml

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Field is an optional scalar of a FlinkDeployment spec.
type Field struct {
	// Value is the scalar as written, without quotes.
	Value string
	// Kind is its YAML 1.2 core-schema type.
	Kind parsed.Kind
	// Span covers the value token (quotes, tag and anchor included).
	Span parsed.Span
}

// Deployment is one FlinkDeployment document (flink-kubernetes-operator
// CRD, apiVersion flink.apache.org/…) of a manifest file.
type Deployment struct {
	Name, Namespace string // metadata.name, metadata.namespace
	// Doc is the 0-based index of the YAML document in the file.
	Doc int
	// Span is where to report findings about the deployment as a whole:
	// the metadata.name value, or the kind line when there is no name.
	Span parsed.Span
	// FlinkVersion is spec.flinkVersion as written, e.g. "v1_17", and
	// FlinkVersionSpan its value token; both zero when absent.
	FlinkVersion     string
	FlinkVersionSpan parsed.Span
	// Image is spec.image (the Flink image the operator runs), nil when absent.
	Image *Field
	// Config holds the flattened entries of spec.flinkConfiguration (flat
	// keys or nested mappings, flattened like config.yaml), with Format
	// parsed.FlinkDeployment, the file's Path and Src, and Entry.Doc set.
	// It is never nil. Config.Err is set when the configuration itself is
	// unreadable (a duplicate key, a non-mapping value); the other
	// deployments of the file are unaffected. Config.Comments is nil: the
	// comments are the whole file's (ParseManifests).
	Config *parsed.File
	// ConfigSpan is the flinkConfiguration key, where an editor adds keys;
	// zero when the spec has none.
	ConfigSpan parsed.Span
	// Optional scalars; nil when absent.
	JobParallelism      *Field // spec.job.parallelism
	TaskManagerReplicas *Field // spec.taskManager.replicas
	UpgradeMode         *Field // spec.job.upgradeMode
	Mode                *Field // spec.mode (native or standalone)
	// PodTemplates are spec.podTemplate, spec.jobManager.podTemplate and
	// spec.taskManager.podTemplate, those present, in that order.
	PodTemplates []PodTemplate
	// Claims are the PersistentVolumeClaims declared in the same file.
	Claims []Claim
}

// ParseManifests reads a multi-document Kubernetes manifest and returns its
// FlinkDeployment documents in file order, and the comments of the whole
// file (the deployments' Config files have none of their own). Other
// documents are skipped. The error is set when the file is not valid YAML
// (or too large); the deployments read before the bad document are still
// returned, and the comments are nil.
//
// Values in spec.flinkConfiguration are typed with the YAML 1.2 core
// schema, as in config.yaml, and the config.yaml-only notices (null values,
// yes/no strings, env.java.home) are not recorded: Kubernetes decodes
// manifests itself before the operator sees them.
func ParseManifests(path string, src []byte) ([]Deployment, *parsed.Comments, *parsed.ParseError) {
	if perr := checkSize(path, src); perr != nil {
		return nil, nil, perr
	}
	loc := newLocator(src)
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var deps []Deployment
	var claims []Claim
	var docs []*yaml.Node
	aliased := &aliasBudget{} // one budget for every document of the file
	for doc := 0; ; doc++ {
		n := &yaml.Node{}
		if err := decodeNext(dec, n); err != nil {
			for i := range deps {
				deps[i].Claims = claims
			}
			if errors.Is(err, io.EOF) {
				return deps, loc.comments(path, docs), nil
			}
			return deps, nil, yamlError(path, loc, err)
		}
		docs = append(docs, n)
		if d, ok := readDeployment(path, src, loc, docRoot(n), doc, aliased); ok {
			deps = append(deps, d)
		} else if c, ok := readClaim(docRoot(n)); ok {
			claims = append(claims, c)
		}
	}
}

// readDeployment reads one document; ok is false when it is not a
// FlinkDeployment.
func readDeployment(path string, src []byte, loc *locator, root *yaml.Node, doc int, aliased *aliasBudget) (Deployment, bool) {
	kindK, kindV := lookup(root, "kind")
	_, api := lookup(root, "apiVersion")
	if scalarText(kindV) != "FlinkDeployment" || !strings.HasPrefix(scalarText(api), "flink.apache.org/") {
		return Deployment{}, false
	}
	cfg := &parsed.File{Path: path, Format: parsed.FlinkDeployment, Src: src}
	fl := newFlattener(loc, cfg, doc, false, aliased)
	d := Deployment{Doc: doc, Config: cfg}

	_, meta := lookup(root, "metadata")
	if name := fl.field(lookup(meta, "name")); name != nil {
		d.Name, d.Span = name.Value, name.Span
	}
	if _, ns := lookup(meta, "namespace"); ns != nil {
		d.Namespace = scalarText(ns)
	}
	if d.Span.IsZero() {
		d.Span = loc.span(loc.nodeRange(kindK, -1).start, loc.nodeRange(kindV, kindK.Column-1).end)
	}

	_, spec := lookup(root, "spec")
	if fv := fl.field(lookup(spec, "flinkVersion")); fv != nil {
		d.FlinkVersion, d.FlinkVersionSpan = fv.Value, fv.Span
	}
	d.Mode = fl.field(lookup(spec, "mode"))
	d.Image = fl.field(lookup(spec, "image"))
	_, job := lookup(spec, "job")
	d.JobParallelism = fl.field(lookup(job, "parallelism"))
	d.UpgradeMode = fl.field(lookup(job, "upgradeMode"))
	_, tm := lookup(spec, "taskManager")
	d.TaskManagerReplicas = fl.field(lookup(tm, "replicas"))
	d.PodTemplates = fl.readPodTemplates(spec)

	ck, cv := lookup(spec, "flinkConfiguration")
	if ck == nil {
		return d, true
	}
	kr := loc.nodeRange(ck, -1)
	d.ConfigSpan = loc.span(kr.start, kr.end)
	switch t := aliasTarget(cv); {
	case t.Kind == yaml.MappingNode:
		cfg.Err = fl.mapping(t, "", 0)
	case t.Kind == yaml.ScalarNode && t.Style&quotedStyles == 0 && resolvePlain(t.Value).kind == parsed.KindNull:
		// "flinkConfiguration:" with nothing under it
	default:
		cfg.Err = fl.failNode(cv, "spec.flinkConfiguration must be a mapping of Flink keys to values, found a %s", kindName(t))
	}
	return d, true
}

// lookup returns the last pair of mapping m whose key is the string key.
// An alias value is returned as written; nil when absent.
func lookup(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m == nil {
		return nil, nil
	}
	m = aliasTarget(m)
	if m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if kn := aliasTarget(m.Content[i]); kn.Kind == yaml.ScalarNode && kn.Value == key {
			k, v = m.Content[i], m.Content[i+1]
		}
	}
	return k, v
}

// scalarText returns the value of a scalar (through an alias), or "".
func scalarText(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	if t := aliasTarget(n); t.Kind == yaml.ScalarNode {
		return t.Value
	}
	return ""
}

// field returns the scalar value v of key k as a Field, or nil when v is
// absent or not a scalar.
func (f *flattener) field(k, v *yaml.Node) *Field {
	if k == nil || v == nil {
		return nil
	}
	t := aliasTarget(v)
	if t.Kind != yaml.ScalarNode {
		return nil
	}
	r := f.loc.nodeRange(v, k.Column-1)
	kind := parsed.KindString
	if tv, err := resolveScalar(t, r.nonSpecific); err == nil {
		kind = tv.kind
	}
	return &Field{Value: t.Value, Kind: kind, Span: f.loc.span(r.start, r.end)}
}

// manifestKind finds a "kind: FlinkDeployment" line.
var manifestKind = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*kind[ \t]*:[ \t]*["']?FlinkDeployment["']?[ \t]*(?:#.*)?\r?$`)
})

// IsManifest reports whether src contains a "kind: FlinkDeployment" line.
// It is a quick check; ParseManifests decides. The regular expression
// runs only on a file holding its literal: it ran over every YAML file
// discovery classified, 3% of a cold run on a tree of config.yaml files
// (docs/performance.md).
func IsManifest(src []byte) bool {
	return bytes.Contains(src, flinkDeploymentKind) && manifestKind().Match(src)
}

var flinkDeploymentKind = []byte("FlinkDeployment")

package render

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/ignore"
)

// Chart is a Helm chart of the repository to render as `helm template`
// does.
type Chart struct {
	// Dir is the display path of the chart's directory (the one holding
	// Chart.yaml).
	Dir string
	// Files are the display paths of every file under Dir (discovery lists
	// them; Read reads them), subcharts in charts/ included.
	Files []string
	// Values are the display paths of `--values` files, applied in order
	// over the chart's values.yaml.
	Values []string
	// Release and Namespace are .Release.Name and .Release.Namespace
	// ("release-name" and "default" when empty, as `helm template`).
	Release, Namespace string
}

// Helm renders a chart: its files and the values files read through read,
// loaded with Helm's loader.LoadFiles (so .helmignore, subcharts in
// charts/, values.yaml are Helm's own), dependencies enabled by
// conditions and tags as Helm processes them, and every template rendered
// by Helm's engine without a cluster. It runs in a child process bounded
// by lim (ServeChild).
func Helm(c Chart, read Read, lim Limits) (*Output, error) {
	what := "helm chart " + c.Dir
	req := request{Kind: "helm", What: what, Dir: c.Dir, Values: c.Values, Release: c.Release, Namespace: c.Namespace, Limits: lim, Files: map[string][]byte{}}
	total := 0
	for _, f := range append(append([]string(nil), c.Files...), c.Values...) {
		if _, ok := req.Files[f]; ok {
			continue
		}
		if len(req.Files) >= lim.Files {
			return nil, &Error{What: what, Err: fmt.Sprintf("the chart has more than %d files", lim.Files)}
		}
		b, err := read(f)
		if err != nil {
			return nil, &Error{What: what, Err: fmt.Sprintf("%s: %v", f, err)}
		}
		if total += len(b); total > lim.Bytes {
			return nil, &Error{What: what, Err: fmt.Sprintf("its files hold more than %d bytes", lim.Bytes)}
		}
		req.Files[f] = b
	}
	return isolate(req)
}

// renderHelm is Helm's part of a request, in the child.
func renderHelm(req request) (*Output, error) {
	out := &Output{What: req.What, Source: "helm", Files: req.Files}
	prefix := strings.TrimSuffix(req.Dir, "/") + "/"
	if req.Dir == "" || req.Dir == "." {
		prefix = ""
	}
	chrt, err := loadChart(req, prefix)
	if err != nil {
		return nil, err
	}
	vals := map[string]any{}
	for _, v := range req.Values {
		more, err := chartutil.ReadValues(req.Files[v])
		if err != nil {
			return nil, &Error{What: req.What, Err: fmt.Sprintf("values file %s: %v", v, err)}
		}
		vals = mergeMaps(vals, more)
	}
	if err := chartutil.ProcessDependenciesWithMerge(chrt, vals); err != nil {
		return nil, &Error{What: req.What, Err: err.Error()}
	}
	out.Notes = append(out.Notes, missingDependencies(chrt, req.Dir)...)
	if chrt.Schema != nil {
		out.Notes = append(out.Notes, fmt.Sprintf("%svalues.schema.json: not checked (its $refs may name URLs and files outside the repository)", prefix))
	}
	release, ns := req.Release, req.Namespace
	if release == "" {
		release = "release-name"
	}
	if ns == "" {
		ns = "default"
	}
	top, err := chartutil.ToRenderValuesWithSchemaValidation(chrt, vals,
		chartutil.ReleaseOptions{Name: release, Namespace: ns, Revision: 1, IsInstall: true}, chartutil.DefaultCapabilities, true)
	if err != nil {
		return nil, &Error{What: req.What, Err: err.Error()}
	}
	// No rest config: `lookup` is the engine's placeholder returning an
	// empty map, and EnableDNS is off (engine.Engine).
	rendered, err := engine.Engine{}.Render(chrt, top)
	if err != nil {
		return nil, &Error{What: req.What, Err: err.Error()}
	}
	size := 0
	for name, r := range rendered {
		if size += len(r); size > req.Limits.Output && !strings.HasSuffix(name, "NOTES.txt") {
			return nil, &Error{What: req.What, Err: fmt.Sprintf("the rendered output is over %d bytes", req.Limits.Output)}
		}
	}
	for _, name := range sortedKeys(rendered) {
		if strings.HasSuffix(name, "NOTES.txt") {
			continue
		}
		src := prefix + strings.TrimPrefix(name, chrt.Name()+"/")
		for _, d := range splitDocs(rendered[name]) {
			out.Docs = append(out.Docs, Doc{Source: src, Text: []byte(d)})
		}
	}
	return out, nil
}

// loadChart loads the chart's files under prefix as `helm template` does:
// .helmignore's rules and Helm's defaults applied, then loader.LoadFiles
// (Chart.yaml, values.yaml, templates, subcharts in charts/).
func loadChart(req request, prefix string) (*chart.Chart, error) {
	rules := ignore.Empty()
	if b, ok := req.Files[prefix+ignore.HelmIgnore]; ok {
		r, err := ignore.Parse(bytes.NewReader(b))
		if err != nil {
			return nil, &Error{What: req.What, Err: fmt.Sprintf("%s%s: %v", prefix, ignore.HelmIgnore, err)}
		}
		rules = r
	}
	rules.AddDefaults()
	var files []*loader.BufferedFile
	for _, name := range sortedKeys(req.Files) {
		if !strings.HasPrefix(name, prefix) { // a --values file outside the chart
			continue
		}
		rel := strings.TrimPrefix(name, prefix)
		if rules.Ignore(rel, fileInfo(rel)) {
			continue
		}
		files = append(files, &loader.BufferedFile{Name: rel, Data: req.Files[name]})
	}
	chrt, err := loader.LoadFiles(files)
	if err != nil {
		return nil, &Error{What: req.What, Err: err.Error()}
	}
	return chrt, nil
}

// missingDependencies names the dependencies of Chart.yaml that charts/
// does not hold: `helm template` refuses them until `helm dependency
// build` fetched them; ckptlint fetches nothing and renders without them.
func missingDependencies(c *chart.Chart, dir string) []string {
	var notes []string
	have := map[string]bool{}
	for _, d := range c.Dependencies() {
		have[d.Name()] = true
	}
	for _, d := range c.Metadata.Dependencies {
		if !have[d.Name] {
			notes = append(notes, fmt.Sprintf("%s/Chart.yaml: dependency %s (%s) is not in charts/: not fetched, rendered without it", dir, d.Name, d.Repository))
		}
	}
	return notes
}

// mergeMaps merges values files as `helm template --values` does
// (pkg/cli/values mergeMaps): b's keys over a's, mappings merged.
func mergeMaps(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		if v, ok := v.(map[string]any); ok {
			if bv, ok := out[k].(map[string]any); ok {
				out[k] = mergeMaps(bv, v)
				continue
			}
		}
		out[k] = v
	}
	return out
}

// fileInfo is what .helmignore rules look at: a regular file's name.
type fileInfo string

func (f fileInfo) Name() string     { return path.Base(string(f)) }
func (fileInfo) Size() int64        { return 0 }
func (fileInfo) Mode() fs.FileMode  { return 0o644 }
func (fileInfo) ModTime() time.Time { return time.Time{} }
func (fileInfo) IsDir() bool        { return false }
func (fileInfo) Sys() any           { return nil }

// docSeparator is a YAML document marker line.
var docSeparator = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^---[ \t]*(?:#.*)?\r?$`) })

// splitDocs splits rendered YAML into its non-empty documents.
func splitDocs(s string) []string {
	var out []string
	for _, d := range docSeparator().Split(s, -1) {
		if !onlyComments(d) {
			out = append(out, strings.TrimLeft(d, "\r\n"))
		}
	}
	return out
}

// onlyComments tells a document of blank and comment lines only (Helm's
// "# Source:" header of a template that rendered nothing).
func onlyComments(d string) bool {
	for l := range strings.Lines(d) {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			return false
		}
	}
	return true
}

// sourceLine is the comment `helm template` writes before each document.
var sourceLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^# Source: (.+?)\r?$`) })

// SplitHelmOutput splits the output of `helm template` (read from
// standard input) into its documents, each with the name of its `#
// Source:` comment ("chart/templates/x.yaml"); a document without one has
// Source "". ok is false when no document has one: the input is not Helm's
// output.
func SplitHelmOutput(src []byte) (docs []Doc, ok bool) {
	for _, d := range splitDocs(string(src)) {
		doc := Doc{Text: []byte(d)}
		if m := sourceLine().FindStringSubmatch(d); m != nil {
			doc.Source, ok = m[1], true
		}
		docs = append(docs, doc)
	}
	return docs, ok
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

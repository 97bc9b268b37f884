package renderer

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"time"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/ignore"

	"github.com/ckptlint/ckptlint/internal/deploy/render"
)

// renderHelm is Helm's part of a request, in the child.
func renderHelm(req render.Request) (*render.Output, error) {
	out := &render.Output{What: req.What, Source: "helm", Files: req.Files}
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
			return nil, &render.Error{What: req.What, Err: fmt.Sprintf("values file %s: %v", v, err)}
		}
		vals = mergeMaps(vals, more)
	}
	if err := chartutil.ProcessDependenciesWithMerge(chrt, vals); err != nil {
		return nil, &render.Error{What: req.What, Err: err.Error()}
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
		return nil, &render.Error{What: req.What, Err: err.Error()}
	}
	// No rest config: `lookup` is the engine's placeholder returning an
	// empty map, and EnableDNS is off (engine.Engine).
	rendered, err := engine.Engine{}.Render(chrt, top)
	if err != nil {
		return nil, &render.Error{What: req.What, Err: err.Error()}
	}
	size := 0
	for name, r := range rendered {
		if size += len(r); size > req.Limits.Output && !strings.HasSuffix(name, "NOTES.txt") {
			return nil, &render.Error{What: req.What, Err: fmt.Sprintf("the rendered output is over %d bytes", req.Limits.Output)}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(rendered)) {
		if strings.HasSuffix(name, "NOTES.txt") {
			continue
		}
		src := prefix + strings.TrimPrefix(name, chrt.Name()+"/")
		for _, d := range render.SplitDocs(rendered[name]) {
			out.Docs = append(out.Docs, render.Doc{Source: src, Text: []byte(d)})
		}
	}
	return out, nil
}

// loadChart loads the chart's files under prefix as `helm template` does:
// .helmignore's rules and Helm's defaults applied, then loader.LoadFiles
// (Chart.yaml, values.yaml, templates, subcharts in charts/).
func loadChart(req render.Request, prefix string) (*chart.Chart, error) {
	rules := ignore.Empty()
	if b, ok := req.Files[prefix+ignore.HelmIgnore]; ok {
		r, err := ignore.Parse(bytes.NewReader(b))
		if err != nil {
			return nil, &render.Error{What: req.What, Err: fmt.Sprintf("%s%s: %v", prefix, ignore.HelmIgnore, err)}
		}
		rules = r
	}
	rules.AddDefaults()
	var files []*loader.BufferedFile
	for _, name := range slices.Sorted(maps.Keys(req.Files)) {
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
		return nil, &render.Error{What: req.What, Err: err.Error()}
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

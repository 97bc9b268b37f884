package render

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/deploy/kube"
	"github.com/ckptlint/ckptlint/internal/format/flinkyaml"
)

// KustomizationNames are the file names kustomize reads in a directory
// (konfig.RecognizedKustomizationFileNames).
var KustomizationNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// Kustomize builds the kustomization in dir as `kustomize build dir` does
// (krusty with its default options: load restrictions to the root, no
// plugins, no helmCharts), over an in-memory file system holding the files
// the kustomizations name, read through read: resources and components
// (files, or directories with a kustomization, followed), patches, crds,
// configurations, replacements, openapi, and the files and env files of
// configMapGenerator and secretGenerator. A remote resource (a URL, a git
// repository) is not fetched: a note names it and the rest is built
// without it. It runs in ckptlint-render bounded by lim (child.go).
func Kustomize(dir string, read Read, lim Limits) (*Output, error) {
	what := "kustomization " + dir
	g := &gatherer{read: read, lim: lim, what: what, files: map[string][]byte{}, drop: map[string][]string{}}
	if err := g.dir(path.Clean(dir), 0); err != nil {
		return nil, err
	}
	req := Request{Kind: "kustomize", What: what, Dir: path.Clean(dir), Limits: lim, Files: g.files, Drop: g.drop}
	out, err := isolate(req)
	if out != nil {
		out.Notes = append(g.notes, out.Notes...)
	}
	if err != nil && len(g.notes) > 0 {
		return nil, &Error{What: what, Err: fmt.Sprintf("%v (%s)", err, strings.Join(g.notes, "; "))}
	}
	return out, err
}

// gatherer reads the files of a kustomization and of those it names.
type gatherer struct {
	read  Read
	lim   Limits
	what  string
	files map[string][]byte
	total int
	notes []string
	// drop are the remote entries to take out of each kustomization file.
	drop map[string][]string
}

// maxDepth bounds kustomizations naming kustomizations.
const maxDepth = 20

// file reads one file once.
func (g *gatherer) file(p string) ([]byte, error) {
	if b, ok := g.files[p]; ok {
		return b, nil
	}
	if len(g.files) >= g.lim.Files {
		return nil, &Error{What: g.what, Err: fmt.Sprintf("it names more than %d files", g.lim.Files)}
	}
	b, err := g.read(p)
	if err != nil {
		return nil, err
	}
	if g.total += len(b); g.total > g.lim.Bytes {
		return nil, &Error{What: g.what, Err: fmt.Sprintf("its files hold more than %d bytes", g.lim.Bytes)}
	}
	g.files[p] = b
	return b, nil
}

// kustomization reads the kustomization file of dir, "" when it has none.
func (g *gatherer) kustomization(dir string) (string, []byte) {
	for _, n := range KustomizationNames {
		p := path.Join(dir, n)
		if b, err := g.file(p); err == nil {
			return p, b
		}
	}
	return "", nil
}

// dir reads the kustomization of dir and everything it names.
func (g *gatherer) dir(dir string, depth int) error {
	if depth > maxDepth {
		return &Error{What: g.what, Err: fmt.Sprintf("kustomizations name each other more than %d deep at %s", maxDepth, dir)}
	}
	kpath, src := g.kustomization(dir)
	if kpath == "" {
		return &Error{What: g.what, Err: fmt.Sprintf("%s holds no kustomization.yaml", dir)}
	}
	k, err := g.parse(kpath, src)
	if err != nil {
		return err
	}
	// Resources and components: a file, or a directory with a
	// kustomization (kustomize tries them in that order, then a URL).
	for _, r := range append(append([]string(nil), k.Resources...), k.Components...) {
		if remote(r) {
			g.notes = append(g.notes, fmt.Sprintf("%s:%d: resource %s is remote: not fetched (ckptlint never touches the network), built without it", kpath, lineOf(src, r), r))
			g.drop[kpath] = append(g.drop[kpath], r)
			continue
		}
		p := path.Join(dir, r)
		if kp, _ := g.kustomization(p); kp != "" {
			if err := g.dir(p, depth+1); err != nil {
				return err
			}
			continue
		}
		if _, err := g.file(p); err != nil {
			return &Error{What: g.what, Err: fmt.Sprintf("%s:%d: resource %s: %v", kpath, lineOf(src, r), r, err)}
		}
	}
	for _, f := range namedFiles(k) {
		if f == "" {
			continue
		}
		if remote(f) {
			return &Error{What: g.what, Err: fmt.Sprintf("%s:%d: %s is remote: not fetched (ckptlint never touches the network)", kpath, lineOf(src, f), f)}
		}
		if _, err := g.file(path.Join(dir, f)); err != nil {
			return &Error{What: g.what, Err: fmt.Sprintf("%s:%d: %s: %v", kpath, lineOf(src, f), f, err)}
		}
	}
	if len(k.HelmCharts) > 0 {
		g.notes = append(g.notes, fmt.Sprintf("%s:%d: helmCharts are not inflated (kustomize needs --enable-helm and the helm binary; ckptlint renders the repository's charts itself)", kpath, lineOf(src, "helmCharts")))
	}
	return nil
}

// Kustomization holds the fields of a kustomization file that name files,
// with kustomize's own keys (sigs.k8s.io/kustomize/api/types
// kustomization.go, kvpairsources.go, patch.go, replacementfield.go at
// v0.21.2). ckptlint only gathers the files here: kustomize itself parses
// and builds the kustomization in ckptlint-render, so its libraries stay
// out of ckptlint (TestKustomizationKeys in package renderer checks each
// key against kustomize's types).
type Kustomization struct {
	Resources             []string          `yaml:"resources"`
	Components            []string          `yaml:"components"`
	Bases                 []string          `yaml:"bases"` // deprecated, moved into resources (FixKustomization)
	Crds                  []string          `yaml:"crds"`
	Configurations        []string          `yaml:"configurations"`
	Patches               []PathField       `yaml:"patches"`
	PatchesJSON6902       []PathField       `yaml:"patchesJson6902"`       // deprecated, still applied
	PatchesStrategicMerge []string          `yaml:"patchesStrategicMerge"` // deprecated, still applied: a path or an inline patch
	Replacements          []PathField       `yaml:"replacements"`
	OpenAPI               map[string]string `yaml:"openapi"`
	ConfigMapGenerator    []GeneratorFiles  `yaml:"configMapGenerator"`
	SecretGenerator       []GeneratorFiles  `yaml:"secretGenerator"`
	HelmCharts            []yaml.Node       `yaml:"helmCharts"`
	HelmChartInflation    []yaml.Node       `yaml:"helmChartInflationGenerator"` // moved into helmCharts (FixKustomization)
}

// PathField is a patch's or a replacement's path.
type PathField struct {
	Path string `yaml:"path"`
}

// GeneratorFiles are the files of a ConfigMap or Secret generator
// (types.KvPairSources, inline in types.GeneratorArgs).
type GeneratorFiles struct {
	Files []string `yaml:"files"`
	Envs  []string `yaml:"envs"`
	Env   string   `yaml:"env"` // the older, singular envs
}

// parse decodes a kustomization file, after the repository's alias bound
// (flinkyaml, docs/security.md): keys Kustomization does not know are
// never decoded, so yaml's own alias check would leave an alias bomb there
// to kustomize's parse in the child, whose error names no file.
func (g *gatherer) parse(kpath string, src []byte) (*Kustomization, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, &Error{What: g.what, Err: fmt.Sprintf("%s: %v", kpath, err)}
	}
	if kube.CollectionAliases(&doc, flinkyaml.MaxCollectionAliases) > flinkyaml.MaxCollectionAliases {
		return nil, &Error{What: g.what, Err: fmt.Sprintf("%s: more than %d aliases to mappings or lists (an alias bomb)", kpath, flinkyaml.MaxCollectionAliases)}
	}
	k := &Kustomization{}
	if err := doc.Decode(k); err != nil {
		return nil, &Error{What: g.what, Err: fmt.Sprintf("%s: %v", kpath, err)}
	}
	// As kustomize's FixKustomization: bases are resources, the
	// inflation generator's charts are helmCharts.
	k.Resources = append(k.Resources, k.Bases...)
	k.HelmCharts = append(k.HelmCharts, k.HelmChartInflation...)
	return k, nil
}

// namedFiles are the files a kustomization names besides its resources
// and components, relative to its directory ("" for none).
func namedFiles(k *Kustomization) []string {
	var files []string
	files = append(files, k.Crds...)
	files = append(files, k.Configurations...)
	for _, p := range append(append([]PathField(nil), k.Patches...), k.PatchesJSON6902...) {
		files = append(files, p.Path)
	}
	for _, s := range k.PatchesStrategicMerge {
		if !strings.Contains(s, "\n") {
			files = append(files, s)
		}
	}
	for _, r := range k.Replacements {
		files = append(files, r.Path)
	}
	files = append(files, k.OpenAPI["path"])
	for _, c := range append(append([]GeneratorFiles(nil), k.ConfigMapGenerator...), k.SecretGenerator...) {
		for _, f := range c.Files {
			if _, p, ok := strings.Cut(f, "="); ok {
				f = p
			}
			files = append(files, f)
		}
		files = append(files, c.Envs...)
		files = append(files, c.Env)
	}
	return files
}

// remote tells a resource kustomize would fetch: a URL, or a git
// repository address (github.com/org/repo//path?ref=v1, git@host:...).
func remote(r string) bool {
	return strings.Contains(r, "://") || strings.HasPrefix(r, "git@") || strings.HasPrefix(r, "github.com/") ||
		strings.HasPrefix(r, "gitlab.com/") || strings.HasPrefix(r, "bitbucket.org/") || strings.Contains(r, "?ref=") ||
		strings.Contains(r, "?version=") || strings.Contains(r, "_git/")
}

// lineOf is the first line of src naming s, 0 when none does.
func lineOf(src []byte, s string) int {
	if i := bytes.Index(src, []byte(s)); i >= 0 {
		return bytes.Count(src[:i], []byte("\n")) + 1
	}
	return 0
}

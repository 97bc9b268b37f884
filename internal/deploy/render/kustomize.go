package render

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/ckptlint/ckptlint/internal/deploy/kube"
	"github.com/ckptlint/ckptlint/internal/format/flinkyaml"
)

// kustomizationNames are the file names kustomize reads in a directory
// (konfig.RecognizedKustomizationFileNames).
var kustomizationNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// Kustomize builds the kustomization in dir as `kustomize build dir` does
// (krusty with its default options: load restrictions to the root, no
// plugins, no helmCharts), over an in-memory file system holding the files
// the kustomizations name, read through read: resources and components
// (files, or directories with a kustomization, followed), patches, crds,
// configurations, replacements, openapi, and the files and env files of
// configMapGenerator and secretGenerator. A remote resource (a URL, a git
// repository) is not fetched: a note names it and the rest is built
// without it. It runs in a child process bounded by lim (ServeChild).
func Kustomize(dir string, read Read, lim Limits) (*Output, error) {
	what := "kustomization " + dir
	g := &gatherer{read: read, lim: lim, what: what, files: map[string][]byte{}, drop: map[string][]string{}}
	if err := g.dir(path.Clean(dir), 0); err != nil {
		return nil, err
	}
	req := request{Kind: "kustomize", What: what, Dir: path.Clean(dir), Limits: lim, Files: g.files, Drop: g.drop}
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
	for _, n := range kustomizationNames {
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

// parse decodes a kustomization file as kustomize does (FixKustomization
// moves the deprecated bases into resources), after the repository's
// alias bound (flinkyaml, docs/security.md): keys Kustomization does not
// know are never decoded, so yaml's own alias check would leave an alias
// bomb there to kustomize's parse in the child, whose error names no file.
func (g *gatherer) parse(kpath string, src []byte) (*types.Kustomization, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, &Error{What: g.what, Err: fmt.Sprintf("%s: %v", kpath, err)}
	}
	if kube.CollectionAliases(&doc, flinkyaml.MaxCollectionAliases) > flinkyaml.MaxCollectionAliases {
		return nil, &Error{What: g.what, Err: fmt.Sprintf("%s: more than %d aliases to mappings or lists (an alias bomb)", kpath, flinkyaml.MaxCollectionAliases)}
	}
	k := &types.Kustomization{}
	if err := doc.Decode(k); err != nil {
		return nil, &Error{What: g.what, Err: fmt.Sprintf("%s: %v", kpath, err)}
	}
	k.FixKustomization()
	return k, nil
}

// namedFiles are the files a kustomization names besides its resources
// and components, relative to its directory ("" for none).
func namedFiles(k *types.Kustomization) []string {
	var files []string
	files = append(files, k.Crds...)
	files = append(files, k.Configurations...)
	for _, p := range k.Patches {
		files = append(files, p.Path)
	}
	for _, p := range k.PatchesJson6902 { //nolint:staticcheck // deprecated, yet in users' files and applied by kustomize (api internal/target/kusttarget_configplugin.go)
		files = append(files, p.Path)
	}
	for _, p := range k.PatchesStrategicMerge { //nolint:staticcheck // deprecated, yet in users' files and applied by kustomize (api internal/target/kusttarget_configplugin.go)
		if s := string(p); !strings.Contains(s, "\n") {
			files = append(files, s)
		}
	}
	for _, r := range k.Replacements {
		files = append(files, r.Path)
	}
	files = append(files, k.OpenAPI["path"])
	for _, c := range k.ConfigMapGenerator {
		files = append(files, generatorFiles(c.GeneratorArgs)...)
	}
	for _, c := range k.SecretGenerator {
		files = append(files, generatorFiles(c.GeneratorArgs)...)
	}
	return files
}

// generatorFiles are the files of a generator's files (key=path or path)
// and envs.
func generatorFiles(a types.GeneratorArgs) []string {
	var out []string
	for _, f := range a.FileSources {
		if _, p, ok := strings.Cut(f, "="); ok {
			f = p
		}
		out = append(out, f)
	}
	out = append(out, a.EnvSources...)
	if a.EnvSource != "" {
		out = append(out, a.EnvSource)
	}
	return out
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

// buildKustomize is Kustomize's part of a request, in the child.
func buildKustomize(req request) (*Output, error) {
	out := &Output{What: req.What, Source: "kustomize", Files: req.Files}
	fsys := filesys.MakeFsInMemory()
	vp := newVirtual(req.Files)
	root := rootKustomization(req)
	for p, b := range req.Files {
		if drop := req.Drop[p]; len(drop) > 0 || p == root {
			var err error
			if b, err = rewriteKustomization(b, drop, p == root); err != nil {
				return nil, &Error{What: req.What, Err: fmt.Sprintf("%s: %v", p, err)}
			}
		}
		if err := fsys.WriteFile(vp.to(p), b); err != nil {
			return nil, &Error{What: req.What, Err: err.Error()}
		}
	}
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	m, err := k.Run(fsys, vp.to(req.Dir))
	if err != nil {
		return nil, &Error{What: req.What, Err: vp.clean(err.Error())}
	}
	size := 0
	for _, r := range m.Resources() {
		src := req.Dir
		if o, err := r.GetOrigin(); err == nil && o != nil {
			switch {
			case o.Path != "":
				src = path.Join(req.Dir, o.Path)
			case o.ConfiguredIn != "":
				src = path.Join(req.Dir, o.ConfiguredIn)
			}
		}
		if err := r.SetOrigin(nil); err != nil {
			return nil, &Error{What: req.What, Err: err.Error()}
		}
		y, err := r.AsYAML()
		if err != nil {
			return nil, &Error{What: req.What, Err: err.Error()}
		}
		if size += len(y); size > req.Limits.Output {
			return nil, &Error{What: req.What, Err: fmt.Sprintf("the built output is over %d bytes", req.Limits.Output)}
		}
		out.Docs = append(out.Docs, Doc{Source: src, Text: y})
	}
	return out, nil
}

// rootKustomization is the display path of the kustomization built.
func rootKustomization(req request) string {
	for _, n := range kustomizationNames {
		if _, ok := req.Files[path.Join(req.Dir, n)]; ok {
			return path.Join(req.Dir, n)
		}
	}
	return ""
}

// rewriteKustomization takes the remote entries drop out of a
// kustomization's resources, components and bases, and for the root asks
// for origin annotations (buildMetadata: [originAnnotations]), which say
// which file each resource came from; they are removed from the output.
func rewriteKustomization(src []byte, drop []string, root bool) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return src, nil
	}
	m := doc.Content[0]
	dropped := map[string]bool{}
	for _, d := range drop {
		dropped[d] = true
	}
	hasMeta := false
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i].Value, m.Content[i+1]
		switch k {
		case "resources", "components", "bases":
			var keep []*yaml.Node
			for _, it := range v.Content {
				if !dropped[it.Value] {
					keep = append(keep, it)
				}
			}
			v.Content = keep
		case "buildMetadata":
			hasMeta = true
			if root && v.Kind == yaml.SequenceNode {
				v.Content = append(v.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: types.OriginAnnotations})
			}
		}
	}
	if root && !hasMeta {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "buildMetadata"},
			&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: types.OriginAnnotations}}})
	}
	return yaml.Marshal(&doc)
}

// virtual maps display paths into the in-memory file system: below a
// root deep enough for the "../" that lead out of the working directory.
type virtual struct{ up int }

func newVirtual(files map[string][]byte) virtual {
	v := virtual{}
	for p := range files {
		n := 0
		for q := path.Clean(p); strings.HasPrefix(q, "../"); q = q[3:] {
			n++
		}
		v.up = max(v.up, n)
	}
	return v
}

func (v virtual) root() string { return "/ckptlint" + strings.Repeat("/u", v.up) }

func (v virtual) to(p string) string { return path.Join(v.root(), p) }

// clean takes the virtual root out of a message.
func (v virtual) clean(msg string) string {
	return strings.ReplaceAll(msg, v.root()+"/", "")
}

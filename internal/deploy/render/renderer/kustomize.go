package renderer

import (
	"fmt"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/ckptlint/ckptlint/internal/deploy/render"
)

// buildKustomize is Kustomize's part of a request, in the child.
func buildKustomize(req render.Request) (*render.Output, error) {
	out := &render.Output{What: req.What, Source: "kustomize", Files: req.Files}
	fsys := filesys.MakeFsInMemory()
	vp := newVirtual(req.Files)
	root := rootKustomization(req)
	for p, b := range req.Files {
		if drop := req.Drop[p]; len(drop) > 0 || p == root {
			var err error
			if b, err = rewriteKustomization(b, drop, p == root); err != nil {
				return nil, &render.Error{What: req.What, Err: fmt.Sprintf("%s: %v", p, err)}
			}
		}
		if err := fsys.WriteFile(vp.to(p), b); err != nil {
			return nil, &render.Error{What: req.What, Err: err.Error()}
		}
	}
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	m, err := k.Run(fsys, vp.to(req.Dir))
	if err != nil {
		return nil, &render.Error{What: req.What, Err: vp.clean(err.Error())}
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
			return nil, &render.Error{What: req.What, Err: err.Error()}
		}
		y, err := r.AsYAML()
		if err != nil {
			return nil, &render.Error{What: req.What, Err: err.Error()}
		}
		if size += len(y); size > req.Limits.Output {
			return nil, &render.Error{What: req.What, Err: fmt.Sprintf("the built output is over %d bytes", req.Limits.Output)}
		}
		out.Docs = append(out.Docs, render.Doc{Source: src, Text: y})
	}
	return out, nil
}

// rootKustomization is the display path of the kustomization built.
func rootKustomization(req render.Request) string {
	for _, n := range render.KustomizationNames {
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
